ALTER TABLE "oauth_authorization_codes" ADD COLUMN "resource" text;--> statement-breakpoint
ALTER TABLE "oauth_device_authorizations" ADD COLUMN "resource" text;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD COLUMN "resource" text;