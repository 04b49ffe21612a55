CREATE TABLE "sandbox"."locks" (
	"name" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox"."faults" DROP CONSTRAINT "sandbox_faults_rates_ck";--> statement-breakpoint
-- Snowflake-like ids from the application (lib/sandbox/post-ids.ts) instead of a guessable sequence.
ALTER TABLE "sandbox"."posts" ALTER COLUMN "id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "sandbox"."posts" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
DROP SEQUENCE IF EXISTS "sandbox"."posts_id_seq";--> statement-breakpoint
-- Existing settings keep today's behaviour: each platform's default profile.
ALTER TABLE "sandbox"."faults" ADD COLUMN "profile" text;--> statement-breakpoint
UPDATE "sandbox"."faults" f SET "profile" = CASE a."platform" WHEN 'x' THEN 'x' ELSE 'mastodon-modern' END FROM "sandbox"."accounts" a WHERE a."id" = f."account_id";--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ALTER COLUMN "profile" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD COLUMN "processing_ms" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD COLUMN "processing_share" double precision DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD COLUMN "read_lag_ms" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD COLUMN "listing_unavailable" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."posts" ADD COLUMN "deleted_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD CONSTRAINT "sandbox_faults_profile_ck" CHECK ("sandbox"."faults"."profile" in ('mastodon-modern', 'mastodon-legacy', 'mastodon-nokey', 'x', 'x-nodedupe', 'plain'));--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD CONSTRAINT "sandbox_faults_durations_ck" CHECK ("sandbox"."faults"."processing_ms" between 0 and 120000 and "sandbox"."faults"."read_lag_ms" between 0 and 300000);--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD CONSTRAINT "sandbox_faults_rates_ck" CHECK (least("sandbox"."faults"."timeout_before_commit", "sandbox"."faults"."timeout_after_commit", "sandbox"."faults"."error_after_commit", "sandbox"."faults"."reset_after_commit", "sandbox"."faults"."rate_limited", "sandbox"."faults"."processing_share", "sandbox"."faults"."listing_unavailable") >= 0
    and greatest("sandbox"."faults"."timeout_before_commit", "sandbox"."faults"."timeout_after_commit", "sandbox"."faults"."error_after_commit", "sandbox"."faults"."reset_after_commit", "sandbox"."faults"."rate_limited", "sandbox"."faults"."processing_share", "sandbox"."faults"."listing_unavailable") <= 1);
