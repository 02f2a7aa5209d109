CREATE TABLE "account_import_items" (
	"owner_id" text NOT NULL,
	"kind" text NOT NULL,
	"source_id" text NOT NULL,
	"sha256" text NOT NULL,
	"target_id" text NOT NULL,
	"migration_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "account_import_items_owner_id_kind_source_id_sha256_pk" PRIMARY KEY("owner_id","kind","source_id","sha256")
);
--> statement-breakpoint
CREATE TABLE "account_imports" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"object_key" text,
	"archive_bytes" bigint NOT NULL,
	"upload_id" text,
	"media_url" text NOT NULL,
	"items_total" integer DEFAULT 0 NOT NULL,
	"items_done" integer DEFAULT 0 NOT NULL,
	"report" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "account_import_items" ADD CONSTRAINT "account_import_items_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_imports" ADD CONSTRAINT "account_imports_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_imports_owner_created_idx" ON "account_imports" USING btree ("owner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "account_imports_owner_upload_idx" ON "account_imports" USING btree ("owner_id","upload_id");--> statement-breakpoint
CREATE INDEX "account_imports_due_idx" ON "account_imports" USING btree ("created_at") WHERE "account_imports"."state" in ('queued', 'running');