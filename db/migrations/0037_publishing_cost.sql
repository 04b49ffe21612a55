-- Publishing whose cost does not grow with the due backlog (npm run bench:compare, issue 24).
-- deliveries_scheduled_workspace_idx: a claim that must be shared out between workspaces (more due than it takes) finds
--   each workspace with scheduled deliveries by one probe (a loose index scan) and reads each one's share earliest
--   first; before, every claim ranked the whole due backlog (up to 50,000 rows) to take 200.
-- deliveries_retry_due_idx: mark-missed reads the retried deliveries (a due time later than their post's) from this
--   small index, and the fresh ones only once they have been due for the smallest lateness limit of any workspace
--   (workspaces_lateness_limit_idx, one probe); before, every pass read the whole due backlog with two lookups a row.
-- Both deliveries indexes are partial on status = 'scheduled': the publisher's own status changes never insert into them.
CREATE INDEX "deliveries_scheduled_workspace_idx" ON "deliveries" USING btree ("workspace_id","due_at","id") WHERE "deliveries"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "deliveries_retry_due_idx" ON "deliveries" USING btree ("due_at") WHERE "deliveries"."status" = 'scheduled' and "deliveries"."attempt_count" > 0;--> statement-breakpoint
CREATE INDEX "workspaces_lateness_limit_idx" ON "workspaces" USING btree ("lateness_limit_seconds");