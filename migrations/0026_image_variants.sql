CREATE TABLE "image_variants" (
	"image_id" text NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "image_variants_image_id_name_pk" PRIMARY KEY("image_id","name")
);
--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "placeholder" text;--> statement-breakpoint
ALTER TABLE "image_variants" ADD CONSTRAINT "image_variants_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "images_placeholder_missing_idx" ON "images" USING btree ("id") WHERE "images"."placeholder" is null;