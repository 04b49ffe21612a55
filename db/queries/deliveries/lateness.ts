import { sql } from 'drizzle-orm';

/**
 * When a delivery's lateness limit runs out: the workspace's limit counted from the post's scheduled
 * time, or from an admin's later "publish now" after review. The one definition for the publisher
 * (missed) and the reconciler (release or review); expects aliases d (deliveries), p (posts), w (workspaces).
 * A thread is judged as a whole per account: "publish now" on a part also moves the limit of the parts after it.
 */
export const latenessDeadline = sql`(greatest(p.scheduled_at, (select max(e.created_at) from delivery_events e
  where e.delivery_id in (select t.id from deliveries t where t.post_id = d.post_id and t.account_id = d.account_id and t.part <= d.part)
    and e.from_status = 'needs_review' and e.to_status = 'scheduled'))
  + make_interval(secs => w.lateness_limit_seconds))`;

/**
 * The smallest lateness limit of any workspace (one probe of workspaces_lateness_limit_idx). A delivery never claimed
 * has a due time no later than its deadline less its own workspace's limit (its post's time, or an admin's "publish
 * now" after review), so before it has been due this long it cannot be late: the claim and mark-missed skip the
 * per-row check, or the row, until then.
 */
export const shortestLatenessLimit = sql`make_interval(secs => (select coalesce(min(lateness_limit_seconds), 0) from workspaces))`;
