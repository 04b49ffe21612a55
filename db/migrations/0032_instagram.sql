-- Instagram joins the networks (docs/networks.md), with its sandbox profile. The sandbox keeps its containers
-- beside Threads' (the same two steps): Reels, Stories and carousel videos carry the video's URL, fetched like an
-- image. A post holds up to 10 media (Instagram's carousel); each network's own limit is checked on top. A delivery
-- may carry the format its account publishes it in (Instagram's `story`). Platform webhooks are kept once per
-- account they concern (platform_events, lib/platform-webhooks/).
ALTER TYPE "public"."provider" ADD VALUE 'instagram';--> statement-breakpoint
ALTER TYPE "sandbox"."platform" ADD VALUE 'instagram';--> statement-breakpoint
CREATE TABLE "platform_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" "provider" NOT NULL,
	"sandbox" boolean NOT NULL,
	"event_key" text NOT NULL,
	"kind" text NOT NULL,
	"platform_user_id" text,
	"object_id" text,
	"workspace_id" uuid,
	"account_id" uuid,
	"delivery_id" uuid,
	"outcome" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_events_key_uq" UNIQUE NULLS NOT DISTINCT("provider","sandbox","event_key","account_id"),
	CONSTRAINT "platform_events_outcome_ck" CHECK ("platform_events"."outcome" in ('kept', 'applied', 'ignored', 'unmatched'))
);
--> statement-breakpoint
ALTER TABLE "post_media" DROP CONSTRAINT "post_media_position_ck";--> statement-breakpoint
ALTER TABLE "sandbox"."faults" DROP CONSTRAINT "sandbox_faults_profile_ck";--> statement-breakpoint
ALTER TABLE "sandbox"."threads_containers" DROP CONSTRAINT "sandbox_threads_containers_media_type_ck";--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "format" text;--> statement-breakpoint
ALTER TABLE "sandbox"."threads_containers" ADD COLUMN "video_url" text;--> statement-breakpoint
ALTER TABLE "platform_events" ADD CONSTRAINT "platform_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_events" ADD CONSTRAINT "platform_events_account_id_social_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."social_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_events" ADD CONSTRAINT "platform_events_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platform_events_workspace_idx" ON "platform_events" USING btree ("workspace_id","received_at");--> statement-breakpoint
CREATE INDEX "platform_events_delivery_idx" ON "platform_events" USING btree ("delivery_id");--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_format_ck" CHECK ("deliveries"."format" ~ '^[a-z][a-z_]{0,19}$');--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_position_ck" CHECK ("post_media"."position" between 0 and 9);--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD CONSTRAINT "sandbox_faults_profile_ck" CHECK ("sandbox"."faults"."profile" in ('mastodon-modern', 'mastodon-legacy', 'mastodon-nokey', 'mastodon-markdown', 'x', 'x-nodedupe', 'x-premium', 'linkedin', 'threads', 'instagram', 'bluesky', 'plain'));--> statement-breakpoint
ALTER TABLE "sandbox"."threads_containers" ADD CONSTRAINT "sandbox_threads_containers_media_type_ck" CHECK ("sandbox"."threads_containers"."media_type" in ('TEXT', 'IMAGE', 'CAROUSEL', 'VIDEO', 'REELS', 'STORIES'));