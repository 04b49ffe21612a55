CREATE TYPE "public"."webhook_message_status" AS ENUM('pending', 'succeeded', 'failed');--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"generation" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL,
	"status_code" integer,
	"latency_ms" integer NOT NULL,
	"error" text,
	"response_excerpt" text,
	CONSTRAINT "webhook_attempts_message_generation_uq" UNIQUE("message_id","generation")
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"url" text NOT NULL,
	"secret_sealed" text NOT NULL,
	"events" text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"type" text NOT NULL,
	"subject" text NOT NULL,
	"sequence" integer NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_events_subject_sequence_uq" UNIQUE("workspace_id","subject","sequence")
);
--> statement-breakpoint
CREATE TABLE "webhook_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"status" "webhook_message_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"last_status_code" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_messages_endpoint_event_uq" UNIQUE("endpoint_id","event_id")
);
--> statement-breakpoint
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_scopes_ck";--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_message_id_webhook_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."webhook_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD CONSTRAINT "webhook_messages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD CONSTRAINT "webhook_messages_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD CONSTRAINT "webhook_messages_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_endpoints_workspace_idx" ON "webhook_endpoints" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "webhook_events_workspace_idx" ON "webhook_events" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_messages_due_idx" ON "webhook_messages" USING btree ("next_attempt_at") WHERE "webhook_messages"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_messages_endpoint_idx" ON "webhook_messages" USING btree ("endpoint_id","created_at");--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scopes_ck" CHECK ("api_keys"."scopes" <@ array['posts:read','posts:write','accounts:read','accounts:write','webhooks:write']::text[]);--> statement-breakpoint
-- Writes one outbox event and its messages to every enabled endpoint subscribed to the type, in the caller's
-- transaction (emitWebhookEvent in lib/webhooks/emit.ts, and the delivery trigger below). The advisory lock
-- serialises emitters of one subject, so its sequence grows by one per event and never repeats.
CREATE OR REPLACE FUNCTION webhook_emit(p_workspace uuid, p_type text, p_subject text, p_data jsonb) RETURNS uuid AS $$
DECLARE
  v_id uuid;
  v_sequence integer;
  -- Milliseconds, as JavaScript dates hold them: a sender's clock compares with these exactly.
  v_now timestamptz := date_trunc('milliseconds', now());
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM webhook_endpoints e WHERE e.workspace_id = p_workspace AND e.enabled AND p_type = ANY (e.events)
  ) THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(p_workspace::text || '/' || p_subject, 0));
  SELECT coalesce(max(sequence), 0) + 1 INTO v_sequence
    FROM webhook_events WHERE workspace_id = p_workspace AND subject = p_subject;
  INSERT INTO webhook_events (workspace_id, type, subject, sequence, data, created_at)
    VALUES (p_workspace, p_type, p_subject, v_sequence, p_data, v_now) RETURNING id INTO v_id;
  INSERT INTO webhook_messages (workspace_id, endpoint_id, event_id, next_attempt_at)
    SELECT p_workspace, e.id, v_id, v_now FROM webhook_endpoints e
    WHERE e.workspace_id = p_workspace AND e.enabled AND p_type = ANY (e.events);
  RETURN v_id;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Every delivery status change that receivers care about becomes an event in the same transaction, whichever
-- statement made it (claim, outcome, sweep, reconcile, review, missed): none can forget to emit.
CREATE OR REPLACE FUNCTION deliveries_emit_webhook_event() RETURNS trigger AS $$
BEGIN
  PERFORM webhook_emit(
    NEW.workspace_id,
    'delivery.' || NEW.status::text,
    'delivery:' || NEW.id::text,
    jsonb_build_object(
      'deliveryId', NEW.id,
      'postId', NEW.post_id,
      'accountId', NEW.account_id,
      'provider', (SELECT a.provider FROM social_accounts a WHERE a.id = NEW.account_id),
      'part', NEW.part,
      'status', NEW.status,
      'previousStatus', OLD.status,
      'externalId', NEW.external_id,
      'externalUrl', NEW.external_url,
      'failureReason', NEW.failure_reason,
      'occurredAt', now()
    )
  );
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER deliveries_webhook_event_trg
  AFTER UPDATE OF status ON deliveries
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN ('sent', 'failed', 'ambiguous', 'needs_review', 'missed'))
  EXECUTE FUNCTION deliveries_emit_webhook_event();
