CREATE TYPE "public"."email_mode" AS ENUM('immediately', 'digest', 'off');--> statement-breakpoint
CREATE TYPE "public"."notification_channel" AS ENUM('email', 'slack', 'email_digest');--> statement-breakpoint
CREATE TYPE "public"."notification_send_status" AS ENUM('pending', 'sent', 'failed', 'digest', 'bundled');--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"email_mode" "email_mode" DEFAULT 'immediately' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_preferences_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "notification_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"key" text NOT NULL,
	"channel" "notification_channel" NOT NULL,
	"notification_id" uuid,
	"user_id" uuid,
	"digest_day" text,
	"digest_send_id" uuid,
	"status" "notification_send_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"generation" integer DEFAULT 0 NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_sends_key_uq" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "outbox_emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"send_id" uuid NOT NULL,
	"user_id" uuid,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbox_emails_send_uq" UNIQUE("send_id")
);
--> statement-breakpoint
CREATE TABLE "slack_webhooks" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"url_sealed" text NOT NULL,
	"host" text NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_sends" ADD CONSTRAINT "notification_sends_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_sends" ADD CONSTRAINT "notification_sends_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_sends" ADD CONSTRAINT "notification_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD CONSTRAINT "outbox_emails_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD CONSTRAINT "outbox_emails_send_id_notification_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."notification_sends"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD CONSTRAINT "outbox_emails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slack_webhooks" ADD CONSTRAINT "slack_webhooks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slack_webhooks" ADD CONSTRAINT "slack_webhooks_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_sends_due_idx" ON "notification_sends" USING btree ("next_attempt_at") WHERE "notification_sends"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "notification_sends_digest_idx" ON "notification_sends" USING btree ("digest_day") WHERE "notification_sends"."status" = 'digest';--> statement-breakpoint
CREATE INDEX "notification_sends_workspace_idx" ON "notification_sends" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "outbox_emails_workspace_idx" ON "outbox_emails" USING btree ("workspace_id","created_at");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_post_event_uq" UNIQUE("post_id","kind","incident_key");--> statement-breakpoint
-- ==== custom SQL (notifications beyond the bell): re-append after regenerating ====
-- Every notification fans out to its email and Slack sends in the transaction that inserted it, whichever code
-- path did (outcomes, reconcile, disconnect, token health, approvals, the delivery trigger below): none can
-- forget. One send per (notification, channel, recipient) by notification_sends_key_uq.
CREATE OR REPLACE FUNCTION notifications_fan_out() RETURNS trigger AS $$
DECLARE
  -- Milliseconds, as JavaScript dates hold them: a sender's clock compares with these exactly.
  v_now timestamptz := date_trunc('milliseconds', now());
  v_day text := to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD');
BEGIN
  INSERT INTO notification_sends (workspace_id, key, channel, notification_id, user_id, digest_day, status, next_attempt_at)
  SELECT NEW.workspace_id, 'email:' || NEW.id::text || ':' || m.user_id::text, 'email', NEW.id, m.user_id,
    CASE WHEN p.email_mode = 'digest' THEN v_day END,
    CASE WHEN p.email_mode = 'digest' THEN 'digest' ELSE 'pending' END::notification_send_status,
    CASE WHEN p.email_mode = 'digest' THEN NULL ELSE v_now END
  FROM memberships m
  LEFT JOIN notification_preferences p ON p.workspace_id = m.workspace_id AND p.user_id = m.user_id
  WHERE m.workspace_id = NEW.workspace_id
    AND (NEW.user_id IS NULL OR m.user_id = NEW.user_id)
    -- An approval request is for those who can decide it.
    AND (NEW.kind <> 'approval_requested' OR m.role = 'admin')
    AND coalesce(p.email_mode, 'immediately') <> 'off'
  ON CONFLICT (key) DO NOTHING;
  -- Slack is one channel for the workspace: an approval request written once per admin is posted once.
  INSERT INTO notification_sends (workspace_id, key, channel, notification_id, status, next_attempt_at)
  SELECT NEW.workspace_id,
    CASE WHEN NEW.kind = 'approval_requested'
      THEN 'slack:approval_requested:' || NEW.post_id::text || ':' || split_part(NEW.incident_key, ':user:', 1)
      ELSE 'slack:' || NEW.id::text END,
    'slack', NEW.id, 'pending', v_now
  FROM slack_webhooks s WHERE s.workspace_id = NEW.workspace_id
  ON CONFLICT (key) DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER notifications_fan_out_trg
  AFTER INSERT ON notifications
  FOR EACH ROW
  EXECUTE FUNCTION notifications_fan_out();
--> statement-breakpoint
-- The events the bell did not have yet: a delivery missed, and a post waiting for approval (once per revision,
-- however many deliveries it has, for each admin). A trigger, like the webhook events of 0013: no status change can skip it.
CREATE OR REPLACE FUNCTION deliveries_notify_event() RETURNS trigger AS $$
BEGIN
  IF NEW.status = 'missed' THEN
    INSERT INTO notifications (workspace_id, delivery_id, kind, message)
    VALUES (NEW.workspace_id, NEW.id, 'missed',
      'A delivery was missed: it fell due after the lateness limit and was not published late.')
    ON CONFLICT DO NOTHING;
  ELSIF NEW.status = 'awaiting_approval' THEN
    -- One per admin (those who can decide), so the bell shows it to them only.
    INSERT INTO notifications (workspace_id, post_id, user_id, kind, incident_key, message)
    SELECT NEW.workspace_id, p.id, m.user_id, 'approval_requested',
      'revision:' || p.revision::text || ':user:' || m.user_id::text,
      'A post waits for approval: ' || left(p.text, 80)
    FROM posts p JOIN memberships m ON m.workspace_id = p.workspace_id AND m.role = 'admin'
    WHERE p.id = NEW.post_id
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The WHEN clauses compare as text: drizzle applies a fresh database's migrations in one transaction, and Postgres
-- refuses a literal of an enum value added in that same transaction (0015 adds 'awaiting_approval').
CREATE TRIGGER deliveries_notify_event_insert_trg
  AFTER INSERT ON deliveries
  FOR EACH ROW
  WHEN (NEW.status::text IN ('missed', 'awaiting_approval'))
  EXECUTE FUNCTION deliveries_notify_event();
--> statement-breakpoint
CREATE TRIGGER deliveries_notify_event_update_trg
  AFTER UPDATE OF status ON deliveries
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status::text IN ('missed', 'awaiting_approval'))
  EXECUTE FUNCTION deliveries_notify_event();
