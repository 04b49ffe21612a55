CREATE TABLE "approval_address_windows" (
	"approval_link_id" uuid NOT NULL,
	"address" text NOT NULL,
	"rate_window_start" timestamp with time zone NOT NULL,
	"rate_window_count" integer NOT NULL,
	CONSTRAINT "approval_address_windows_approval_link_id_address_pk" PRIMARY KEY("approval_link_id","address")
);
--> statement-breakpoint
ALTER TABLE "request_links" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "approval_address_windows" ADD CONSTRAINT "approval_address_windows_approval_link_id_approval_links_id_fk" FOREIGN KEY ("approval_link_id") REFERENCES "public"."approval_links"("id") ON DELETE cascade ON UPDATE no action;