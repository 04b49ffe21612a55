import { NewWorkspaceForm } from '@/components/teams/new-workspace-form';
import { Forbidden } from '@/components/ui/forbidden';
import { PageHeader } from '@/components/ui/page-header';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { createWorkspaceAction } from './actions';

export const metadata = { title: 'New workspace' };

/** An admin creates a workspace for a client (and becomes its admin). */
export default async function NewWorkspacePage() {
  const { allowed } = await requirePageWorkspace('manageWorkspace');
  return (
    <>
      <PageHeader title="New workspace" description="A workspace per client: its own accounts, posts and members." />
      {allowed ? (
        <section className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <NewWorkspaceForm zones={['UTC', ...Intl.supportedValuesOf('timeZone')]} action={createWorkspaceAction} />
        </section>
      ) : (
        <Forbidden capability="manageWorkspace" />
      )}
    </>
  );
}
