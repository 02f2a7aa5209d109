CREATE TABLE "conflict_branches" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"kb_id" text NOT NULL,
	"doc_id" text NOT NULL,
	"relative_path" text NOT NULL,
	"content" text,
	"object_key" text,
	"source_hash" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"master_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"warned_at" timestamp (3) with time zone,
	"adopted_at" timestamp (3) with time zone,
	"discarded_at" timestamp (3) with time zone,
	"discard_reason" text
);
--> statement-breakpoint
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
CREATE TABLE "outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"sent_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "conflict_branches" ADD CONSTRAINT "conflict_branches_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conflict_branches" ADD CONSTRAINT "conflict_branches_kb_id_kbs_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."kbs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conflict_branches" ADD CONSTRAINT "conflict_branches_doc_id_documents_id_fk" FOREIGN KEY ("doc_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "doc_tombstones" ADD CONSTRAINT "doc_tombstones_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conflict_branches_kb_pending_idx" ON "conflict_branches" USING btree ("owner_id","kb_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "conflict_branches"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "conflict_branches_doc_pending_idx" ON "conflict_branches" USING btree ("doc_id") WHERE "conflict_branches"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "conflict_branches_expiry_idx" ON "conflict_branches" USING btree ("expires_at") WHERE "conflict_branches"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "conflict_branches_resolved_idx" ON "conflict_branches" USING btree ("created_at") WHERE "conflict_branches"."status" <> 'pending';--> statement-breakpoint
CREATE INDEX "doc_tombstones_kb_deleted_idx" ON "doc_tombstones" USING btree ("kb_id","deleted_at");--> statement-breakpoint
CREATE INDEX "doc_tombstones_owner_deleted_idx" ON "doc_tombstones" USING btree ("owner_id","deleted_at");--> statement-breakpoint
CREATE INDEX "doc_tombstones_kb_doc_idx" ON "doc_tombstones" USING btree ("kb_id","doc_id");--> statement-breakpoint
CREATE INDEX "outbox_unsent_idx" ON "outbox" USING btree ("created_at") WHERE "outbox"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_user_idx" ON "outbox" USING btree ("user_id","created_at");