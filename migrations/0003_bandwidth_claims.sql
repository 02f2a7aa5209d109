CREATE TABLE "bandwidth_claims" (
	"id" text PRIMARY KEY NOT NULL,
	"committed_at" timestamp (3) with time zone NOT NULL
);
