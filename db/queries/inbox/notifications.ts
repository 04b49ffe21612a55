import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';

/**
 * The bell's (and each member's email, per their inbox preference: migration 0039) notice of new inbox items on one
 * account: once per batch, keyed by its first item (`notifications_account_incident_uq`), so a re-run writes none.
 */
export async function insertInboxNotification(
  db: Executor,
  params: { workspaceId: string; accountId: string; firstItemId: string; message: string },
): Promise<boolean> {
  const result = await db.execute(sql`
    insert into notifications (workspace_id, account_id, kind, incident_key, message)
    values (${params.workspaceId}, ${params.accountId}, 'inbox', ${`item:${params.firstItemId}`}, ${params.message})
    on conflict do nothing
    returning id`);
  return [...result].length > 0;
}
