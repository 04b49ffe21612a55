-- First comments (docs/architecture.md#first-comments): a post's first comment, and an account's own one in its
-- variant (whose text may now be left to the post's). Published as the post's reply part (deliveries.part 1).
-- Short links and UTM (docs/content.md#short-links-and-utm): a workspace's link settings and UTM presets, short links
-- (one per workspace, target URL and UTM: short_links_workspace_target_utm_uq), their clicks per day (no address or
-- agent kept), and the tracked text each delivery publishes (post_link_texts, read first by deliveryTextSql).
-- Snippets and templates (docs/content.md#snippets-and-templates): a workspace's reusable texts, and post templates
-- (text with {{variables}}, a first comment, default accounts, a time of day, images), unique by name per workspace.
-- Evergreen queues (docs/content.md#evergreen-queues): queues of posts that recycle into their accounts' posting
-- slots, their items, and each item's turn per cycle (evergreen_fires_item_cycle_uq: once per item and cycle).
-- Feeds into the queue (docs/content.md#feeds): feeds polled with their ETag and Last-Modified, and their items taken
-- once by GUID, link and content (feed_items_guid_uq, feed_items_link_uq, feed_items_content_uq).
CREATE TABLE "evergreen_fires" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"cycle" integer NOT NULL,
	"post_id" uuid,
	"skipped" boolean DEFAULT false NOT NULL,
	"fired_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "evergreen_fires_item_cycle_uq" UNIQUE("item_id","cycle")
);
--> statement-breakpoint
CREATE TABLE "evergreen_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"variants" text[] DEFAULT '{}'::text[] NOT NULL,
	"skip_next" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evergreen_queues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"account_ids" uuid[] NOT NULL,
	"min_gap_days" integer DEFAULT 7 NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"cycle" integer DEFAULT 1 NOT NULL,
	"last_error" text,
	"next_run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"generation" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "evergreen_queues_workspace_name_uq" UNIQUE("workspace_id","name"),
	CONSTRAINT "evergreen_queues_gap_ck" CHECK ("evergreen_queues"."min_gap_days" between 0 and 365)
);
--> statement-breakpoint
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
CREATE TABLE "link_settings" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"utm" boolean DEFAULT false NOT NULL,
	"shorten" boolean DEFAULT false NOT NULL,
	"shortener" text DEFAULT 'semel' NOT NULL,
	"shortener_url" text,
	"shortener_secret_sealed" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "link_settings_shortener_ck" CHECK ("link_settings"."shortener" in ('semel', 'bitly', 'shlink', 'yourls'))
);
--> statement-breakpoint
CREATE TABLE "post_link_texts" (
	"post_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "post_link_texts_pk" PRIMARY KEY("post_id","account_id","part")
);
--> statement-breakpoint
CREATE TABLE "post_short_links" (
	"post_id" uuid NOT NULL,
	"short_link_id" uuid NOT NULL,
	CONSTRAINT "post_short_links_pk" PRIMARY KEY("post_id","short_link_id")
);
--> statement-breakpoint
CREATE TABLE "post_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"text" text NOT NULL,
	"first_comment" text,
	"account_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"time_of_day" text,
	"media_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_templates_workspace_name_uq" UNIQUE("workspace_id","name"),
	CONSTRAINT "post_templates_time_ck" CHECK ("post_templates"."time_of_day" is null or "post_templates"."time_of_day" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$')
);
--> statement-breakpoint
CREATE TABLE "short_link_clicks" (
	"short_link_id" uuid NOT NULL,
	"day" date NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "short_link_clicks_pk" PRIMARY KEY("short_link_id","day")
);
--> statement-breakpoint
CREATE TABLE "short_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"code" text NOT NULL,
	"target_url" text NOT NULL,
	"utm_source" text DEFAULT '' NOT NULL,
	"utm_medium" text DEFAULT '' NOT NULL,
	"utm_campaign" text DEFAULT '' NOT NULL,
	"destination" text NOT NULL,
	"shortener" text DEFAULT 'semel' NOT NULL,
	"short_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "short_links_code_uq" UNIQUE("code"),
	CONSTRAINT "short_links_workspace_target_utm_uq" UNIQUE("workspace_id","target_url","utm_source","utm_medium","utm_campaign"),
	CONSTRAINT "short_links_code_ck" CHECK ("short_links"."code" ~ '^[A-Za-z0-9_-]{4,64}$'),
	CONSTRAINT "short_links_target_ck" CHECK (length("short_links"."target_url") <= 2048 and length("short_links"."destination") <= 2300)
);
--> statement-breakpoint
CREATE TABLE "snippets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'other' NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "snippets_workspace_name_uq" UNIQUE("workspace_id","name"),
	CONSTRAINT "snippets_kind_ck" CHECK ("snippets"."kind" in ('hashtags', 'signature', 'disclaimer', 'other'))
);
--> statement-breakpoint
CREATE TABLE "utm_presets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"medium" text DEFAULT 'social' NOT NULL,
	"campaign" text DEFAULT '' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "utm_presets_workspace_name_uq" UNIQUE("workspace_id","name")
);
--> statement-breakpoint
ALTER TABLE "post_variants" ALTER COLUMN "text" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "post_variants" ADD COLUMN "first_comment" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "first_comment" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "links" jsonb;--> statement-breakpoint
ALTER TABLE "evergreen_fires" ADD CONSTRAINT "evergreen_fires_queue_id_evergreen_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."evergreen_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_fires" ADD CONSTRAINT "evergreen_fires_item_id_evergreen_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."evergreen_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_fires" ADD CONSTRAINT "evergreen_fires_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_items" ADD CONSTRAINT "evergreen_items_queue_id_evergreen_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."evergreen_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_items" ADD CONSTRAINT "evergreen_items_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_queues" ADD CONSTRAINT "evergreen_queues_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feeds" ADD CONSTRAINT "feeds_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feeds" ADD CONSTRAINT "feeds_template_id_post_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."post_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feeds" ADD CONSTRAINT "feeds_evergreen_queue_id_evergreen_queues_id_fk" FOREIGN KEY ("evergreen_queue_id") REFERENCES "public"."evergreen_queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_settings" ADD CONSTRAINT "link_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_link_texts" ADD CONSTRAINT "post_link_texts_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_link_texts" ADD CONSTRAINT "post_link_texts_account_id_social_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."social_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_short_links" ADD CONSTRAINT "post_short_links_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_short_links" ADD CONSTRAINT "post_short_links_short_link_id_short_links_id_fk" FOREIGN KEY ("short_link_id") REFERENCES "public"."short_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_templates" ADD CONSTRAINT "post_templates_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_link_clicks" ADD CONSTRAINT "short_link_clicks_short_link_id_short_links_id_fk" FOREIGN KEY ("short_link_id") REFERENCES "public"."short_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_links" ADD CONSTRAINT "short_links_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snippets" ADD CONSTRAINT "snippets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "utm_presets" ADD CONSTRAINT "utm_presets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evergreen_fires_queue_idx" ON "evergreen_fires" USING btree ("queue_id","cycle");--> statement-breakpoint
CREATE INDEX "evergreen_items_queue_idx" ON "evergreen_items" USING btree ("queue_id","position");--> statement-breakpoint
CREATE INDEX "evergreen_queues_due_idx" ON "evergreen_queues" USING btree ("next_run_at") WHERE not "evergreen_queues"."paused";--> statement-breakpoint
CREATE INDEX "feed_items_feed_created_idx" ON "feed_items" USING btree ("feed_id","created_at");--> statement-breakpoint
CREATE INDEX "feeds_due_idx" ON "feeds" USING btree ("next_run_at") WHERE not "feeds"."paused";--> statement-breakpoint
CREATE INDEX "post_short_links_link_idx" ON "post_short_links" USING btree ("short_link_id");--> statement-breakpoint
CREATE UNIQUE INDEX "utm_presets_one_default_uq" ON "utm_presets" USING btree ("workspace_id") WHERE "utm_presets"."is_default";--> statement-breakpoint
ALTER TABLE "post_variants" ADD CONSTRAINT "post_variants_content_ck" CHECK ("post_variants"."text" is not null or "post_variants"."first_comment" is not null);