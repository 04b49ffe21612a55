ALTER TYPE "public"."reconcile_decision" ADD VALUE 'waiting';--> statement-breakpoint
-- I5: the transition table gains scheduled → needs_review (held: account disconnected). Generated from lib/deliveries/transitions.ts.
CREATE OR REPLACE FUNCTION deliveries_check_status_transition() RETURNS trigger AS $$
BEGIN
  IF new.status = old.status THEN
    RETURN new;
  END IF;
  IF NOT (
      (old.status = 'scheduled' and new.status in ('publishing', 'canceled', 'missed', 'needs_review'))
      or (old.status = 'publishing' and new.status in ('sent', 'failed', 'scheduled', 'ambiguous'))
      or (old.status = 'ambiguous' and new.status in ('sent', 'scheduled', 'needs_review'))
      or (old.status = 'needs_review' and new.status in ('sent', 'scheduled', 'canceled'))
  ) THEN
    RAISE EXCEPTION 'delivery % cannot move from % to %', old.id, old.status, new.status
      USING ERRCODE = 'check_violation', CONSTRAINT = 'deliveries_status_transition_ck';
  END IF;
  RETURN new;
END;
$$ LANGUAGE plpgsql;
