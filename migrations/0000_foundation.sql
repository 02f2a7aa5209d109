CREATE TABLE "job_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"trigger" text NOT NULL,
	"scheduled_for" timestamp (3) with time zone,
	"started_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"outcome" text NOT NULL,
	"error" text,
	"summary" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "job_runs_schedule_uq" ON "job_runs" USING btree ("name","scheduled_for");--> statement-breakpoint
CREATE INDEX "job_runs_started_idx" ON "job_runs" USING btree ("name","started_at");