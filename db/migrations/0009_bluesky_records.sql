ALTER TABLE "sandbox"."faults" DROP CONSTRAINT "sandbox_faults_profile_ck";--> statement-breakpoint
ALTER TABLE "sandbox"."posts" ADD COLUMN "record_key" text;--> statement-breakpoint
ALTER TABLE "sandbox"."posts" ADD COLUMN "record" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_posts_account_record_key_uq" ON "sandbox"."posts" USING btree ("account_id","record_key") WHERE "sandbox"."posts"."record_key" is not null and "sandbox"."posts"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD CONSTRAINT "sandbox_faults_profile_ck" CHECK ("sandbox"."faults"."profile" in ('mastodon-modern', 'mastodon-legacy', 'mastodon-nokey', 'x', 'x-nodedupe', 'bluesky', 'plain'));