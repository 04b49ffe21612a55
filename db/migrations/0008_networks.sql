ALTER TYPE "public"."provider" ADD VALUE 'linkedin';--> statement-breakpoint
ALTER TYPE "public"."provider" ADD VALUE 'threads';--> statement-breakpoint
ALTER TYPE "sandbox"."platform" ADD VALUE 'bluesky';--> statement-breakpoint
ALTER TYPE "sandbox"."platform" ADD VALUE 'linkedin';--> statement-breakpoint
ALTER TYPE "sandbox"."platform" ADD VALUE 'threads';--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "provider_state" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "social_accounts" ADD COLUMN "token_status" text DEFAULT 'ok' NOT NULL;--> statement-breakpoint
ALTER TABLE "social_accounts" ADD COLUMN "token_problem" text;--> statement-breakpoint
ALTER TABLE "social_accounts" ADD COLUMN "token_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "social_accounts" ADD COLUMN "token_refresh_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "social_accounts" ADD CONSTRAINT "social_accounts_token_status_ck" CHECK ("social_accounts"."token_status" in ('ok', 'expired', 'rejected'));