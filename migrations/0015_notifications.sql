CREATE TABLE "quota_marks" (
	"user_id" text NOT NULL,
	"dimension" text NOT NULL,
	"period" text NOT NULL,
	"mark" integer NOT NULL,
	"marked_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "quota_marks_user_id_dimension_period_mark_pk" PRIMARY KEY("user_id","dimension","period","mark")
);
--> statement-breakpoint
DROP INDEX "outbox_unsent_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "quota_warnings" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "quota_marks" ADD CONSTRAINT "quota_marks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("next_attempt_at") WHERE "outbox"."status" = 'pending';