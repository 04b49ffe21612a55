-- Facebook Pages joins the networks (docs/networks.md#facebook): the provider value, the sandbox's platform and its
-- profile `facebook` (no dedupe, unpublished photos attached by id, resumable video uploads).
ALTER TYPE "public"."provider" ADD VALUE 'facebook';--> statement-breakpoint
ALTER TYPE "sandbox"."platform" ADD VALUE 'facebook';--> statement-breakpoint
ALTER TABLE "sandbox"."faults" DROP CONSTRAINT "sandbox_faults_profile_ck";--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD CONSTRAINT "sandbox_faults_profile_ck" CHECK ("sandbox"."faults"."profile" in ('mastodon-modern', 'mastodon-legacy', 'mastodon-nokey', 'mastodon-markdown', 'x', 'x-nodedupe', 'x-premium', 'linkedin', 'threads', 'instagram', 'tiktok', 'tiktok-unaudited', 'facebook', 'bluesky', 'plain'));