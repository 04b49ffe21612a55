-- Feeds into the queue (docs/content.md#feeds): feeds polled with their ETag and Last-Modified, and their items taken
-- once by GUID, link and content (feed_items_guid_uq, feed_items_link_uq, feed_items_content_uq).
CREATE TABLE "feed_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"feed_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"guid_key" text,
	"link_key" text,
	"content_hash" text NOT NULL,
	"title" text NOT NULL,
	"link" text,
	"post_id" uuid,
	"evergreen_item_id" uuid,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feed_items_guid_uq" UNIQUE("feed_id","guid_key"),
	CONSTRAINT "feed_items_link_uq" UNIQUE("feed_id","link_key"),
	CONSTRAINT "feed_items_content_uq" UNIQUE("feed_id","content_hash")
);
--> statement-breakpoint
CREATE TABLE "feeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"account_ids" uuid[] NOT NULL,
	"template_id" uuid,
	"mode" text DEFAULT 'draft' NOT NULL,
	"evergreen_queue_id" uuid,
	"poll_minutes" integer DEFAULT 60 NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"etag" text,
	"last_modified" text,
	"last_polled_at" timestamp with time zone,
	"last_error" text,
	"next_run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"generation" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feeds_workspace_url_uq" UNIQUE("workspace_id","url"),
	CONSTRAINT "feeds_mode_ck" CHECK ("feeds"."mode" in ('draft', 'queue', 'publish')),
	CONSTRAINT "feeds_poll_ck" CHECK ("feeds"."poll_minutes" between 5 and 10080)
);
--> statement-breakpoint
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feeds" ADD CONSTRAINT "feeds_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feeds" ADD CONSTRAINT "feeds_template_id_post_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."post_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feeds" ADD CONSTRAINT "feeds_evergreen_queue_id_evergreen_queues_id_fk" FOREIGN KEY ("evergreen_queue_id") REFERENCES "public"."evergreen_queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feed_items_feed_created_idx" ON "feed_items" USING btree ("feed_id","created_at");--> statement-breakpoint
CREATE INDEX "feeds_due_idx" ON "feeds" USING btree ("next_run_at") WHERE not "feeds"."paused";