CREATE TABLE "doc_tombstones" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"kb_id" text NOT NULL,
	"doc_id" text NOT NULL,
	"relative_path" text NOT NULL,
	"path_key" text NOT NULL,
	"source_hash" text NOT NULL,
	"deleted_at" timestamp (3) with time zone NOT NULL,
	"acked_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "doc_tombstones" ADD CONSTRAINT "doc_tombstones_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "doc_tombstones_kb_deleted_idx" ON "doc_tombstones" USING btree ("kb_id","deleted_at");--> statement-breakpoint
CREATE INDEX "doc_tombstones_owner_deleted_idx" ON "doc_tombstones" USING btree ("owner_id","deleted_at");--> statement-breakpoint
CREATE INDEX "doc_tombstones_kb_doc_idx" ON "doc_tombstones" USING btree ("kb_id","doc_id");