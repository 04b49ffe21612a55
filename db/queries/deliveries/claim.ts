import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { executePrepared } from '../prepared';
import { rows } from './rows';
import { interval } from '../sql-params';
import { accountCanPublish } from '../token-health';
import { latenessDeadline } from './lateness';
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
};

/**
 * How many of the earliest due deliveries a claim ranks for fairness. Beyond them (a backlog this deep only
 * after an outage) the order is by due time alone, so a claim never sorts an unbounded backlog.
 */
export const FAIR_CLAIM_WINDOW = 50_000;

/**
 * Claims up to `limit` due deliveries for `workerId`: scheduled → publishing, claim generation + 1, history row.
 * Fair across workspaces (docs/publishing.md#fairness): each workspace's due deliveries take turns, earliest first,
 * and a claim takes every workspace's first turn before anyone's second, so at the top of the hour a workspace with
 * ten thousand posts due does not hold back one with ten.
 */
export async function claimDueDeliveries(db: Executor, params: { workerId: string; limit: number; leaseMs: number }) {
  const result = await executePrepared(
    db,
    sql`
    with due as (
      select d.id from deliveries d
      join (
        select r.id, r.due_at, row_number() over (partition by r.workspace_id order by r.due_at, r.id) as turn
        from (select id, workspace_id, due_at from deliveries where status = 'scheduled' and due_at <= now()
          order by due_at limit ${FAIR_CLAIM_WINDOW}) r
      ) ranked on ranked.id = d.id
      where d.status = 'scheduled' and d.due_at <= now()
        -- A disconnected account's token is wiped (its deliveries go to review); one whose token needs a reconnect
        -- or has expired holds them here: not claimed, not failed, published once the account is healthy again.
        and exists (select 1 from social_accounts a where a.id = d.account_id and ${accountCanPublish})
        -- A thread part only after the part before it is sent (it replies to that part's platform id).
        and ${partReady}
        -- Never one past its lateness limit, even if mark-missed has not seen it yet: a delivery claimed before
        -- (attempt_count > 0) can be back in 'scheduled' and due between another pass's mark-missed and this claim
        -- (released by a lease sweep, deferred, backed off). Fresh ones are left to mark-missed, so the check costs
        -- nothing at the top of the hour; offset 0 keeps it a probe per row.
        and (d.attempt_count = 0 or exists (select 1 from posts p join workspaces w on w.id = p.workspace_id
          where p.id = d.post_id and ${latenessDeadline} >= now() offset 0))
      order by ranked.turn, ranked.due_at
      limit ${params.limit}
      for update of d skip locked
    ), claimed as (
      insert into claims as c (delivery_id, generation, worker_id, lease_expires_at, claimed_at, released_at)
      select id, 1, ${params.workerId}, now() + ${interval(params.leaseMs)}, now(), null from due
      on conflict (delivery_id) do update
        set generation = c.generation + 1, worker_id = excluded.worker_id, lease_expires_at = excluded.lease_expires_at,
            claimed_at = excluded.claimed_at, released_at = null
        where c.released_at is not null
      returning c.delivery_id, c.generation
    ), moved as (
      update deliveries d set status = 'publishing', attempt_count = d.attempt_count + 1, updated_at = now()
      from claimed where d.id = claimed.delivery_id
      returning d.id, d.workspace_id
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, detail)
      select m.workspace_id, m.id, 'scheduled', 'publishing', ${`worker:${params.workerId}`}, 'claimed', jsonb_build_object('generation', cl.generation)
      from moved m join claimed cl on cl.delivery_id = m.id
    )
    select cl.delivery_id as "deliveryId", cl.generation, d.account_id as "accountId", a.provider, a.sandbox
    from claimed cl join moved m on m.id = cl.delivery_id
    join deliveries d on d.id = cl.delivery_id join social_accounts a on a.id = d.account_id`,
  );
  return rows<ClaimedDelivery>(result);
}
