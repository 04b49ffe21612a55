-- TikTok joins the networks (docs/networks.md#tiktok): the sandbox keeps each publish (init, its upload or pull,
-- its status) as TikTok does, and its profiles `tiktok` and `tiktok-unaudited`.
ALTER TYPE "public"."provider" ADD VALUE 'tiktok';--> statement-breakpoint
ALTER TYPE "sandbox"."platform" ADD VALUE 'tiktok';--> statement-breakpoint
CREATE TABLE "sandbox"."tiktok_publishes" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"source" text NOT NULL,
	"title" text NOT NULL,
	"privacy_level" text,
	"video_url" text,
	"video_size" bigint,
	"chunk_size" bigint,
	"total_chunk_count" integer,
	"uploaded_bytes" bigint DEFAULT 0 NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp (3) with time zone,
	"fail_reason" text,
	"post_id" bigint,
	CONSTRAINT "sandbox_tiktok_publishes_mode_ck" CHECK ("sandbox"."tiktok_publishes"."mode" in ('direct', 'inbox')),
	CONSTRAINT "sandbox_tiktok_publishes_source_ck" CHECK ("sandbox"."tiktok_publishes"."source" in ('FILE_UPLOAD', 'PULL_FROM_URL'))
);
--> statement-breakpoint
ALTER TABLE "sandbox"."faults" DROP CONSTRAINT "sandbox_faults_profile_ck";--> statement-breakpoint
ALTER TABLE "sandbox"."tiktok_publishes" ADD CONSTRAINT "tiktok_publishes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."tiktok_publishes" ADD CONSTRAINT "tiktok_publishes_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "sandbox"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_tiktok_publishes_account_idx" ON "sandbox"."tiktok_publishes" USING btree ("account_id","created_at");--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD CONSTRAINT "sandbox_faults_profile_ck" CHECK ("sandbox"."faults"."profile" in ('mastodon-modern', 'mastodon-legacy', 'mastodon-nokey', 'mastodon-markdown', 'x', 'x-nodedupe', 'x-premium', 'linkedin', 'threads', 'instagram', 'tiktok', 'tiktok-unaudited', 'bluesky', 'plain'));