import { sql } from 'drizzle-orm';

/**
 * When a delivery's lateness limit runs out: the workspace's limit counted from the post's scheduled
 * time, or from an admin's later "publish now" after review. The one definition for the publisher
 * (missed) and the reconciler (release or review); expects aliases d (deliveries), p (posts), w (workspaces).
 */
export const latenessDeadline = sql`(greatest(p.scheduled_at, (select max(e.created_at) from delivery_events e
  where e.delivery_id = d.id and e.from_status = 'needs_review' and e.to_status = 'scheduled'))
  + make_interval(secs => w.lateness_limit_seconds))`;
