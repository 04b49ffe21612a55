CREATE TYPE "public"."approval_decision" AS ENUM('approved', 'changes_requested');--> statement-breakpoint
ALTER TYPE "public"."delivery_status" ADD VALUE 'awaiting_approval';--> statement-breakpoint
CREATE TABLE "approval_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"post_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"decision" "approval_decision" NOT NULL,
	"comment" text,
	"decided_by_user_id" uuid,
	"decided_by_api_key_id" uuid,
	"approval_link_id" uuid,
	"decider_name" text NOT NULL,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_decisions_post_revision_uq" UNIQUE("post_id","revision")
);
--> statement-breakpoint
CREATE TABLE "approval_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"secret_hash" text NOT NULL,
	"post_ids" uuid[] NOT NULL,
	"label" text NOT NULL,
	"created_by_user_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"rate_window_start" timestamp with time zone,
	"rate_window_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_links_secret_hash_uq" UNIQUE("secret_hash"),
	CONSTRAINT "approval_links_post_ids_ck" CHECK (cardinality("approval_links"."post_ids") between 1 and 200)
);
--> statement-breakpoint
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_scopes_ck";--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "post_id" uuid;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "approval_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_decisions" ADD CONSTRAINT "approval_decisions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_decisions" ADD CONSTRAINT "approval_decisions_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_decisions" ADD CONSTRAINT "approval_decisions_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_decisions" ADD CONSTRAINT "approval_decisions_decided_by_api_key_id_api_keys_id_fk" FOREIGN KEY ("decided_by_api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_decisions" ADD CONSTRAINT "approval_decisions_approval_link_id_approval_links_id_fk" FOREIGN KEY ("approval_link_id") REFERENCES "public"."approval_links"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_links" ADD CONSTRAINT "approval_links_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_links" ADD CONSTRAINT "approval_links_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approval_decisions_workspace_idx" ON "approval_decisions" USING btree ("workspace_id","decided_at");--> statement-breakpoint
CREATE INDEX "approval_links_workspace_idx" ON "approval_links" USING btree ("workspace_id","created_at");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scopes_ck" CHECK ("api_keys"."scopes" <@ array['posts:read','posts:write','accounts:read','accounts:write','webhooks:write','workspace:write','posts:approve']::text[]);--> statement-breakpoint
-- I5: the transition table gains awaiting_approval (scheduled | draft → awaiting_approval → scheduled | canceled | missed). Generated from lib/deliveries/transitions.ts.
CREATE OR REPLACE FUNCTION deliveries_check_status_transition() RETURNS trigger AS $$
BEGIN
  IF new.status = old.status THEN
    RETURN new;
  END IF;
  IF NOT (
      (old.status = 'scheduled' and new.status in ('publishing', 'canceled', 'missed', 'needs_review', 'failed', 'awaiting_approval'))
      or (old.status = 'publishing' and new.status in ('sent', 'failed', 'scheduled', 'ambiguous'))
      or (old.status = 'ambiguous' and new.status in ('sent', 'scheduled', 'needs_review'))
      or (old.status = 'needs_review' and new.status in ('sent', 'scheduled', 'canceled'))
      or (old.status = 'draft' and new.status in ('scheduled', 'canceled', 'awaiting_approval'))
      or (old.status = 'awaiting_approval' and new.status in ('scheduled', 'canceled', 'missed'))
  ) THEN
    RAISE EXCEPTION 'delivery % cannot move from % to %', old.id, old.status, new.status
      USING ERRCODE = 'check_violation', CONSTRAINT = 'deliveries_status_transition_ck';
  END IF;
  RETURN new;
END;
$$ LANGUAGE plpgsql;