ALTER TABLE "images" ADD COLUMN "trashed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "kbs" ADD COLUMN "trashed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "trashed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "trashed_kb_id" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "trashed_path" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "trashed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "audio" ADD COLUMN "trashed_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "images_owner_trashed_idx" ON "images" USING btree ("owner_id","trashed_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "images"."trashed_at" is not null;--> statement-breakpoint
CREATE INDEX "kbs_owner_trashed_idx" ON "kbs" USING btree ("owner_id","trashed_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "kbs"."trashed_at" is not null;--> statement-breakpoint
CREATE INDEX "documents_owner_trashed_idx" ON "documents" USING btree ("owner_id","trashed_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "documents"."trashed_at" is not null and "documents"."kb_id" is null;--> statement-breakpoint
CREATE INDEX "videos_owner_trashed_idx" ON "videos" USING btree ("owner_id","trashed_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "videos"."trashed_at" is not null;--> statement-breakpoint
CREATE INDEX "audio_owner_trashed_idx" ON "audio" USING btree ("owner_id","trashed_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "audio"."trashed_at" is not null;