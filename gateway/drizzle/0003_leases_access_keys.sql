CREATE TABLE "access_keys" (
	"chain_id" integer NOT NULL,
	"user_lower" text NOT NULL,
	"public_key" text NOT NULL,
	"registered_at" bigint NOT NULL,
	CONSTRAINT "access_keys_chain_id_user_lower_pk" PRIMARY KEY("chain_id","user_lower")
);
--> statement-breakpoint
CREATE TABLE "lease_notices" (
	"chain_id" integer NOT NULL,
	"lease_id" bigint NOT NULL,
	"event" text NOT NULL,
	"lease_end" bigint NOT NULL,
	"end_block" bigint NOT NULL,
	"sent_at" bigint NOT NULL,
	CONSTRAINT "lease_notices_chain_id_lease_id_event_lease_end_pk" PRIMARY KEY("chain_id","lease_id","event","lease_end")
);
--> statement-breakpoint
CREATE TABLE "leases" (
	"chain_id" integer NOT NULL,
	"lease_id" bigint NOT NULL,
	"user_lower" text NOT NULL,
	"provider_lower" text NOT NULL,
	"started_at" bigint NOT NULL,
	"expires_at" bigint,
	"end_block" bigint,
	"terminated_at" bigint,
	"offer_price" numeric(78, 0),
	"offer_extension" bigint,
	"offer_valid_until" bigint,
	"renewals" integer NOT NULL,
	CONSTRAINT "leases_chain_id_lease_id_pk" PRIMARY KEY("chain_id","lease_id")
);
--> statement-breakpoint
ALTER TABLE "cursors" ADD COLUMN "projection_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "redemptions" ADD COLUMN "provider_lower" text;--> statement-breakpoint
ALTER TABLE "redemptions" ADD COLUMN "lease_id" bigint;--> statement-breakpoint
ALTER TABLE "redemptions" ADD COLUMN "renewed_end" bigint;--> statement-breakpoint
CREATE INDEX "leases_provider" ON "leases" USING btree ("provider_lower");--> statement-breakpoint
CREATE INDEX "leases_user" ON "leases" USING btree ("user_lower");--> statement-breakpoint
CREATE INDEX "leases_expires" ON "leases" USING btree ("chain_id","expires_at");--> statement-breakpoint
CREATE INDEX "redemptions_provider" ON "redemptions" USING btree ("provider_lower","status");--> statement-breakpoint
CREATE INDEX "redemptions_lease" ON "redemptions" USING btree ("lease_id");