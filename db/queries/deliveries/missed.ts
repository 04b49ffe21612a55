import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { executePrepared } from '../prepared';
import { rows } from './rows';
import { latenessDeadline, shortestLatenessLimit } from './lateness';
import { partReady } from './thread';

/**
 * Due deliveries that can no longer go out on time (workspace lateness limit) become `missed`. Only due ones
 * (docs/architecture.md#delivery-states), and of those only the ones that can be late, so a pass at the top of the
 * hour does not read the whole backlog that has just fallen due: a delivery never claimed has a due time no later
 * than its deadline less its workspace's limit (its post's time, or an admin's "publish now" after review), so it can
 * be late only once it has been due for the smallest limit of any workspace; a retried one (a later due time after a
 * backoff, a deferral or a release) is read from its own small index whenever it is due. One held back past its limit
 * is marked when it falls due, before any claim of that pass; it is never published late.
 */
export async function markMissedDeliveries(db: Executor) {
  const result = await executePrepared(
    db,
    sql`
    with candidates as (
      select d.id from deliveries d where d.status = 'scheduled'
        and d.due_at <= now() - ${shortestLatenessLimit}
      union
      select d.id from deliveries d where d.status = 'scheduled' and d.attempt_count > 0 and d.due_at <= now()
    ), late as (
      -- Lateral: the post and workspace of each due delivery by their keys. A plain join let the planner hash all
      -- of posts when it misjudged how many are due (a sequential scan per pass, npm run bench:growth).
      select d.id, d.workspace_id, d.part, p.kind = 'thread' as thread from deliveries d
      cross join lateral (select scheduled_at, kind from posts where posts.id = d.post_id offset 0) p
      cross join lateral (select lateness_limit_seconds from workspaces where workspaces.id = d.workspace_id offset 0) w
      where d.id = any(array(select id from candidates)) and d.status = 'scheduled' and d.due_at <= now()
        and ${latenessDeadline} < now()
        -- A thread part waiting for the part before it is judged when that part is sent (the limit is the thread's);
        -- the parts after a missed one follow it (settleStrandedParts).
        and ${partReady}
      for update of d skip locked
    ), updated as (
      -- By key (an index condition), never a hash of the whole table, however many the planner expects to be late.
      update deliveries d set status = 'missed', settled_at = now(), updated_at = now()
      where d.id = any(array(select id from late)) returning d.id
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason)
      select workspace_id, id, 'scheduled', 'missed', 'system:publisher',
        case when thread then 'part ' || (part + 1) || ' of the thread: ' else '' end || 'past the workspace lateness limit' from late
    )
    select count(*)::int as missed from updated`,
  );
  return rows<{ missed: number }>(result)[0]?.missed ?? 0;
}
