CREATE TABLE "published_sites" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"kb_id" text NOT NULL,
	"path" text DEFAULT '' NOT NULL,
	"slug" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "published_sites" ADD CONSTRAINT "published_sites_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "published_sites_slug_idx" ON "published_sites" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "published_sites_owner_created_idx" ON "published_sites" USING btree ("owner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);