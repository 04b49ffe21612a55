CREATE TABLE "media_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"created_by" text NOT NULL,
	"length" bigint NOT NULL,
	"offset" bigint DEFAULT 0 NOT NULL,
	"metadata" jsonb NOT NULL,
	"status" text DEFAULT 'uploading' NOT NULL,
	"error" text,
	"media_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "media_uploads_media_uq" UNIQUE("media_id"),
	CONSTRAINT "media_uploads_status_ck" CHECK ("media_uploads"."status" in ('uploading', 'finished', 'failed')),
	CONSTRAINT "media_uploads_offset_ck" CHECK ("media_uploads"."offset" >= 0 and "media_uploads"."offset" <= "media_uploads"."length"),
	CONSTRAINT "media_uploads_finished_ck" CHECK (("media_uploads"."status" = 'finished') = ("media_uploads"."media_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "media" DROP CONSTRAINT "media_type_ck";--> statement-breakpoint
ALTER TABLE "media" ALTER COLUMN "size" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "duration_ms" integer;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "video_codec" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "audio_codec" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "frame_rate" double precision;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "rotation" integer;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "container" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "cover_sha256" text;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD CONSTRAINT "media_uploads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD CONSTRAINT "media_uploads_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_uploads_workspace_idx" ON "media_uploads" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "media_uploads_expires_idx" ON "media_uploads" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_video_facts_ck" CHECK (("media"."type" like 'video/%') = ("media"."duration_ms" is not null and "media"."video_codec" is not null and "media"."frame_rate" is not null and "media"."rotation" is not null and "media"."container" is not null and "media"."cover_sha256" is not null));--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_cover_sha256_ck" CHECK ("media"."cover_sha256" is null or "media"."cover_sha256" ~ '^[0-9a-f]{64}$');--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_type_ck" CHECK ("media"."type" in ('image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'video/quicktime'));