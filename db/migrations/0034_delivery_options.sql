-- Per-post options per account (ProviderMeta `options`: TikTok's privacy level, interactions, direct or inbox),
-- checked by each network's schema when the post is made and passed to its client at publishing. The check keeps
-- it a small JSON object (a handful of choices, never a document).
ALTER TABLE "deliveries" ADD COLUMN "options" jsonb;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_options_ck" CHECK ("deliveries"."options" is null or (jsonb_typeof("deliveries"."options") = 'object' and octet_length("deliveries"."options"::text) <= 2048));