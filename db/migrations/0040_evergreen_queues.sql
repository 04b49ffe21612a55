-- Evergreen queues (docs/content.md#evergreen-queues): queues of posts that recycle into their accounts' posting
-- slots, their items, and each item's turn per cycle (evergreen_fires_item_cycle_uq: once per item and cycle).
CREATE TABLE "evergreen_fires" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"cycle" integer NOT NULL,
	"post_id" uuid,
	"skipped" boolean DEFAULT false NOT NULL,
	"fired_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "evergreen_fires_item_cycle_uq" UNIQUE("item_id","cycle")
);
--> statement-breakpoint
CREATE TABLE "evergreen_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"variants" text[] DEFAULT '{}'::text[] NOT NULL,
	"skip_next" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evergreen_queues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"account_ids" uuid[] NOT NULL,
	"min_gap_days" integer DEFAULT 7 NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"cycle" integer DEFAULT 1 NOT NULL,
	"last_error" text,
	"next_run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"generation" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "evergreen_queues_workspace_name_uq" UNIQUE("workspace_id","name"),
	CONSTRAINT "evergreen_queues_gap_ck" CHECK ("evergreen_queues"."min_gap_days" between 0 and 365)
);
--> statement-breakpoint
ALTER TABLE "evergreen_fires" ADD CONSTRAINT "evergreen_fires_queue_id_evergreen_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."evergreen_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_fires" ADD CONSTRAINT "evergreen_fires_item_id_evergreen_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."evergreen_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_fires" ADD CONSTRAINT "evergreen_fires_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_items" ADD CONSTRAINT "evergreen_items_queue_id_evergreen_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."evergreen_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_items" ADD CONSTRAINT "evergreen_items_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_queues" ADD CONSTRAINT "evergreen_queues_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evergreen_fires_queue_idx" ON "evergreen_fires" USING btree ("queue_id","cycle");--> statement-breakpoint
CREATE INDEX "evergreen_items_queue_idx" ON "evergreen_items" USING btree ("queue_id","position");--> statement-breakpoint
CREATE INDEX "evergreen_queues_due_idx" ON "evergreen_queues" USING btree ("next_run_at") WHERE not "evergreen_queues"."paused";