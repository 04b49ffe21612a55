ALTER TABLE "post_media" DROP CONSTRAINT "post_media_position_ck";--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_part_ck" CHECK ("post_media"."part" >= 0 and "post_media"."part" < 25);--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_position_ck" CHECK ("post_media"."position" between 0 and 3);