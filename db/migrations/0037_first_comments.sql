-- First comments (docs/architecture.md#first-comments): a post's first comment, and an account's own one in its
-- variant (whose text may now be left to the post's). Published as the post's reply part (deliveries.part 1).
ALTER TABLE "post_variants" ALTER COLUMN "text" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "post_variants" ADD COLUMN "first_comment" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "first_comment" text;--> statement-breakpoint
ALTER TABLE "post_variants" ADD CONSTRAINT "post_variants_content_ck" CHECK ("post_variants"."text" is not null or "post_variants"."first_comment" is not null);