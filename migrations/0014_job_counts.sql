CREATE TABLE "month_rollovers" (
	"month" text PRIMARY KEY NOT NULL,
	"closed_at" timestamp (3) with time zone NOT NULL,
	"restored" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "job_runs" ADD COLUMN "counts" jsonb;--> statement-breakpoint
CREATE INDEX "conflict_branches_object_key_idx" ON "conflict_branches" USING btree ("object_key") WHERE "conflict_branches"."object_key" is not null;--> statement-breakpoint
CREATE INDEX "doc_revisions_object_key_idx" ON "doc_revisions" USING btree ("object_key") WHERE "doc_revisions"."object_key" is not null;--> statement-breakpoint
CREATE INDEX "documents_object_key_idx" ON "documents" USING btree ("object_key") WHERE "documents"."object_key" is not null;