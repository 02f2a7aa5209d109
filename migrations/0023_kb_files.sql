CREATE TABLE "kb_files" (
	"owner_id" text NOT NULL,
	"sha256" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"content_type" text NOT NULL,
	"object_key" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"touched_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "kb_files_pk" PRIMARY KEY("owner_id","sha256")
);
--> statement-breakpoint
ALTER TABLE "conflict_branches" ADD COLUMN "kind" text DEFAULT 'document' NOT NULL;--> statement-breakpoint
ALTER TABLE "doc_tombstones" ADD COLUMN "kind" text DEFAULT 'document' NOT NULL;--> statement-breakpoint
ALTER TABLE "kbs" ADD COLUMN "file_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "kb_files" ADD CONSTRAINT "kb_files_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kb_files_object_key_uq" ON "kb_files" USING btree ("object_key");--> statement-breakpoint
CREATE INDEX "kb_files_touched_idx" ON "kb_files" USING btree ("touched_at");--> statement-breakpoint
CREATE INDEX "conflict_branches_file_idx" ON "conflict_branches" USING btree ("owner_id","source_hash") WHERE "conflict_branches"."kind" = 'file' and "conflict_branches"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "documents_owner_file_idx" ON "documents" USING btree ("owner_id","source_hash") WHERE "documents"."format" = 'file' and "documents"."deleted_at" is null;