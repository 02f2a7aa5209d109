CREATE TABLE "transcode_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"video_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"provider" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_after" timestamp (3) with time zone NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp (3) with time zone,
	"last_error" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "video_webhook_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "video_webhook_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "videos" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"title" text NOT NULL,
	"filename" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_public" boolean DEFAULT true NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"failure_reason" text,
	"size_bytes" bigint NOT NULL,
	"container" text NOT NULL,
	"duration_seconds" real,
	"renditions" text[] DEFAULT '{}'::text[] NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"provider" text NOT NULL,
	"provider_asset_id" text,
	"original_key" text,
	"thumbnail_key" text,
	"custom_thumbnail_key" text,
	"thumbnail_bytes" bigint DEFAULT 0 NOT NULL,
	"direct_key" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"processing_started_at" timestamp (3) with time zone,
	"ready_at" timestamp (3) with time zone,
	"failed_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transcode_jobs_ready_idx" ON "transcode_jobs" USING btree ("run_after") WHERE "transcode_jobs"."state" in ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "transcode_jobs_video_uq" ON "transcode_jobs" USING btree ("video_id","kind") WHERE "transcode_jobs"."state" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "video_webhook_events_received_idx" ON "video_webhook_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "videos_owner_created_idx" ON "videos" USING btree ("owner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "videos_processing_idx" ON "videos" USING btree ("created_at") WHERE "videos"."status" = 'processing';--> statement-breakpoint
CREATE INDEX "videos_failed_original_idx" ON "videos" USING btree ("failed_at") WHERE "videos"."status" = 'failed' and "videos"."original_key" is not null;