CREATE TABLE "collection_items" (
	"collection_id" text NOT NULL,
	"kind" text NOT NULL,
	"item_id" text NOT NULL,
	"position" integer NOT NULL,
	"added_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "collection_items_collection_id_kind_item_id_pk" PRIMARY KEY("collection_id","kind","item_id")
);
--> statement-breakpoint
CREATE TABLE "collections" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"cover_kind" text,
	"cover_id" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collection_items" ADD CONSTRAINT "collection_items_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collections" ADD CONSTRAINT "collections_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collection_items_order_idx" ON "collection_items" USING btree ("collection_id","position" DESC NULLS LAST,"item_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "collections_owner_created_idx" ON "collections" USING btree ("owner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);