-- The image_count usage dimension (an images list's total) starts from the images each
-- user holds; from here on uploads reserve it and deletes release it.
INSERT INTO "usage_counters" ("user_id", "period", "dimension", "value")
SELECT "owner_id", 'total', 'image_count', count(*) FROM "images" GROUP BY "owner_id"
ON CONFLICT ("user_id", "period", "dimension") DO UPDATE SET "value" = excluded."value";
