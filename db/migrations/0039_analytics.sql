-- Analytics (docs/analytics.md, docs/architecture.md#read-budget):
-- platform_reads: reads (metrics, the inbox) spend an account's rate-limit budget with publishing, never its reserved
--   share (READ_BUDGET_RESERVED_SHARE), one row per read taken under a per-account lock.
-- post_metrics / metric_snapshots: each sent delivery's readings at +1 h, +24 h, +7 d, +30 d, claimed with a lease and
--   generation; snapshots append-only, one per delivery and reading time (metric_snapshots_delivery_reading_uq).
-- account_metrics / follower_snapshots: each account's followers, read once a day. client_reports: the monthly client
--   report, once per workspace and month (client_reports_workspace_period_uq); client_report_settings: its logo and
--   recipient.
CREATE TABLE "account_metrics" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"next_due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"worker_id" text,
	"lease_expires_at" timestamp with time zone,
	"unsupported" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_report_settings" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"to_address" text,
	"logo" "bytea",
	"logo_type" text,
	"updated_by_user_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_report_settings_logo_ck" CHECK (("client_report_settings"."logo" is null) = ("client_report_settings"."logo_type" is null)),
	CONSTRAINT "client_report_settings_logo_size_ck" CHECK ("client_report_settings"."logo" is null or octet_length("client_report_settings"."logo") <= 262144)
);
--> statement-breakpoint
CREATE TABLE "client_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"period" text NOT NULL,
	"to_address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_reports_workspace_period_uq" UNIQUE("workspace_id","period"),
	CONSTRAINT "client_reports_period_ck" CHECK ("client_reports"."period" ~ '^\d{4}-\d{2}$')
);
--> statement-breakpoint
CREATE TABLE "follower_snapshots" (
	"account_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"day" text NOT NULL,
	"followers" bigint NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "follower_snapshots_pk" PRIMARY KEY("account_id","day"),
	CONSTRAINT "follower_snapshots_day_ck" CHECK ("follower_snapshots"."day" ~ '^\d{4}-\d{2}-\d{2}$')
);
--> statement-breakpoint
CREATE TABLE "metric_snapshots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"delivery_id" uuid NOT NULL,
	"reading" integer NOT NULL,
	"reading_at" timestamp with time zone NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	"views" bigint,
	"likes" bigint,
	"reposts" bigint,
	"replies" bigint,
	"quotes" bigint,
	"saves" bigint,
	"clicks" bigint,
	CONSTRAINT "metric_snapshots_delivery_reading_uq" UNIQUE("delivery_id","reading_at")
);
--> statement-breakpoint
CREATE TABLE "platform_reads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"calls" integer NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_reads_calls_ck" CHECK ("platform_reads"."calls" >= 1)
);
--> statement-breakpoint
CREATE TABLE "post_metrics" (
	"delivery_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"post_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"provider" "provider" NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"next_reading" integer DEFAULT 0 NOT NULL,
	"next_due_at" timestamp with time zone,
	"generation" integer DEFAULT 0 NOT NULL,
	"worker_id" text,
	"lease_expires_at" timestamp with time zone,
	"stopped_reason" text,
	"stopped_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"views" bigint,
	"likes" bigint,
	"reposts" bigint,
	"replies" bigint,
	"quotes" bigint,
	"saves" bigint,
	"clicks" bigint,
	"engagement" bigint,
	"failures" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "post_metrics_stopped_reason_ck" CHECK ("post_metrics"."stopped_reason" in ('done', 'deleted', 'unsupported'))
);
--> statement-breakpoint
ALTER TABLE "notification_sends" ADD COLUMN "client_report_id" uuid;--> statement-breakpoint
ALTER TABLE "account_metrics" ADD CONSTRAINT "account_metrics_account_id_social_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."social_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_metrics" ADD CONSTRAINT "account_metrics_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_report_settings" ADD CONSTRAINT "client_report_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_report_settings" ADD CONSTRAINT "client_report_settings_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_reports" ADD CONSTRAINT "client_reports_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follower_snapshots" ADD CONSTRAINT "follower_snapshots_account_id_social_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."social_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follower_snapshots" ADD CONSTRAINT "follower_snapshots_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metric_snapshots" ADD CONSTRAINT "metric_snapshots_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metric_snapshots" ADD CONSTRAINT "metric_snapshots_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_reads" ADD CONSTRAINT "platform_reads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_reads" ADD CONSTRAINT "platform_reads_account_id_social_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."social_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_metrics" ADD CONSTRAINT "post_metrics_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_metrics" ADD CONSTRAINT "post_metrics_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_metrics" ADD CONSTRAINT "post_metrics_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_metrics" ADD CONSTRAINT "post_metrics_account_id_social_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."social_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_metrics_due_idx" ON "account_metrics" USING btree ("next_due_at");--> statement-breakpoint
CREATE INDEX "follower_snapshots_workspace_day_idx" ON "follower_snapshots" USING btree ("workspace_id","day");--> statement-breakpoint
CREATE INDEX "platform_reads_account_taken_idx" ON "platform_reads" USING btree ("account_id","taken_at");--> statement-breakpoint
CREATE INDEX "post_metrics_workspace_published_idx" ON "post_metrics" USING btree ("workspace_id","published_at");--> statement-breakpoint
CREATE INDEX "post_metrics_due_idx" ON "post_metrics" USING btree ("next_due_at") WHERE "post_metrics"."next_due_at" is not null;--> statement-breakpoint
ALTER TABLE "notification_sends" ADD CONSTRAINT "notification_sends_client_report_id_client_reports_id_fk" FOREIGN KEY ("client_report_id") REFERENCES "public"."client_reports"("id") ON DELETE cascade ON UPDATE no action;