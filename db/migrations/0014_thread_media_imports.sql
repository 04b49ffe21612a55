CREATE TABLE "import_rows" (
	"post_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"import_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"match_key" text NOT NULL,
	"normalised_text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"source" "post_source" NOT NULL,
	"created_by_user_id" uuid,
	"created_by_api_key_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "post_media" DROP CONSTRAINT "post_media_position_ck";--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_rows_workspace_match_idx" ON "import_rows" USING btree ("workspace_id","match_key");--> statement-breakpoint
CREATE INDEX "imports_workspace_created_idx" ON "imports" USING btree ("workspace_id","created_at");--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_part_ck" CHECK ("post_media"."part" >= 0 and "post_media"."part" < 25);--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_position_ck" CHECK ("post_media"."position" between 0 and 3);