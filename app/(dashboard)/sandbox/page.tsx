import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { requirePageWorkspace } from '@/lib/auth/session';

export const metadata = { title: 'Sandbox' };

export default async function SandboxPage() {
  await requirePageWorkspace();
  return (
    <>
      <PageHeader title="Sandbox" description="A built-in fake social network with fault injection." />
      <EmptyState title="No sandbox posts yet">The sandbox network speaks the X and Mastodon wire formats. Its live timeline and fault knobs (timeouts after commit, resets, 5xx, 429) will show here.</EmptyState>
    </>
  );
}
