ALTER TABLE "videos" ADD COLUMN "captions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "caption_bytes" bigint DEFAULT 0 NOT NULL;