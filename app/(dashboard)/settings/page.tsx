import { RenameWorkspaceForm } from '@/components/settings/rename-workspace-form';
import { PageHeader } from '@/components/ui/page-header';
import { requirePageWorkspace } from '@/lib/auth/session';
import { renameWorkspaceAction } from './actions';

export const metadata = { title: 'Settings' };

export default async function SettingsPage() {
  const { workspace, role } = await requirePageWorkspace();
  return (
    <>
      <PageHeader title="Settings" description="Workspace settings, members and API keys." />
      <section aria-labelledby="general" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="general" className="mb-4 text-base font-semibold">General</h2>
        <RenameWorkspaceForm name={workspace.name} canEdit={role === 'admin'} action={renameWorkspaceAction} />
      </section>
    </>
  );
}
