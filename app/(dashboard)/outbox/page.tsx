import { OutboxList } from '@/components/notifications/outbox-list';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listOutboxEmails } from '@/db/queries/notification-sends';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { getEnv } from '@/lib/env';

export const metadata = { title: 'Outbox' };
export const dynamic = 'force-dynamic';

/**
 * Development Outbox: without SMTP_URL, notification emails are stored instead of sent, and read here. Admins see
 * the workspace's; every other member only their own.
 */
export default async function OutboxPage() {
  const { workspace, user, role } = await requirePageWorkspace();
  const everyone = can(role, 'manageWorkspace');
  const emails = await listOutboxEmails(getDb(), {
    workspaceId: workspace.id,
    userId: everyone ? null : user.id,
    viewerId: user.id,
    limit: 200,
  });
  const smtp = Boolean(getEnv().SMTP_URL);
  return (
    <>
      <PageHeader
        title="Outbox"
        description={
          smtp
            ? 'SMTP_URL is set: notification emails are sent, not stored here. Older stored ones are kept below.'
            : `SMTP_URL is not set: notification emails are stored here instead of being sent. ${everyone ? 'You see every member’s.' : 'You see your own.'}`
        }
      />
      <OutboxList emails={emails} />
    </>
  );
}
