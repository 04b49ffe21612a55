import { EmptyState } from '@/components/ui/empty-state';
import { Forbidden } from '@/components/ui/forbidden';
import { PageHeader } from '@/components/ui/page-header';
import { requirePageWorkspace } from '@/lib/auth/session';

export const metadata = { title: 'Compose' };

export default async function ComposePage() {
  const { allowed } = await requirePageWorkspace('manager');
  if (!allowed) return <Forbidden required="manager" />;
  return (
    <>
      <PageHeader title="Compose" description="Write once, schedule to one or many accounts." />
      <EmptyState title="The composer is coming next">Every post you create here will carry its own idempotency key, so a double click or a retry can never schedule it twice.</EmptyState>
    </>
  );
}
