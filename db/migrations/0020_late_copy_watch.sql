ALTER TYPE "public"."reconcile_decision" ADD VALUE 'watch_clear';--> statement-breakpoint
ALTER TYPE "public"."reconcile_decision" ADD VALUE 'late_copy';--> statement-breakpoint
CREATE TABLE "host_allowances" (
	"workspace_id" uuid NOT NULL,
	"provider" "provider" NOT NULL,
	"host" text NOT NULL,
	"observed_worst_ms" integer NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "host_allowances_pk" PRIMARY KEY("workspace_id","provider","host")
);
--> statement-breakpoint
CREATE TABLE "late_copy_watches" (
	"delivery_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checks_done" integer DEFAULT 0 NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"worker_id" text,
	"lease_expires_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"outcome" text
);
--> statement-breakpoint
ALTER TABLE "reconciliations" ADD COLUMN "watch_step" integer;--> statement-breakpoint
ALTER TABLE "host_allowances" ADD CONSTRAINT "host_allowances_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "late_copy_watches" ADD CONSTRAINT "late_copy_watches_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "late_copy_watches" ADD CONSTRAINT "late_copy_watches_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "late_copy_watches_open_idx" ON "late_copy_watches" USING btree ("started_at") WHERE "late_copy_watches"."ended_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliations_watch_step_uq" ON "reconciliations" USING btree ("delivery_id","watch_step") WHERE "reconciliations"."watch_step" is not null;--> statement-breakpoint
-- ==== custom SQL (late-copy watch, issue 20): re-append after regenerating ====
-- I5: sent may go to needs_review when the late-copy watch finds a second copy. Generated from lib/deliveries/transitions.ts.
CREATE OR REPLACE FUNCTION deliveries_check_status_transition() RETURNS trigger AS $$
BEGIN
  IF new.status = old.status THEN
    RETURN new;
  END IF;
  IF NOT (
      (old.status = 'scheduled' and new.status in ('publishing', 'canceled', 'missed', 'needs_review', 'failed', 'awaiting_approval'))
      or (old.status = 'publishing' and new.status in ('sent', 'failed', 'scheduled', 'ambiguous'))
      or (old.status = 'ambiguous' and new.status in ('sent', 'scheduled', 'needs_review'))
      or (old.status = 'needs_review' and new.status in ('sent', 'scheduled', 'canceled'))
      or (old.status = 'sent' and new.status in ('needs_review'))
      or (old.status = 'draft' and new.status in ('scheduled', 'canceled', 'awaiting_approval'))
      or (old.status = 'awaiting_approval' and new.status in ('scheduled', 'canceled', 'missed'))
  ) THEN
    RAISE EXCEPTION 'delivery % cannot move from % to %', old.id, old.status, new.status
      USING ERRCODE = 'check_violation', CONSTRAINT = 'deliveries_status_transition_ck';
  END IF;
  RETURN new;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- A delivery published again after a release (a proof of absence that can still be wrong) is watched for a late copy
-- from the moment it is recorded sent, whichever statement did it: a trigger, so no path can forget, in the same
-- transaction. One watch per delivery (its primary key), so a later sent (an admin's decision) does not start another.
CREATE OR REPLACE FUNCTION deliveries_start_late_copy_watch() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM reconciliations r WHERE r.delivery_id = NEW.id AND r.decision::text = 'released') THEN
    INSERT INTO late_copy_watches (delivery_id, workspace_id, started_at)
    VALUES (NEW.id, NEW.workspace_id, date_trunc('milliseconds', now()))
    ON CONFLICT (delivery_id) DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The WHEN clause compares as text, like 0017's (a fresh database applies every migration in one transaction).
CREATE TRIGGER deliveries_late_copy_watch_trg
  AFTER UPDATE OF status ON deliveries
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status::text = 'sent')
  EXECUTE FUNCTION deliveries_start_late_copy_watch();
