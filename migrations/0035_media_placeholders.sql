ALTER TABLE "videos" ADD COLUMN "placeholder" text;--> statement-breakpoint
ALTER TABLE "audio" ADD COLUMN "placeholder" text;