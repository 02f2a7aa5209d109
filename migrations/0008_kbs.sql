DROP INDEX "documents_kb_updated_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "kbs_owner_default_uq" ON "kbs" USING btree ("owner_id") WHERE "kbs"."is_default";--> statement-breakpoint
CREATE INDEX "kbs_owner_name_idx" ON "kbs" USING btree ("owner_id","name" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "documents_kb_updated_idx" ON "documents" USING btree ("kb_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);