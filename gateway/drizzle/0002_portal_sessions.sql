CREATE TABLE "access_public_keys" (
	"address_lower" text PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_key_usage" (
	"key_id" text NOT NULL,
	"hour" bigint NOT NULL,
	"requests" integer NOT NULL,
	"last_at" bigint NOT NULL,
	CONSTRAINT "api_key_usage_key_id_hour_pk" PRIMARY KEY("key_id","hour")
);
--> statement-breakpoint
CREATE TABLE "portal_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"address_lower" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"revoked_at" bigint
);
--> statement-breakpoint
CREATE TABLE "siwe_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "portal_sessions_address" ON "portal_sessions" USING btree ("address_lower");--> statement-breakpoint
CREATE INDEX "portal_sessions_expiry" ON "portal_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "siwe_nonces_expiry" ON "siwe_nonces" USING btree ("expires_at");