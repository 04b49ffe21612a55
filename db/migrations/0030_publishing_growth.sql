-- Cost that stays flat as the tables grow (npm run bench:growth, 1,000,000 scheduled and 200,000 settled deliveries).
-- 1. The per-account rate limit counts an account's recent attempts on every publisher pass. It joined attempts to
--    deliveries by account, which reads every delivery the account ever had: a parallel sequential scan of both
--    tables per pass. Each attempt now carries its delivery's account (set when it starts, backfilled here), and the
--    count reads one index range. Old processes must be stopped first (they insert attempts without the account):
--    docs/operations.md#scripts-in-production.
ALTER TABLE "attempts" ADD COLUMN "account_id" uuid;--> statement-breakpoint
UPDATE "attempts" a SET "account_id" = d."account_id" FROM "deliveries" d WHERE d."id" = a."delivery_id";--> statement-breakpoint
ALTER TABLE "attempts" ALTER COLUMN "account_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "attempts_account_started_idx" ON "attempts" USING btree ("account_id","started_at");--> statement-breakpoint
-- 2. The lease sweep looks for deliveries in flight (`publishing`) on every pass; it read the whole of
--    deliveries_workspace_status_idx to find them. This partial index holds only those in flight.
CREATE INDEX "deliveries_publishing_idx" ON "deliveries" USING btree ("id") WHERE "deliveries"."status" = 'publishing';
