import Link from 'next/link';
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
      <section aria-labelledby="api" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="api" className="mb-2 text-base font-semibold">API</h2>
        <p className="text-sm text-slate-600">API keys and how to create posts from your own tools, exactly once.</p>
        <Link href="/settings/api" className="mt-3 inline-block text-sm font-semibold text-indigo-700 hover:underline">Open API settings →</Link>
      </section>
    </>
  );
}
