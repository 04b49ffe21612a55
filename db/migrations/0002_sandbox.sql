CREATE SCHEMA "sandbox";
--> statement-breakpoint
CREATE TYPE "sandbox"."platform" AS ENUM('x', 'mastodon');--> statement-breakpoint
CREATE TYPE "sandbox"."post_kind" AS ENUM('post', 'reply', 'dm');--> statement-breakpoint
CREATE TABLE "sandbox"."accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"platform" "sandbox"."platform" NOT NULL,
	"platform_user_id" text NOT NULL,
	"handle" text NOT NULL,
	"display_name" text,
	"token_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_accounts_platform_user_uq" UNIQUE("platform","platform_user_id"),
	CONSTRAINT "sandbox_accounts_token_uq" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."faults" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"latency_ms" integer DEFAULT 0 NOT NULL,
	"timeout_before_commit" double precision DEFAULT 0 NOT NULL,
	"timeout_after_commit" double precision DEFAULT 0 NOT NULL,
	"error_after_commit" double precision DEFAULT 0 NOT NULL,
	"reset_after_commit" double precision DEFAULT 0 NOT NULL,
	"rate_limited" double precision DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_faults_latency_ck" CHECK ("sandbox"."faults"."latency_ms" between 0 and 60000),
	CONSTRAINT "sandbox_faults_rates_ck" CHECK (least("sandbox"."faults"."timeout_before_commit", "sandbox"."faults"."timeout_after_commit", "sandbox"."faults"."error_after_commit", "sandbox"."faults"."reset_after_commit", "sandbox"."faults"."rate_limited") >= 0
    and greatest("sandbox"."faults"."timeout_before_commit", "sandbox"."faults"."timeout_after_commit", "sandbox"."faults"."error_after_commit", "sandbox"."faults"."reset_after_commit", "sandbox"."faults"."rate_limited") <= 1)
);
--> statement-breakpoint
CREATE TABLE "sandbox"."idempotency_keys" (
	"account_id" uuid NOT NULL,
	"key" text NOT NULL,
	"post_id" bigint,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_idempotency_keys_account_key_uq" UNIQUE("account_id","key")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."posts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" "sandbox"."post_kind" NOT NULL,
	"text" text NOT NULL,
	"in_reply_to_id" text,
	"recipient_id" text,
	"idempotency_key" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD CONSTRAINT "faults_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."idempotency_keys" ADD CONSTRAINT "idempotency_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."idempotency_keys" ADD CONSTRAINT "idempotency_keys_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "sandbox"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."posts" ADD CONSTRAINT "posts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_posts_account_created_idx" ON "sandbox"."posts" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_posts_account_text_idx" ON "sandbox"."posts" USING btree ("account_id",md5("text"));