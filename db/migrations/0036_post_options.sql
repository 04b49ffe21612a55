-- Per-post options per account (ProviderMeta `options`: TikTok's privacy level, interactions, direct or inbox),
-- checked by each network's schema when the post is made and passed to its client at publishing; the check keeps
-- it a small JSON object. Platform events that came before their delivery knew the id they name wait in
-- platform_events_unmatched_idx until it keeps it. The sandbox gains the `tiktok-private` profile (a private creator).
ALTER TABLE "sandbox"."faults" DROP CONSTRAINT "sandbox_faults_profile_ck";--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "options" jsonb;--> statement-breakpoint
CREATE INDEX "platform_events_unmatched_idx" ON "platform_events" USING btree ("account_id","object_id") WHERE "platform_events"."outcome" = 'unmatched';--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_options_ck" CHECK ("deliveries"."options" is null or (jsonb_typeof("deliveries"."options") = 'object' and octet_length("deliveries"."options"::text) <= 2048));--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD CONSTRAINT "sandbox_faults_profile_ck" CHECK ("sandbox"."faults"."profile" in ('mastodon-modern', 'mastodon-legacy', 'mastodon-nokey', 'mastodon-markdown', 'x', 'x-nodedupe', 'x-premium', 'linkedin', 'threads', 'instagram', 'tiktok', 'tiktok-unaudited', 'facebook', 'youtube', 'tiktok-private', 'bluesky', 'plain'));