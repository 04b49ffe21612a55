import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';

/**
 * Disconnects an account in one statement: its sealed token is wiped (never used again) and its
 * scheduled deliveries are held in needs_review, so nothing is published or lost behind the admin's
 * back. A delivery the publisher claimed first keeps its call; the reconciler then sends it to review.
 */
export async function disconnectAccount(
  db: Executor,
  params: { workspaceId: string; accountId: string; actor: string },
) {
  const result = await db.execute(sql`
    with account as (
      update social_accounts set disconnected_at = now(), credentials_encrypted = ''
      where id = ${params.accountId} and workspace_id = ${params.workspaceId} and disconnected_at is null
      returning id
    ), held as (
      update deliveries d set status = 'needs_review', due_at = now(), updated_at = now()
      from account where d.account_id = account.id and d.status = 'scheduled'
      returning d.id, d.workspace_id
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason)
      select workspace_id, id, 'scheduled', 'needs_review', ${params.actor}, 'account disconnected: held until an admin decides' from held
    ), notified as (
      insert into notifications (workspace_id, delivery_id, kind, message)
      select workspace_id, id, 'needs_review', 'A delivery needs review: account disconnected' from held
      on conflict (delivery_id, kind) do nothing
    )
    select (select id from account) as id, (select count(*)::int from held) as held`);
  const row = [...result][0] as { id: string | null; held: number };
  return row.id ? { id: row.id, held: Number(row.held) } : null;
}
