import { EmptyState } from '@/components/ui/empty-state';
import { Forbidden } from '@/components/ui/forbidden';
import { PageHeader } from '@/components/ui/page-header';
import { requirePageWorkspace } from '@/lib/auth/session';

export const metadata = { title: 'Review' };

export default async function ReviewPage() {
  const { allowed } = await requirePageWorkspace('admin');
  if (!allowed) return <Forbidden required="admin" />;
  return (
    <>
      <PageHeader title="Review" description="Deliveries whose outcome is not yet known or needs a decision." />
      <EmptyState title="Nothing needs review">When a platform call ends with an unknown outcome and reconciliation cannot settle it, the delivery waits here with its evidence.</EmptyState>
    </>
  );
}
