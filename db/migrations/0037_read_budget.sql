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
ALTER TABLE "platform_reads" ADD CONSTRAINT "platform_reads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_reads" ADD CONSTRAINT "platform_reads_account_id_social_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."social_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platform_reads_account_taken_idx" ON "platform_reads" USING btree ("account_id","taken_at");