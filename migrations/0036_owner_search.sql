DROP INDEX "documents_search_idx";--> statement-breakpoint
CREATE INDEX "documents_owner_search_idx" ON "documents" USING gin ((array["owner_id"]),"search") WHERE "documents"."deleted_at" is null;