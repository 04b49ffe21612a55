import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { platformEvents, type ProviderName } from '../schema';
import { jsonb } from './sql-params';

export type IncomingPlatformEvent = {
  provider: ProviderName;
  sandbox: boolean;
  eventKey: string;
  kind: string;
  platformUserId: string | null;
  objectId: string | null;
  payload: Record<string, unknown>;
};

/**
 * Stores one platform event once per connected account it concerns (`platform_events_key_uq`: a redelivery stores
 * nothing), matched in the same statement to each such account (by the platform's user id, among sandbox or real
 * accounts as it was signed; one platform account may be connected in several workspaces) and to the delivery that
 * published the object it names (its external id). With no connected account, one `unmatched` row. Answers the
 * rows stored (none on a redelivery).
 */
export async function recordPlatformEvent(db: Executor, event: IncomingPlatformEvent) {
  const rows = await db.execute<{
    id: string;
    outcome: string;
    deliveryId: string | null;
    workspaceId: string | null;
  }>(sql`
    with account as (
      select a.id, a.workspace_id,
        (select d.id from deliveries d where d.account_id = a.id and d.external_id = ${event.objectId} limit 1) as delivery_id
      from social_accounts a
      where a.provider = ${event.provider} and a.sandbox = ${event.sandbox} and a.platform_user_id = ${event.platformUserId}
        and a.disconnected_at is null
    ), target as (
      select id, workspace_id, delivery_id from account
      union all
      select null, null, null where not exists (select 1 from account)
    )
    insert into platform_events
      (provider, sandbox, event_key, kind, platform_user_id, object_id, workspace_id, account_id, delivery_id, outcome, payload)
    select ${event.provider}, ${event.sandbox}, ${event.eventKey}, ${event.kind}, ${event.platformUserId}, ${event.objectId},
      t.workspace_id, t.id, t.delivery_id, case when t.delivery_id is null then 'unmatched' else 'kept' end, ${jsonb(event.payload)}
    from target t
    on conflict (provider, sandbox, event_key, account_id) do nothing
    returning id, outcome, delivery_id as "deliveryId", workspace_id as "workspaceId"`);
  return [...rows];
}

/** The workspace's platform events, newest first (the account page's "what the platform told us"). */
export async function listPlatformEvents(db: Executor, params: { workspaceId: string; limit?: number }) {
  return db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.workspaceId, params.workspaceId)))
    .orderBy(desc(platformEvents.receivedAt))
    .limit(params.limit ?? 50);
}
