import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { executePrepared } from '../prepared';
import { rows } from './rows';

/**
 * Claims whose lease ran out (their worker died or stalled): released back to `scheduled` if the
 * attempt never started; `ambiguous` if it did, since the platform may have the post (docs/architecture.md#delivery-states).
 */
export async function sweepExpiredClaims(db: Executor) {
  const result = await executePrepared(
    db,
    sql`
    with expired as (
      select c.delivery_id, c.generation, d.workspace_id,
        exists (select 1 from attempts a where a.delivery_id = c.delivery_id and a.generation = c.generation) as started
      from claims c join deliveries d on d.id = c.delivery_id
      where c.released_at is null and c.lease_expires_at < now() and d.status = 'publishing'
      for update of c, d skip locked
    ), released as (
      update claims c set released_at = now() from expired e where c.delivery_id = e.delivery_id and not e.started
      returning c.delivery_id
    ), attempts_closed as (
      update attempts a set finished_at = now(), outcome = 'ambiguous', detail = 'worker lost after the call started'
      from expired e where e.started and a.delivery_id = e.delivery_id and a.generation = e.generation and a.finished_at is null
      returning a.id
    ), updated as (
      update deliveries d set status = (case when e.started then 'ambiguous' else 'scheduled' end)::delivery_status, due_at = now(), updated_at = now()
      from expired e where d.id = e.delivery_id
      returning d.id
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, detail)
      select e.workspace_id, e.delivery_id, 'publishing', (case when e.started then 'ambiguous' else 'scheduled' end)::delivery_status, 'system:lease-sweeper',
        case when e.started then 'lease expired after the platform call started: outcome unknown' else 'lease expired before any call: released' end,
        jsonb_build_object('generation', e.generation)
      from expired e
    )
    select count(*) filter (where started)::int as ambiguous, count(*) filter (where not started)::int as released from expired`,
  );
  return rows<{ ambiguous: number; released: number }>(result)[0] ?? { ambiguous: 0, released: 0 };
}
