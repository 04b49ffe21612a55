import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { webhookAttempts, webhookEndpoints, webhookEvents, webhookMessages, type WebhookEventType } from '../schema';
import { rows } from './deliveries/rows';
import { claimDueSql, outboxLeaseHeld } from './leased-outbox';

// The outbound side of webhooks (docs/architecture.md#webhooks): endpoints, the outbox and its per-endpoint
// messages. Claims are the leased outbox's (./leased-outbox.ts): SKIP LOCKED picks one sender, a lease and a
// generation fence it.

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** Columns safe to show an admin or an API client: never the sealed secret. */
const endpointColumns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  events: webhookEndpoints.events,
  enabled: webhookEndpoints.enabled,
  createdAt: webhookEndpoints.createdAt,
};

export async function createWebhookEndpoint(
  db: Executor,
  params: {
    id: string;
    workspaceId: string;
    url: string;
    secretSealed: string;
    events: WebhookEventType[];
    createdByUserId?: string | null;
  },
) {
  const [row] = await db.insert(webhookEndpoints).values(params).returning(endpointColumns);
  return row!;
}

export function listWebhookEndpoints(db: Executor, params: { workspaceId: string }) {
  return db
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, params.workspaceId))
    .orderBy(webhookEndpoints.createdAt);
}

/** The endpoint with its sealed secret, for the sender only. */
export async function getWebhookEndpointSecret(db: Executor, params: { workspaceId: string; endpointId: string }) {
  const [row] = await db
    .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, secretSealed: webhookEndpoints.secretSealed })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.workspaceId, params.workspaceId), eq(webhookEndpoints.id, params.endpointId)));
  return row ?? null;
}

export async function deleteWebhookEndpoint(db: Executor, params: { workspaceId: string; endpointId: string }) {
  const deleted = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.workspaceId, params.workspaceId), eq(webhookEndpoints.id, params.endpointId)))
    .returning({ id: webhookEndpoints.id });
  return deleted.length > 0;
}

/**
 * Pauses or resumes an endpoint: a disabled one gets no new events and its pending messages wait (nothing is
 * claimed for it) until it is enabled again, then go out with their same `webhook-id`. Null: no such endpoint here.
 */
export async function setWebhookEndpointEnabled(
  db: Executor,
  params: { workspaceId: string; endpointId: string; enabled: boolean },
) {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ enabled: params.enabled })
    .where(and(eq(webhookEndpoints.workspaceId, params.workspaceId), eq(webhookEndpoints.id, params.endpointId)))
    .returning(endpointColumns);
  return row ?? null;
}

/** Writes an event and its messages in the caller's transaction (the SQL function the delivery trigger uses too). */
export async function insertWebhookEvent(
  db: Executor,
  params: { workspaceId: string; type: string; subject: string; data: Record<string, unknown> },
): Promise<string | null> {
  const [row] = rows<{ id: string | null }>(
    await db.execute(
      sql`select webhook_emit(${params.workspaceId}::uuid, ${params.type}, ${params.subject}, ${JSON.stringify(params.data)}::jsonb) as id`,
    ),
  );
  return row?.id ?? null;
}

/** A `webhook.test` event for one enabled endpoint only (it subscribes to no such type); returns its message id. */
export async function insertTestWebhookEvent(
  db: Executor,
  params: { workspaceId: string; endpointId: string; data: Record<string, unknown> },
): Promise<string | null> {
  const [row] = rows<{ id: string }>(
    await db.execute(sql`
      with endpoint as (
        select id from webhook_endpoints where id = ${params.endpointId} and workspace_id = ${params.workspaceId} and enabled
      ), event as (
        insert into webhook_events (workspace_id, type, subject, sequence, data)
        select ${params.workspaceId}, 'webhook.test', 'endpoint:' || id::text, 1, ${JSON.stringify(params.data)}::jsonb
        from endpoint
        returning id
      )
      insert into webhook_messages (workspace_id, endpoint_id, event_id, next_attempt_at)
      select ${params.workspaceId}, endpoint.id, event.id, now() from endpoint, event
      returning id
    `),
  );
  return row?.id ?? null;
}

export type ClaimedWebhookMessage = {
  messageId: string;
  generation: number;
  attempts: number;
  workspaceId: string;
  endpointId: string;
  url: string;
  secretSealed: string;
  eventId: string;
  type: string;
  subject: string;
  sequence: number;
  data: Record<string, unknown>;
  eventCreatedAt: string;
};

/**
 * Claims due messages for one sender (the shared claim, db/queries/leased-outbox.ts): pending, due at `now`, not
 * under a live lease, for an enabled endpoint. The generation grows with every claim, so a sender whose lease ran
 * out can no longer record its outcome.
 */
export async function claimDueWebhookMessages(
  db: Executor,
  params: { now: Date; limit: number; leaseMs: number; messageIds?: string[] },
): Promise<ClaimedWebhookMessage[]> {
  return rows<ClaimedWebhookMessage>(
    await db.execute(
      claimDueSql(
        'webhook_messages',
        { now: params.now, limit: params.limit, leaseMs: params.leaseMs, ids: params.messageIds },
        {
          where: sql`and exists (select 1 from webhook_endpoints e where e.id = o.endpoint_id and e.enabled)`,
          set: sql`, updated_at = now()`,
          select: sql`
            select c.id as "messageId", c.generation, c.attempts, c.workspace_id as "workspaceId",
                   c.endpoint_id as "endpointId", e.url, e.secret_sealed as "secretSealed", c.event_id as "eventId",
                   ev.type, ev.subject, ev.sequence, ev.data, to_json(ev.created_at)#>>'{}' as "eventCreatedAt"
            from claimed c
            join webhook_endpoints e on e.id = c.endpoint_id
            join webhook_events ev on ev.id = c.event_id`,
        },
      ),
    ),
  );
}

/** Whether this claim still holds its message, right before the POST (a lapsed or taken-over lease sends nothing). */
export function webhookLeaseHeld(db: Executor, params: { messageId: string; generation: number; now: Date }) {
  return outboxLeaseHeld(db, {
    table: 'webhook_messages',
    id: params.messageId,
    generation: params.generation,
    now: params.now,
  });
}

export type WebhookAttemptOutcome = {
  startedAt: Date;
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
};

/**
 * Logs an attempt and moves its message on, fenced by the claim's generation: a sender whose lease ran out
 * (and whose message another sender took) writes nothing. `nextAttemptAt` null with a failure: given up.
 */
export async function recordWebhookAttempt(
  db: Executor,
  params: { messageId: string; generation: number; outcome: WebhookAttemptOutcome; nextAttemptAt: Date | null },
): Promise<boolean> {
  const { outcome } = params;
  const status = outcome.ok ? 'succeeded' : params.nextAttemptAt ? 'pending' : 'failed';
  const result = rows<{ id: string }>(
    await db.execute(sql`
      with moved as (
        update webhook_messages
        set status = ${status}, attempts = attempts + 1, last_status_code = ${outcome.statusCode},
            next_attempt_at = ${params.nextAttemptAt ? at(params.nextAttemptAt) : sql`next_attempt_at`},
            lease_expires_at = null, updated_at = now()
        where id = ${params.messageId} and generation = ${params.generation} and status = 'pending'
        returning id, workspace_id
      )
      insert into webhook_attempts (workspace_id, message_id, generation, started_at, ok, status_code, latency_ms, error, response_excerpt)
      select workspace_id, id, ${params.generation}, ${at(outcome.startedAt)}, ${outcome.ok}, ${outcome.statusCode},
             ${outcome.latencyMs}, ${outcome.error}, ${outcome.responseExcerpt}
      from moved
      returning message_id as id
    `),
  );
  return result.length > 0;
}

/**
 * Manual redeliver: the same event (same webhook-id) goes out again now, whatever its last outcome. A live
 * lease is kept: a message being sent right now is not sent twice at once.
 */
export async function redeliverWebhookMessage(db: Executor, params: { workspaceId: string; messageId: string }) {
  const moved = await db
    .update(webhookMessages)
    .set({ status: 'pending', nextAttemptAt: sql`date_trunc('milliseconds', now())`, updatedAt: sql`now()` })
    .where(and(eq(webhookMessages.workspaceId, params.workspaceId), eq(webhookMessages.id, params.messageId)))
    .returning({ id: webhookMessages.id });
  return moved.length > 0;
}

export type WebhookLogRow = {
  messageId: string;
  eventId: string;
  type: string;
  sequence: number;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
  lastAttemptAt: string | null;
};

/** The delivery log of one endpoint: its messages, newest first, each with its last attempt. */
export async function listWebhookLog(db: Executor, params: { workspaceId: string; endpointId: string; limit: number }) {
  return rows<WebhookLogRow>(
    await db.execute(sql`
      select m.id as "messageId", ev.id as "eventId", ev.type, ev.sequence, m.status, m.attempts,
             to_json(m.next_attempt_at)#>>'{}' as "nextAttemptAt", a.status_code as "statusCode",
             a.latency_ms as "latencyMs", a.error, to_json(a.started_at)#>>'{}' as "lastAttemptAt"
      from webhook_messages m
      join webhook_events ev on ev.id = m.event_id
      left join lateral (
        select * from webhook_attempts wa where wa.message_id = m.id order by wa.id desc limit 1
      ) a on true
      where m.workspace_id = ${params.workspaceId} and m.endpoint_id = ${params.endpointId}
      order by m.created_at desc, ev.sequence desc
      limit ${params.limit}
    `),
  );
}

/** Every attempt of one message, oldest first (tests and the log's detail). */
export function listWebhookAttempts(db: Executor, params: { workspaceId: string; messageId: string }) {
  return db
    .select()
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.workspaceId, params.workspaceId), eq(webhookAttempts.messageId, params.messageId)))
    .orderBy(webhookAttempts.id);
}

/** The events of one subject, in sequence order. */
export function listWebhookEvents(db: Executor, params: { workspaceId: string; subject: string }) {
  return db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.workspaceId, params.workspaceId), eq(webhookEvents.subject, params.subject)))
    .orderBy(desc(webhookEvents.sequence));
}

/**
 * Retention: one batch of events older than `before` with no message still pending (a message still being
 * retried keeps its event); their messages and logged attempts go with them (on delete cascade).
 */
export async function deleteSettledWebhookEventsBefore(db: Executor, params: { before: Date; batchSize: number }) {
  const result = await db.execute(sql`
    with old as (
      select ev.id from webhook_events ev
      where ev.created_at < ${at(params.before)}
        and not exists (select 1 from webhook_messages m where m.event_id = ev.id and m.status = 'pending')
      order by ev.created_at
      limit ${params.batchSize}
      for update skip locked
    )
    delete from webhook_events ev using old where ev.id = old.id
    returning ev.id`);
  return rows<{ id: string }>(result).length;
}
