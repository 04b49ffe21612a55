CREATE TABLE "media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"size" integer NOT NULL,
	"alt_text" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_type_ck" CHECK ("media"."type" in ('image/jpeg', 'image/png', 'image/gif', 'image/webp')),
	CONSTRAINT "media_sha256_ck" CHECK ("media"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "post_media" (
	"post_id" uuid NOT NULL,
	"part" integer DEFAULT 0 NOT NULL,
	"position" integer NOT NULL,
	"media_id" uuid NOT NULL,
	CONSTRAINT "post_media_pk" PRIMARY KEY("post_id","part","position"),
	CONSTRAINT "post_media_position_ck" CHECK ("post_media"."position" between 0 and 3 and "post_media"."part" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox"."media" (
	"id" bigint PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"type" text NOT NULL,
	"alt_text" text DEFAULT '' NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"ready_at" timestamp (3) with time zone NOT NULL,
	"uploaded" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox"."threads_containers" DROP CONSTRAINT "sandbox_threads_containers_media_type_ck";--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "require_alt_text" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."posts" ADD COLUMN "media" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."threads_containers" ADD COLUMN "media" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."media" ADD CONSTRAINT "media_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_workspace_idx" ON "media" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "post_media_media_idx" ON "post_media" USING btree ("media_id");--> statement-breakpoint
CREATE INDEX "sandbox_media_account_idx" ON "sandbox"."media" USING btree ("account_id","created_at");--> statement-breakpoint
ALTER TABLE "sandbox"."threads_containers" ADD CONSTRAINT "sandbox_threads_containers_media_type_ck" CHECK ("sandbox"."threads_containers"."media_type" in ('TEXT', 'IMAGE', 'CAROUSEL'));