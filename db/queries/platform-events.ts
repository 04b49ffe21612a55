import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
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
  /**
   * Where the delivery keeps the platform's id that `objectId` names: a provider_state key (TikTok's `publishId`, kept
   * before the publish exists), else its external id (the post's id once it is sent).
   */
  objectStateKey?: string;
  /** The event reports a publish's outcome (TikTok's post.publish.complete…): an ambiguous delivery is read again now. */
  evidence?: boolean;
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
        (select d.id from deliveries d where d.account_id = a.id and ${
          event.objectStateKey
            ? sql`d.provider_state->>${event.objectStateKey} = ${event.objectId}`
            : sql`d.external_id = ${event.objectId}`
        } limit 1) as delivery_id
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

/** Delivery states an event can no longer move forward: it was settled already (or is an admin's to decide). */
/**
 * Where an outcome event changes nothing because the delivery already says it: `sent`. On a delivery that failed,
 * was missed or canceled, or waits for review, a publish's outcome is evidence a person (or the late-copy watch) needs
 * — a late "complete" says the post is live after all — so it is `kept` with the delivery, never pruned as ignored.
 */
const SETTLED = ['sent'];

/**
 * Applies one stored event that reports a publish's outcome, only forward and never around the transition table: an
 * `ambiguous` delivery is made due for its next reconciliation check now (the reconciler reads the platform and moves
 * it, through the table: the evidence arrived, the read still decides); a settled one is left as it is (`ignored`: a
 * late or contradicting event never moves a status back, I5); one still publishing or scheduled is the attempt's to
 * settle (`kept`). Answers the outcome stored on the event.
 */
export async function applyPlatformEvent(db: Executor, params: { eventId: string; deliveryId: string }) {
  const [row] = await db.execute<{ outcome: string }>(sql`
    with woken as (
      update deliveries set due_at = least(due_at, now()), updated_at = now()
      where id = ${params.deliveryId} and status = 'ambiguous'
      returning id
    )
    update platform_events set outcome = case
        when exists (select 1 from woken) then 'applied'
        when (select status::text from deliveries where id = ${params.deliveryId}) in (${sql.join(
          SETTLED.map((s) => sql`${s}`),
          sql`, `,
        )}) then 'ignored'
        else 'kept' end
    where id = ${params.eventId}
    returning outcome`);
  return row?.outcome ?? null;
}

/**
 * Retention: events that concern no delivery (`unmatched`) or moved nothing (`ignored`) older than `before`, one batch.
 * Kept and applied events stay with their delivery (its evidence).
 */
export async function deletePlatformEventsBefore(db: Executor, params: { before: Date; batchSize: number }) {
  const old = db
    .select({ id: platformEvents.id })
    .from(platformEvents)
    .where(and(inArray(platformEvents.outcome, ['unmatched', 'ignored']), lt(platformEvents.receivedAt, params.before)))
    .limit(params.batchSize);
  const rows = await db
    .delete(platformEvents)
    .where(inArray(platformEvents.id, old))
    .returning({ id: platformEvents.id });
  return rows.length;
}
