DROP INDEX "api_keys_user_idx";--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);