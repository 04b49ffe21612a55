CREATE TABLE "inbox_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"post_id" uuid NOT NULL,
	"user_id" uuid,
	"api_key_id" uuid,
	"actor_name" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	"outcome" text,
	CONSTRAINT "inbox_answers_item_number_uq" UNIQUE("item_id","number"),
	CONSTRAINT "inbox_answers_number_ck" CHECK ("inbox_answers"."number" >= 1)
);
--> statement-breakpoint
CREATE TABLE "inbox_cursors" (
	"account_id" uuid NOT NULL,
	"stream" text NOT NULL,
	"workspace_id" uuid NOT NULL,
	"cursor" text,
	"next_read_at" timestamp with time zone DEFAULT now() NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"worker_id" text,
	"lease_expires_at" timestamp with time zone,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_read_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "inbox_cursors_pk" PRIMARY KEY("account_id","stream")
);
--> statement-breakpoint
CREATE TABLE "inbox_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"provider" "provider" NOT NULL,
	"platform_id" text NOT NULL,
	"kind" text NOT NULL,
	"stream" text NOT NULL,
	"author_platform_id" text,
	"author_handle" text NOT NULL,
	"author_name" text,
	"text" text NOT NULL,
	"url" text,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"in_reply_to" text,
	"conversation_id" text,
	"delivery_id" uuid,
	"received_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	"answer_source" text,
	"platform_answer_id" text,
	"done_at" timestamp with time zone,
	"done_by_user_id" uuid,
	"assigned_to_user_id" uuid,
	"assigned_at" timestamp with time zone,
	CONSTRAINT "inbox_items_account_platform_uq" UNIQUE("account_id","platform_id"),
	CONSTRAINT "inbox_items_kind_ck" CHECK ("inbox_items"."kind" in ('reply', 'comment', 'mention', 'dm')),
	CONSTRAINT "inbox_items_answer_source_ck" CHECK (("inbox_items"."answered_at" is null) = ("inbox_items"."answer_source" is null))
);
--> statement-breakpoint
CREATE TABLE "inbox_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"user_id" uuid,
	"client_key" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbox_notes_item_key_uq" UNIQUE("item_id","client_key"),
	CONSTRAINT "inbox_notes_text_ck" CHECK (length("inbox_notes"."text") between 1 and 2000)
);
--> statement-breakpoint
CREATE TABLE "inbox_own_messages" (
	"account_id" uuid NOT NULL,
	"platform_id" text NOT NULL,
	"in_reply_to" text,
	"conversation_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "inbox_own_messages_pk" PRIMARY KEY("account_id","platform_id")
);
--> statement-breakpoint
CREATE TABLE "inbox_presence" (
	"item_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "inbox_presence_pk" PRIMARY KEY("item_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "saved_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"text" text NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_replies_workspace_name_uq" UNIQUE("workspace_id","name"),
	CONSTRAINT "saved_replies_name_ck" CHECK (length("saved_replies"."name") between 1 and 80),
	CONSTRAINT "saved_replies_text_ck" CHECK (length("saved_replies"."text") between 1 and 5000)
);
--> statement-breakpoint
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_scopes_ck";--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "inbox_mode" "email_mode" DEFAULT 'immediately' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD COLUMN "inbound_per_day" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."posts" ADD COLUMN "addressed_to" uuid;--> statement-breakpoint
ALTER TABLE "sandbox"."posts" ADD COLUMN "inbound_key" text;--> statement-breakpoint
ALTER TABLE "inbox_answers" ADD CONSTRAINT "inbox_answers_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_answers" ADD CONSTRAINT "inbox_answers_item_id_inbox_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."inbox_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_answers" ADD CONSTRAINT "inbox_answers_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_answers" ADD CONSTRAINT "inbox_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_cursors" ADD CONSTRAINT "inbox_cursors_account_id_social_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."social_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_cursors" ADD CONSTRAINT "inbox_cursors_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_items" ADD CONSTRAINT "inbox_items_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_items" ADD CONSTRAINT "inbox_items_account_id_social_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."social_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_items" ADD CONSTRAINT "inbox_items_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_items" ADD CONSTRAINT "inbox_items_done_by_user_id_users_id_fk" FOREIGN KEY ("done_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_items" ADD CONSTRAINT "inbox_items_assigned_to_user_id_users_id_fk" FOREIGN KEY ("assigned_to_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_notes" ADD CONSTRAINT "inbox_notes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_notes" ADD CONSTRAINT "inbox_notes_item_id_inbox_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."inbox_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_notes" ADD CONSTRAINT "inbox_notes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_own_messages" ADD CONSTRAINT "inbox_own_messages_account_id_social_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."social_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_presence" ADD CONSTRAINT "inbox_presence_item_id_inbox_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."inbox_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_presence" ADD CONSTRAINT "inbox_presence_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_presence" ADD CONSTRAINT "inbox_presence_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_replies" ADD CONSTRAINT "saved_replies_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_replies" ADD CONSTRAINT "saved_replies_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbox_answers_unsettled_idx" ON "inbox_answers" USING btree ("created_at") WHERE "inbox_answers"."settled_at" is null;--> statement-breakpoint
CREATE INDEX "inbox_answers_post_idx" ON "inbox_answers" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "inbox_cursors_due_idx" ON "inbox_cursors" USING btree ("next_read_at");--> statement-breakpoint
CREATE INDEX "inbox_items_workspace_received_idx" ON "inbox_items" USING btree ("workspace_id","received_at","id");--> statement-breakpoint
CREATE INDEX "inbox_items_open_idx" ON "inbox_items" USING btree ("workspace_id","received_at","id") WHERE "inbox_items"."answered_at" is null and "inbox_items"."done_at" is null;--> statement-breakpoint
CREATE INDEX "inbox_items_account_received_idx" ON "inbox_items" USING btree ("account_id","received_at","id");--> statement-breakpoint
CREATE INDEX "inbox_items_assigned_idx" ON "inbox_items" USING btree ("assigned_to_user_id","received_at") WHERE "inbox_items"."assigned_to_user_id" is not null;--> statement-breakpoint
CREATE INDEX "inbox_items_account_parent_idx" ON "inbox_items" USING btree ("account_id","in_reply_to");--> statement-breakpoint
CREATE INDEX "inbox_items_account_conversation_idx" ON "inbox_items" USING btree ("account_id","conversation_id") WHERE "inbox_items"."conversation_id" is not null;--> statement-breakpoint
CREATE INDEX "inbox_own_messages_parent_idx" ON "inbox_own_messages" USING btree ("account_id","in_reply_to");--> statement-breakpoint
CREATE INDEX "inbox_own_messages_conversation_idx" ON "inbox_own_messages" USING btree ("account_id","conversation_id","created_at") WHERE "inbox_own_messages"."conversation_id" is not null;--> statement-breakpoint
CREATE INDEX "inbox_presence_expires_idx" ON "inbox_presence" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "sandbox"."posts" ADD CONSTRAINT "posts_addressed_to_accounts_id_fk" FOREIGN KEY ("addressed_to") REFERENCES "sandbox"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_posts_addressed_idx" ON "sandbox"."posts" USING btree ("addressed_to","id") WHERE "sandbox"."posts"."addressed_to" is not null;--> statement-breakpoint
CREATE INDEX "sandbox_posts_in_reply_to_idx" ON "sandbox"."posts" USING btree ("in_reply_to_id") WHERE "sandbox"."posts"."in_reply_to_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_posts_inbound_key_uq" ON "sandbox"."posts" USING btree ("inbound_key") WHERE "sandbox"."posts"."inbound_key" is not null;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scopes_ck" CHECK ("api_keys"."scopes" <@ array['posts:read','posts:write','accounts:read','accounts:write','webhooks:write','workspace:write','posts:approve','inbox:read','inbox:write']::text[]);--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD CONSTRAINT "sandbox_faults_inbound_ck" CHECK ("sandbox"."faults"."inbound_per_day" between 0 and 500);