CREATE TABLE "kbs" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"doc_count" integer DEFAULT 0 NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "doc_cdn_hosts" (
	"pattern" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "doc_revisions" (
	"id" text PRIMARY KEY NOT NULL,
	"doc_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"rev_number" integer NOT NULL,
	"origin" text NOT NULL,
	"source_hash" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"content" text,
	"object_key" text,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"kb_id" text,
	"relative_path" text,
	"path_key" text,
	"title" text NOT NULL,
	"filename" text NOT NULL,
	"format" text NOT NULL,
	"source_hash" text NOT NULL,
	"input_hash" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"word_count" integer NOT NULL,
	"image_count" integer NOT NULL,
	"rewritten_count" integer NOT NULL,
	"excerpt" text DEFAULT '' NOT NULL,
	"cover_url" text,
	"is_public" boolean DEFAULT false NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"content" text,
	"object_key" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "documents_place_ck" CHECK (("documents"."kb_id" is null) = ("documents"."relative_path" is null) and ("documents"."kb_id" is null) = ("documents"."path_key" is null))
);
--> statement-breakpoint
ALTER TABLE "kbs" ADD CONSTRAINT "kbs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "doc_revisions" ADD CONSTRAINT "doc_revisions_doc_id_documents_id_fk" FOREIGN KEY ("doc_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "doc_revisions" ADD CONSTRAINT "doc_revisions_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_kb_id_kbs_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."kbs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kbs_owner_slug_uq" ON "kbs" USING btree ("owner_id","slug");--> statement-breakpoint
CREATE INDEX "kbs_owner_updated_idx" ON "kbs" USING btree ("owner_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "doc_revisions_doc_rev_uq" ON "doc_revisions" USING btree ("doc_id","rev_number");--> statement-breakpoint
CREATE INDEX "doc_revisions_owner_created_idx" ON "doc_revisions" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_kb_path_uq" ON "documents" USING btree ("owner_id","kb_id","path_key") WHERE "documents"."kb_id" is not null;--> statement-breakpoint
CREATE INDEX "documents_owner_created_idx" ON "documents" USING btree ("owner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "documents_owner_updated_idx" ON "documents" USING btree ("owner_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "documents_kb_updated_idx" ON "documents" USING btree ("kb_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "documents_owner_hash_idx" ON "documents" USING btree ("owner_id","source_hash") WHERE "documents"."kb_id" is null and "documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "documents_owner_input_hash_idx" ON "documents" USING btree ("owner_id","input_hash") WHERE "documents"."kb_id" is null and "documents"."deleted_at" is null;