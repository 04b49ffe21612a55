ALTER TYPE "public"."post_kind" ADD VALUE 'thread';--> statement-breakpoint
CREATE TABLE "post_parts" (
	"post_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "post_parts_pk" PRIMARY KEY("post_id","position"),
	CONSTRAINT "post_parts_position_ck" CHECK ("post_parts"."position" >= 0 and "post_parts"."position" < 25)
);
--> statement-breakpoint
ALTER TABLE "deliveries" DROP CONSTRAINT "deliveries_post_account_uq";--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "part" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "post_parts" ADD CONSTRAINT "post_parts_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_post_account_part_uq" UNIQUE("post_id","account_id","part");--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_part_ck" CHECK ("deliveries"."part" >= 0 and "deliveries"."part" < 25);--> statement-breakpoint
-- I5: the transition table gains scheduled → failed (a thread part after a failed part). Generated from lib/deliveries/transitions.ts.
CREATE OR REPLACE FUNCTION deliveries_check_status_transition() RETURNS trigger AS $$
BEGIN
  IF new.status = old.status THEN
    RETURN new;
  END IF;
  IF NOT (
      (old.status = 'scheduled' and new.status in ('publishing', 'canceled', 'missed', 'needs_review', 'failed'))
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
