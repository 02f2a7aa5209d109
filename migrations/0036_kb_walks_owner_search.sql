DROP INDEX "documents_search_idx";--> statement-breakpoint
DROP INDEX "documents_kb_updated_idx";--> statement-breakpoint
CREATE INDEX "documents_kb_created_idx" ON "documents" USING btree ("kb_id","owner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "documents_owner_search_idx" ON "documents" USING gin ((array["owner_id"]),"search") WHERE "documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "documents_kb_updated_idx" ON "documents" USING btree ("kb_id","owner_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);