-- Custom migration (issue 20 follow-up): a delivery released after a proof of absence and then given up (failed,
-- canceled, missed) is watched for a late copy too, as a republished one is once sent: the proof can be wrong and
-- the first call's post can still appear. I5: those three may go to needs_review when the watch finds a copy.
-- Generated from lib/deliveries/transitions.ts.
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
      or (old.status = 'failed' and new.status in ('needs_review'))
      or (old.status = 'canceled' and new.status in ('needs_review'))
      or (old.status = 'missed' and new.status in ('needs_review'))
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
DROP TRIGGER IF EXISTS deliveries_late_copy_watch_trg ON deliveries;
--> statement-breakpoint
-- The WHEN clause compares as text, like 0017's and 0020's (a fresh database applies every migration in one transaction).
CREATE TRIGGER deliveries_late_copy_watch_trg
  AFTER UPDATE OF status ON deliveries
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status::text IN ('sent', 'failed', 'canceled', 'missed'))
  EXECUTE FUNCTION deliveries_start_late_copy_watch();
