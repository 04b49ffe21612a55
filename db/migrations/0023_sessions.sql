CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"session_version" integer NOT NULL,
	"user_agent" text,
	"address" text NOT NULL,
	CONSTRAINT "sessions_expiry_ck" CHECK ("sessions"."expires_at" > "sessions"."created_at")
);
--> statement-breakpoint
ALTER TABLE "login_attempts" ADD COLUMN "network" text;--> statement-breakpoint
-- Attempts already recorded (at most 15 minutes' worth matter) count by their single address.
UPDATE "login_attempts" SET "network" = "ip";--> statement-breakpoint
ALTER TABLE "login_attempts" ALTER COLUMN "network" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id","last_seen_at");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "login_attempts_network_idx" ON "login_attempts" USING btree ("network","created_at");