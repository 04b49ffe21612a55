CREATE TABLE "post_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"request_link_id" uuid NOT NULL,
	"post_id" uuid,
	"requester_name" text NOT NULL,
	"note" text,
	"preferred_at" timestamp with time zone,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_requests_link_key_uq" UNIQUE("request_link_id","key")
);
--> statement-breakpoint
CREATE TABLE "request_address_windows" (
	"request_link_id" uuid NOT NULL,
	"address" text NOT NULL,
	"rate_window_start" timestamp with time zone NOT NULL,
	"rate_window_count" integer NOT NULL,
	CONSTRAINT "request_address_windows_request_link_id_address_pk" PRIMARY KEY("request_link_id","address")
);
--> statement-breakpoint
CREATE TABLE "request_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"secret_hash" text NOT NULL,
	"label" text NOT NULL,
	"created_by_user_id" uuid,
	"revoked_at" timestamp with time zone,
	"rate_window_start" timestamp with time zone,
	"rate_window_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_links_secret_hash_uq" UNIQUE("secret_hash")
);
--> statement-breakpoint
ALTER TABLE "post_requests" ADD CONSTRAINT "post_requests_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_requests" ADD CONSTRAINT "post_requests_request_link_id_request_links_id_fk" FOREIGN KEY ("request_link_id") REFERENCES "public"."request_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_requests" ADD CONSTRAINT "post_requests_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_address_windows" ADD CONSTRAINT "request_address_windows_request_link_id_request_links_id_fk" FOREIGN KEY ("request_link_id") REFERENCES "public"."request_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_links" ADD CONSTRAINT "request_links_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_links" ADD CONSTRAINT "request_links_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_requests_post_idx" ON "post_requests" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "post_requests_workspace_idx" ON "post_requests" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "request_links_workspace_idx" ON "request_links" USING btree ("workspace_id","created_at");