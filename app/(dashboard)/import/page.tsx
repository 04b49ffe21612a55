import { ImportFlow } from '@/components/import/import-flow';
import { Forbidden } from '@/components/ui/forbidden';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { getWorkspaceSettings } from '@/db/queries/workspaces';
import { requirePageWorkspace } from '@/lib/auth/gate';

export const metadata = { title: 'Import' };

export default async function ImportPage() {
  const { allowed, workspace } = await requirePageWorkspace('compose');
  if (!allowed) return <Forbidden capability="compose" />;
  const settings = await getWorkspaceSettings(getDb(), { workspaceId: workspace.id });
  return (
    <>
      <PageHeader
        title="Import"
        description="Schedule many posts from a CSV file. Uploading the same file again creates nothing twice."
      />
      <ImportFlow workspaceTimeZone={settings?.timeZone ?? 'UTC'} />
    </>
  );
}
