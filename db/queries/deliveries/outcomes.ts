import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { executePrepared } from '../prepared';
import { rows } from './rows';
import type { DeliveryStatus } from '../../schema';
import { jsonb } from '../sql-params';

export type DeliveryOutcome = {
  deliveryId: string;
  generation: number;
  attemptId: string | null;
  outcome: 'sent' | 'failed' | 'not_sent' | 'ambiguous' | null;
  /** sent | failed | ambiguous, or scheduled (not sent / deferred: claimed again later). */
  status: Extract<DeliveryStatus, 'sent' | 'failed' | 'ambiguous' | 'scheduled'>;
  externalId?: string | null;
  url?: string | null;
  reason: string;
  httpStatus?: number | null;
  durationMs?: number | null;
  /** For `scheduled`: when it may be claimed again. */
  dueAt?: Date | null;
  detail?: Record<string, unknown>;
};

/**
 * Writes outcomes fenced by claim generation (I4): an outcome whose claim was taken over, released or
 * swept writes nothing. `ambiguous` keeps the claim held: only reconciliation may release it.
 * Returns the delivery ids that were written.
 */
export async function recordOutcomes(db: Executor, params: { outcomes: DeliveryOutcome[]; actor: string }) {
  if (params.outcomes.length === 0) return [];
  const o = params.outcomes;
  const result = await executePrepared(
    db,
    sql`
    with input as (
      select * from jsonb_to_recordset(${jsonb(
        o.map((x) => ({
          delivery_id: x.deliveryId,
          generation: x.generation,
          attempt_id: x.attemptId,
          outcome: x.outcome,
          status: x.status,
          external_id: x.externalId ?? null,
          url: x.url ?? null,
          reason: x.reason,
          http_status: x.httpStatus ?? null,
          duration_ms: x.durationMs == null ? null : Math.round(x.durationMs),
          due_at: x.dueAt?.toISOString() ?? null,
          detail: x.detail ?? {},
        })),
      )}) as t(delivery_id uuid, generation int, attempt_id uuid, outcome text, status text, external_id text, url text, reason text,
        http_status int, duration_ms int, due_at timestamptz, detail jsonb)
    ), fenced as (
      select i.*, d.workspace_id, d.account_id from input i
      join claims c on c.delivery_id = i.delivery_id and c.generation = i.generation
      join deliveries d on d.id = i.delivery_id
      where c.released_at is null and d.status = 'publishing'
      for update of c, d
    ), finished as (
      -- The attempt and the claim are written by their unique keys through ON CONFLICT, an index probe whatever the
      -- plan: an UPDATE … FROM was planned once per connection, while attempts and claims were nearly empty, as a scan
      -- of the whole table for every row, a cost that grew with every delivery sent (npm run bench:compare). Both rows
      -- exist (fenced holds the claim; the attempt started at this generation), so nothing is inserted.
      insert into attempts as a (delivery_id, generation, account_id, finished_at, outcome, http_status, detail, duration_ms)
      select f.delivery_id, f.generation, f.account_id, now(), f.outcome::attempt_outcome, f.http_status, f.reason, f.duration_ms
      from fenced f where f.attempt_id is not null
      on conflict (delivery_id, generation) do update
        set finished_at = excluded.finished_at, outcome = excluded.outcome, http_status = excluded.http_status,
          detail = excluded.detail, duration_ms = excluded.duration_ms
      returning a.id
    ), released as (
      -- ambiguous keeps the claim held (no re-claim) but ends its lease, so reconciliation can take it.
      insert into claims as c (delivery_id, generation, worker_id, lease_expires_at, released_at)
      select f.delivery_id, f.generation, '', now(), case when f.status = 'ambiguous' then null else now() end from fenced f
      on conflict (delivery_id) do update set released_at = excluded.released_at, lease_expires_at = excluded.lease_expires_at
      returning c.delivery_id
    ), updated as (
      update deliveries d set
        status = f.status::delivery_status,
        external_id = coalesce(f.external_id, d.external_id),
        external_url = coalesce(f.url, d.external_url),
        failure_reason = case when f.status = 'failed' then f.reason else d.failure_reason end,
        due_at = coalesce(f.due_at, d.due_at),
        settled_at = case when f.status in ('sent', 'failed') then now() else d.settled_at end,
        updated_at = now()
      from fenced f where d.id = f.delivery_id
      returning d.id
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, detail)
      select f.workspace_id, f.delivery_id, 'publishing', f.status::delivery_status, ${params.actor}, f.reason,
        f.detail || jsonb_build_object('generation', f.generation, 'outcome', f.outcome, 'httpStatus', f.http_status, 'durationMs', f.duration_ms, 'externalId', f.external_id)
      from fenced f
    ), notified as (
      insert into notifications (workspace_id, delivery_id, kind, message)
      select f.workspace_id, f.delivery_id, 'failed', 'A delivery failed: ' || f.reason from fenced f where f.status = 'failed'
      on conflict (delivery_id, kind) do nothing
    )
    select id as "deliveryId" from updated`,
  );
  return rows<{ deliveryId: string }>(result).map((r) => r.deliveryId);
}
