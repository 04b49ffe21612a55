CREATE TABLE "oauth_states" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"state_hash" text NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" "provider" NOT NULL,
	"code_verifier_sealed" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"sandbox" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "oauth_states_state_hash_uq" UNIQUE("state_hash")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."oauth_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"scope" text NOT NULL,
	"family_id" uuid NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox"."oauth_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"account_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"family_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"expires_at" timestamp (3) with time zone,
	"used_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_oauth_tokens_kind_ck" CHECK ("sandbox"."oauth_tokens"."kind" in ('access', 'refresh'))
);
--> statement-breakpoint
CREATE TABLE "sandbox"."threads_containers" (
	"id" bigint PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" "sandbox"."post_kind" NOT NULL,
	"media_type" text NOT NULL,
	"text" text NOT NULL,
	"image_url" text,
	"in_reply_to_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp (3) with time zone NOT NULL,
	"error_message" text,
	"post_id" bigint,
	"published_at" timestamp (3) with time zone,
	CONSTRAINT "sandbox_threads_containers_kind_ck" CHECK ("sandbox"."threads_containers"."kind" in ('post', 'reply')),
	CONSTRAINT "sandbox_threads_containers_media_type_ck" CHECK ("sandbox"."threads_containers"."media_type" in ('TEXT', 'IMAGE'))
);
--> statement-breakpoint
ALTER TABLE "sandbox"."faults" DROP CONSTRAINT "sandbox_faults_profile_ck";--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "account_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "incident_key" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."posts" ADD COLUMN "record_key" text;--> statement-breakpoint
ALTER TABLE "sandbox"."posts" ADD COLUMN "record" jsonb;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."oauth_codes" ADD CONSTRAINT "oauth_codes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."oauth_tokens" ADD CONSTRAINT "oauth_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."threads_containers" ADD CONSTRAINT "threads_containers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."threads_containers" ADD CONSTRAINT "threads_containers_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "sandbox"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_states_expires_idx" ON "oauth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sandbox_oauth_tokens_account_idx" ON "sandbox"."oauth_tokens" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "sandbox_oauth_tokens_family_idx" ON "sandbox"."oauth_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "sandbox_threads_containers_account_idx" ON "sandbox"."threads_containers" USING btree ("account_id","created_at");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_account_id_social_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."social_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "posts_workspace_scheduled_idx" ON "posts" USING btree ("workspace_id","scheduled_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_posts_account_record_key_uq" ON "sandbox"."posts" USING btree ("account_id","record_key") WHERE "sandbox"."posts"."record_key" is not null and "sandbox"."posts"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_account_incident_uq" UNIQUE("account_id","kind","incident_key");--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD CONSTRAINT "sandbox_faults_profile_ck" CHECK ("sandbox"."faults"."profile" in ('mastodon-modern', 'mastodon-legacy', 'mastodon-nokey', 'x', 'x-nodedupe', 'linkedin', 'threads', 'bluesky', 'plain'));