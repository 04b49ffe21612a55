import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { executePrepared } from '../prepared';
import { rows } from './rows';
import { interval } from '../sql-params';
import { accountCanPublish } from '../token-health';
import { latenessDeadline, shortestLatenessLimit } from './lateness';
import { partReady } from './thread';
import type { ProviderName } from '@/db/schema';

// Every guard of the publishing path is one atomic statement (docs/architecture.md#write-order): row locks with SKIP LOCKED
// pick one claimer, the claim's generation fences every later write, and status checks keep them monotonic.

export type ClaimedDelivery = {
  deliveryId: string;
  generation: number;
  accountId: string;
  provider: ProviderName;
  sandbox: boolean;
  /** More was due than this claim could take (it was shared out between workspaces): claim again. */
  contended: boolean;
};

/** A due delivery the claim may take (alias d). */
const claimable = sql`
  -- A disconnected account's token is wiped (its deliveries go to review); one whose token needs a reconnect or has
  -- expired holds them here: not claimed, not failed, published once the account is healthy again.
  exists (select 1 from social_accounts a where a.id = d.account_id and ${accountCanPublish})
  -- A thread part only after the part before it is sent (it replies to that part's platform id).
  and ${partReady}
  -- Never one past its lateness limit, whether or not mark-missed (which runs apart from the claims) has seen it. One
  -- never claimed has a due time no later than its deadline less its workspace's limit (markMissedDeliveries), so it
  -- cannot be late before it has been due for the smallest limit: the check costs nothing at the top of the hour. The
  -- others (retried: released, deferred, backed off) are checked by a probe per row (offset 0 keeps it one).
  and ((d.attempt_count = 0 and d.due_at > now() - (select shortest from lateness))
    or exists (select 1 from posts p join workspaces w on w.id = p.workspace_id
      where p.id = d.post_id and ${latenessDeadline} >= now() offset 0))`;

/**
 * Claims up to `limit` due deliveries for `workerId`: scheduled → publishing, claim generation + 1, history row.
 *
 * Fair across workspaces (docs/publishing.md#fairness) at a cost that does not grow with the backlog. When everything
 * due fits in the claim (the usual case) it is taken as it is. When more is due, the claim is shared out: every
 * workspace with something due (found by one index probe each) gets an equal share, taken earliest first, and what a
 * workspace could not use goes, in a second round, to those that had more; the result is ordered by turn (every
 * workspace's first turn before anyone's second). So at the top of the hour a workspace with ten thousand posts due
 * does not hold back one with ten, and each claim reads about `limit` rows, not the whole backlog.
 */
export async function claimDueDeliveries(db: Executor, params: { workerId: string; limit: number; leaseMs: number }) {
  const result = await executePrepared(
    db,
    sql`
    with recursive lateness as (
      select ${shortestLatenessLimit} as shortest
    ), head as (
      -- Not locked: only whether more is due than this claim takes. Ordered by the partial due index.
      select d.id, d.due_at from deliveries d
      where d.status = 'scheduled' and d.due_at <= now() and ${claimable}
      order by d.due_at limit ${params.limit + 1}
    ), contended as (
      select count(*) > ${params.limit} as yes from head
    ), tenants (workspace_id, due_at) as (
      -- A loose scan of deliveries_scheduled_workspace_idx: each workspace with scheduled deliveries and its earliest
      -- due time, one probe each, only when the claim has to be shared out.
      (select d.workspace_id, d.due_at from deliveries d where d.status = 'scheduled' and (select yes from contended)
        order by d.workspace_id, d.due_at limit 1)
      union all
      select n.workspace_id, n.due_at from tenants t cross join lateral (
        select d.workspace_id, d.due_at from deliveries d where d.status = 'scheduled' and d.workspace_id > t.workspace_id
        order by d.workspace_id, d.due_at limit 1) n
    ), share as (
      select ceil(${params.limit}::numeric / greatest(1, count(*)))::int as k from tenants where due_at <= now()
    ), first_round as (
      select c.* from tenants t cross join share cross join lateral (
        select d.id, d.workspace_id, d.due_at from deliveries d
        where d.workspace_id = t.workspace_id and d.status = 'scheduled' and d.due_at <= now() and ${claimable}
        order by d.due_at, d.id limit share.k
        for update of d skip locked) c
      where t.due_at <= now()
    ), saturated as (
      -- Workspaces that used their whole share may have more: where each one's share ended.
      select distinct on (f.workspace_id) f.workspace_id, f.due_at, f.id from first_round f
      where f.workspace_id in (select workspace_id from first_round group by workspace_id
        having count(*) >= (select k from share))
      order by f.workspace_id, f.due_at desc, f.id desc
    ), second_share as (
      select ceil((${params.limit} - (select count(*) from first_round))::numeric / greatest(1, count(*)))::int as k
      from saturated
    ), second_round as (
      select c.* from saturated s cross join second_share cross join lateral (
        select d.id, d.workspace_id, d.due_at from deliveries d
        where d.workspace_id = s.workspace_id and d.status = 'scheduled' and d.due_at <= now()
          and (d.due_at, d.id) > (s.due_at, s.id) and ${claimable}
        order by d.due_at, d.id limit second_share.k
        for update of d skip locked) c
      where second_share.k > 0
    ), shared as (
      select id, due_at, row_number() over (partition by workspace_id order by due_at, id) as turn
      from (select * from first_round union all select * from second_round) r
    ), whole_head as (
      -- Uncontended: every row of the head that another claimer has not locked meanwhile.
      select d.id from deliveries d where d.id in (select id from head) and not (select yes from contended)
        and d.status = 'scheduled' and d.due_at <= now()
      for update of d skip locked
    ), due as (
      select id from whole_head
      union all
      (select id from shared order by turn, due_at limit ${params.limit})
    ), claimed as (
      insert into claims as c (delivery_id, generation, worker_id, lease_expires_at, claimed_at, released_at)
      select id, 1, ${params.workerId}, now() + ${interval(params.leaseMs)}, now(), null from due
      on conflict (delivery_id) do update
        set generation = c.generation + 1, worker_id = excluded.worker_id, lease_expires_at = excluded.lease_expires_at,
            claimed_at = excluded.claimed_at, released_at = null
        where c.released_at is not null
      returning c.delivery_id, c.generation
    ), moved as (
      -- By key (an index condition): a join let the planner hash the whole table for a claim of a few hundred.
      update deliveries d set status = 'publishing', attempt_count = d.attempt_count + 1, updated_at = now()
      where d.id = any(array(select delivery_id from claimed))
      returning d.id, d.workspace_id, d.account_id
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, detail)
      select m.workspace_id, m.id, 'scheduled', 'publishing', ${`worker:${params.workerId}`}, 'claimed', jsonb_build_object('generation', cl.generation)
      from moved m join claimed cl on cl.delivery_id = m.id
    )
    select cl.delivery_id as "deliveryId", cl.generation, m.account_id as "accountId", a.provider, a.sandbox,
      (select yes from contended) as contended
    from claimed cl join moved m on m.id = cl.delivery_id join social_accounts a on a.id = m.account_id`,
  );
  return rows<ClaimedDelivery>(result);
}
