CREATE TABLE "usage_counters" (
	"user_id" text NOT NULL,
	"period" text NOT NULL,
	"dimension" text NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_counters_user_id_period_dimension_pk" PRIMARY KEY("user_id","period","dimension")
);
--> statement-breakpoint
ALTER TABLE "usage_counters" ADD CONSTRAINT "usage_counters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every count the three tables held moves to its counter, named as in
-- src/modules/usage/dimensions.ts. Zero counts are left out: an absent counter reads as zero.
INSERT INTO "usage_counters" ("user_id", "period", "dimension", "value")
SELECT t."user_id", 'total', c."dimension", c."value"
FROM "usage_totals" t
CROSS JOIN LATERAL (VALUES
	('img_storage', t."image_storage_bytes"),
	('media_storage', t."media_storage_bytes"),
	('doc_count', t."doc_count"::bigint),
	('revision_count', t."revision_count"::bigint),
	('revision_bytes', t."revision_bytes")
) AS c("dimension", "value")
WHERE c."value" <> 0;--> statement-breakpoint
INSERT INTO "usage_counters" ("user_id", "period", "dimension", "value")
SELECT m."user_id", m."month", c."dimension", c."value"
FROM "usage_monthly" m
CROSS JOIN LATERAL (VALUES
	('image_bandwidth', m."image_bandwidth_bytes"),
	('media_bandwidth', m."media_bandwidth_bytes"),
	('uploads_per_month', m."uploads"::bigint)
) AS c("dimension", "value")
WHERE c."value" <> 0;--> statement-breakpoint
INSERT INTO "usage_counters" ("user_id", "period", "dimension", "value")
SELECT d."user_id", d."day", 'uploads_per_day', d."uploads"::bigint
FROM "usage_daily" d
WHERE d."uploads" <> 0;--> statement-breakpoint
DROP TABLE "usage_daily" CASCADE;--> statement-breakpoint
DROP TABLE "usage_monthly" CASCADE;--> statement-breakpoint
DROP TABLE "usage_totals" CASCADE;
