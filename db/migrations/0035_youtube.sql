-- YouTube (Data API v3): the provider value `youtube` (and the sandbox's platform and profile of that name), and the
-- sandbox's YouTube dialect tables: resumable upload sessions (one per videos.insert, a video only once every declared
-- byte arrived, its custom thumbnail) and the Data API quota spent per project and Pacific day.
ALTER TYPE "public"."provider" ADD VALUE 'youtube';--> statement-breakpoint
ALTER TYPE "sandbox"."platform" ADD VALUE 'youtube';--> statement-breakpoint
CREATE TABLE "sandbox"."youtube_quota" (
	"project" text NOT NULL,
	"day" text NOT NULL,
	"units" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."youtube_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"privacy_status" text NOT NULL,
	"publish_at" timestamp (3) with time zone,
	"content_type" text NOT NULL,
	"declared_bytes" bigint NOT NULL,
	"uploaded_bytes" bigint DEFAULT 0 NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp (3) with time zone,
	"ready_at" timestamp (3) with time zone,
	"fail_reason" text,
	"post_id" bigint,
	"thumbnail_sha256" text
);
--> statement-breakpoint
ALTER TABLE "sandbox"."faults" DROP CONSTRAINT "sandbox_faults_profile_ck";--> statement-breakpoint
ALTER TABLE "sandbox"."youtube_uploads" ADD CONSTRAINT "youtube_uploads_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."youtube_uploads" ADD CONSTRAINT "youtube_uploads_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "sandbox"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_youtube_quota_project_day_uq" ON "sandbox"."youtube_quota" USING btree ("project","day");--> statement-breakpoint
CREATE INDEX "sandbox_youtube_uploads_account_idx" ON "sandbox"."youtube_uploads" USING btree ("account_id","created_at");--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD CONSTRAINT "sandbox_faults_profile_ck" CHECK ("sandbox"."faults"."profile" in ('mastodon-modern', 'mastodon-legacy', 'mastodon-nokey', 'mastodon-markdown', 'x', 'x-nodedupe', 'x-premium', 'linkedin', 'threads', 'instagram', 'tiktok', 'tiktok-unaudited', 'facebook', 'youtube', 'bluesky', 'plain'));