CREATE TABLE "audio" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"title" text NOT NULL,
	"filename" text NOT NULL,
	"format" text NOT NULL,
	"is_public" boolean DEFAULT true NOT NULL,
	"size_bytes" bigint NOT NULL,
	"duration_seconds" real,
	"bitrate" integer,
	"sample_rate" integer,
	"channels" integer,
	"codec" text,
	"embedded_tags" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"object_key" text NOT NULL,
	"cover_key" text,
	"cover_bytes" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audio" ADD CONSTRAINT "audio_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audio_owner_created_idx" ON "audio" USING btree ("owner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);