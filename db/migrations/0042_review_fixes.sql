-- Evergreen queues (docs/content.md#evergreen-queues): a turn whose item cannot be posted (too long for a network…) is
-- passed over with its reason, shown on the Evergreen page, and the queue moves on.
ALTER TABLE "evergreen_fires" ADD COLUMN "skip_reason" text;--> statement-breakpoint
-- Feeds (docs/content.md#feeds): an item refused for a reason that passes (an account disconnected, no free posting
-- slot, the shortener down) stays unfinished with its reason and is tried again later (retry_at, backing off by
-- retries); its summary is kept for that later try.
ALTER TABLE "feed_items" ADD COLUMN "summary" text;--> statement-breakpoint
ALTER TABLE "feed_items" ADD COLUMN "waiting_reason" text;--> statement-breakpoint
ALTER TABLE "feed_items" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "feed_items" ADD COLUMN "retries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Feeds (docs/content.md#feeds): an item without words (no title, no summary) has no content key: feeds of bare links
-- no longer merge their items into one (feed_items_content_uq treats nulls as distinct).
ALTER TABLE "feed_items" ALTER COLUMN "content_hash" DROP NOT NULL;--> statement-breakpoint
-- Analytics (docs/analytics.md#the-metrics-job): a post a read leaves out (Bluesky's AppView: deleted, taken down or not
-- indexed yet) is marked deleted only when a second read a delay later misses it too: missed_at keeps the first miss.
ALTER TABLE "post_metrics" ADD COLUMN "missed_at" timestamp with time zone;--> statement-breakpoint
-- An Instagram comment (a post's first comment, part 1) has no insights: reading it stops, unsupported.
UPDATE "post_metrics" m SET "stopped_reason" = 'unsupported', "stopped_at" = now(), "next_due_at" = NULL
FROM "deliveries" d WHERE d."id" = m."delivery_id" AND d."part" > 0 AND m."provider"::text = 'instagram' AND m."stopped_reason" IS NULL;--> statement-breakpoint
-- Analytics (docs/analytics.md#the-metrics-job): the metrics job's find reads the deliveries sent within its horizon
-- through this partial index, not every sent delivery ever.
CREATE INDEX "deliveries_sent_settled_idx" ON "deliveries" USING btree ("settled_at") WHERE "deliveries"."status" = 'sent';--> statement-breakpoint
-- Analytics (docs/analytics.md#the-analytics-page): a reading's delivery part, so the page counts only the post itself
-- (part 0) as a post — a first comment or a thread's later part is no post of its own — and sums every part's metrics.
ALTER TABLE "post_metrics" ADD COLUMN "part" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "post_metrics" m SET "part" = d."part" FROM "deliveries" d WHERE d."id" = m."delivery_id" AND d."part" <> 0;
