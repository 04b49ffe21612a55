-- Snippets and templates (docs/content.md#snippets-and-templates): a workspace's reusable texts, and post templates
-- (text with {{variables}}, a first comment, default accounts, a time of day, images), unique by name per workspace.
CREATE TABLE "post_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"text" text NOT NULL,
	"first_comment" text,
	"account_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"time_of_day" text,
	"media_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_templates_workspace_name_uq" UNIQUE("workspace_id","name"),
	CONSTRAINT "post_templates_time_ck" CHECK ("post_templates"."time_of_day" is null or "post_templates"."time_of_day" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$')
);
--> statement-breakpoint
CREATE TABLE "snippets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'other' NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "snippets_workspace_name_uq" UNIQUE("workspace_id","name"),
	CONSTRAINT "snippets_kind_ck" CHECK ("snippets"."kind" in ('hashtags', 'signature', 'disclaimer', 'other'))
);
--> statement-breakpoint
ALTER TABLE "post_templates" ADD CONSTRAINT "post_templates_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snippets" ADD CONSTRAINT "snippets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;