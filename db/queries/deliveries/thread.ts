import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { executePrepared } from '../prepared';
import { rows } from './rows';

// A thread (docs/architecture.md#threads) is one delivery per part and account (deliveries.part), chained through
// the claim: part k can be claimed only once part k-1 of the same post and account is `sent`, and it replies to that
// part's platform id, read when its attempt starts. So an unknown outcome in part k stops the thread at k until it is
// settled, and no earlier part is ever claimed again (sent is final). Fragments expect aliases d (deliveries), p (posts).

/**
 * Part 0 (every post that is not a thread), or a part whose previous part is sent. `offset 0` keeps the check a
 * probe of the previous part's row (deliveries_post_account_part_uq) per thread part: without it the planner may
 * hash the subquery instead, which reads every sent delivery of the table (npm run bench:growth).
 */
export const partReady = sql`(d.part = 0 or exists (select 1 from deliveries prev
  where prev.post_id = d.post_id and prev.account_id = d.account_id and prev.part = d.part - 1 and prev.status = 'sent'
  offset 0))`;

/** What the platform is asked for: a thread opens with a post and goes on with replies. */
export const deliveryKind = sql`(case when d.part > 0 then 'reply' when p.kind = 'thread' then 'post' else p.kind::text end)`;

/** The post replied to: the previous part's platform id in a thread, else the post's own target. */
export const deliveryInReplyTo = sql`(case when d.part > 0 then (select prev.external_id from deliveries prev
  where prev.post_id = d.post_id and prev.account_id = d.account_id and prev.part = d.part - 1) else p.in_reply_to end)`;

/** Whether another part follows this one on the same account (sending it makes that one claimable). */
export const hasNextPart = sql`exists (select 1 from deliveries nxt
  where nxt.post_id = d.post_id and nxt.account_id = d.account_id and nxt.part = d.part + 1)`;

/** How many parts the delivery's post has on its account (1 for every post that is not a thread). */
export const partCount = sql`(select count(*)::int from deliveries cnt where cnt.post_id = d.post_id and cnt.account_id = d.account_id)`;

/**
 * Thread parts that can never go out because an earlier part of the same account ended without being sent:
 * after a failed part they fail, after a canceled one they are canceled, after a missed one (lateness limit)
 * they are missed, each with the reason — a thread's part says which part stopped it, a post's first comment (part 1
 * of a post that is no thread) says the post did. One statement; rows another statement holds are left for the next
 * pass. A part waiting behind one that is publishing, ambiguous or in review stays scheduled: that part may yet be
 * sent.
 */
export async function settleStrandedParts(db: Executor) {
  const result = await executePrepared(
    db,
    sql`
    with stranded as (
      select d.id, d.workspace_id, d.post_id, blocker.part as blocker_part, blocker.status as blocker_status
      from deliveries d
      cross join lateral (
        select e.part, e.status from deliveries e
        where e.post_id = d.post_id and e.account_id = d.account_id and e.part < d.part
          and e.status in ('failed', 'canceled', 'missed')
        order by e.part limit 1
      ) blocker
      -- Every part after a claimed one is due (the parts share the post's time): the partial due index finds them.
      where d.status = 'scheduled' and d.due_at <= now() and d.part > 0
      for update of d skip locked
    ), settled as (
      select s.*, s.blocker_status::delivery_status as to_status,
        -- The post's kind, read for the stranded rows only (by its key).
        case when (select p.kind from posts p where p.id = s.post_id) = 'thread' then
          'Not published: part ' || (s.blocker_part + 1) || ' of the thread ' ||
            case s.blocker_status when 'failed' then 'failed, so this part has nothing to reply to'
              when 'canceled' then 'was canceled' else 'was missed (past the workspace lateness limit)' end
        else
          'Not published: the post ' ||
            case s.blocker_status when 'failed' then 'failed' when 'canceled' then 'was canceled'
              else 'was missed (past the workspace lateness limit)' end ||
            ', so its first comment has nothing to answer'
        end as reason
      from stranded s
    ), updated as (
      update deliveries d set status = s.to_status,
        failure_reason = case when s.to_status = 'failed' then s.reason else d.failure_reason end,
        settled_at = now(), updated_at = now()
      from settled s where d.id = s.id
      returning d.id
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, detail)
      select workspace_id, id, 'scheduled', to_status, 'system:publisher', reason, jsonb_build_object('blockedByPart', blocker_part)
      from settled
    )
    select count(*)::int as settled from updated`,
  );
  return rows<{ settled: number }>(result)[0]?.settled ?? 0;
}
