-- Short links and UTM (docs/content.md#short-links-and-utm): a workspace's link settings and UTM presets, short links
-- (one per workspace, target URL and UTM: short_links_workspace_target_utm_uq), their clicks per day (no address or
-- agent kept), and the tracked text each delivery publishes (post_link_texts, read first by deliveryTextSql).
CREATE TABLE "link_settings" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"utm" boolean DEFAULT false NOT NULL,
	"shorten" boolean DEFAULT false NOT NULL,
	"shortener" text DEFAULT 'semel' NOT NULL,
	"shortener_url" text,
	"shortener_secret_sealed" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "link_settings_shortener_ck" CHECK ("link_settings"."shortener" in ('semel', 'bitly', 'shlink', 'yourls'))
);
--> statement-breakpoint
CREATE TABLE "post_link_texts" (
	"post_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "post_link_texts_pk" PRIMARY KEY("post_id","account_id","part")
);
--> statement-breakpoint
CREATE TABLE "post_short_links" (
	"post_id" uuid NOT NULL,
	"short_link_id" uuid NOT NULL,
	CONSTRAINT "post_short_links_pk" PRIMARY KEY("post_id","short_link_id")
);
--> statement-breakpoint
CREATE TABLE "short_link_clicks" (
	"short_link_id" uuid NOT NULL,
	"day" date NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "short_link_clicks_pk" PRIMARY KEY("short_link_id","day")
);
--> statement-breakpoint
CREATE TABLE "short_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"code" text NOT NULL,
	"target_url" text NOT NULL,
	"utm_source" text DEFAULT '' NOT NULL,
	"utm_medium" text DEFAULT '' NOT NULL,
	"utm_campaign" text DEFAULT '' NOT NULL,
	"destination" text NOT NULL,
	"shortener" text DEFAULT 'semel' NOT NULL,
	"short_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "short_links_code_uq" UNIQUE("code"),
	CONSTRAINT "short_links_workspace_target_utm_uq" UNIQUE("workspace_id","target_url","utm_source","utm_medium","utm_campaign"),
	CONSTRAINT "short_links_code_ck" CHECK ("short_links"."code" ~ '^[A-Za-z0-9_-]{4,64}$'),
	CONSTRAINT "short_links_target_ck" CHECK (length("short_links"."target_url") <= 2048 and length("short_links"."destination") <= 2300)
);
--> statement-breakpoint
CREATE TABLE "utm_presets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"medium" text DEFAULT 'social' NOT NULL,
	"campaign" text DEFAULT '' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "utm_presets_workspace_name_uq" UNIQUE("workspace_id","name")
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "links" jsonb;--> statement-breakpoint
ALTER TABLE "link_settings" ADD CONSTRAINT "link_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_link_texts" ADD CONSTRAINT "post_link_texts_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_link_texts" ADD CONSTRAINT "post_link_texts_account_id_social_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."social_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_short_links" ADD CONSTRAINT "post_short_links_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_short_links" ADD CONSTRAINT "post_short_links_short_link_id_short_links_id_fk" FOREIGN KEY ("short_link_id") REFERENCES "public"."short_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_link_clicks" ADD CONSTRAINT "short_link_clicks_short_link_id_short_links_id_fk" FOREIGN KEY ("short_link_id") REFERENCES "public"."short_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_links" ADD CONSTRAINT "short_links_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "utm_presets" ADD CONSTRAINT "utm_presets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_short_links_link_idx" ON "post_short_links" USING btree ("short_link_id");--> statement-breakpoint
CREATE UNIQUE INDEX "utm_presets_one_default_uq" ON "utm_presets" USING btree ("workspace_id") WHERE "utm_presets"."is_default";