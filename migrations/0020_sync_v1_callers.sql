CREATE TABLE "sync_v1_callers" (
	"user_id" text PRIMARY KEY NOT NULL,
	"last_seen_at" timestamp (3) with time zone NOT NULL,
	"via" text NOT NULL,
	"key_id" text,
	"client_id" text,
	"reminded_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "sync_v1_callers" ADD CONSTRAINT "sync_v1_callers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;