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
ALTER TABLE "sandbox"."threads_containers" ADD CONSTRAINT "threads_containers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."threads_containers" ADD CONSTRAINT "threads_containers_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "sandbox"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_threads_containers_account_idx" ON "sandbox"."threads_containers" USING btree ("account_id","created_at");--> statement-breakpoint
ALTER TABLE "sandbox"."faults" ADD CONSTRAINT "sandbox_faults_profile_ck" CHECK ("sandbox"."faults"."profile" in ('mastodon-modern', 'mastodon-legacy', 'mastodon-nokey', 'x', 'x-nodedupe', 'linkedin', 'threads', 'plain'));