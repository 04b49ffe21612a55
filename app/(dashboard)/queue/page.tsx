import Link from 'next/link';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { requirePageWorkspace } from '@/lib/auth/session';

export const metadata = { title: 'Queue' };

export default async function QueuePage() {
  const { workspace, role } = await requirePageWorkspace();
  return (
    <>
      <PageHeader title="Queue" description={`Scheduled, publishing and settled posts in ${workspace.name}.`} />
      <EmptyState
        title="Nothing scheduled yet"
        action={role !== 'viewer' ? <Link href="/compose" className="text-sm font-semibold text-indigo-700 hover:underline">Compose a post →</Link> : undefined}
      >
        Posts you schedule appear here grouped by day, each with its state: scheduled, publishing, sent, or
        &ldquo;ambiguous — being verified&rdquo; while Postonce checks the platform.
      </EmptyState>
    </>
  );
}
