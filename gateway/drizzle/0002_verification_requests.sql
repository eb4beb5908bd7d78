CREATE TABLE "verification_requests" (
	"verification_id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"provider_id" text NOT NULL,
	"provider_lower" text NOT NULL,
	"verification_type" text NOT NULL,
	"report" jsonb NOT NULL,
	"status" text NOT NULL,
	"rejection" jsonb,
	"cpu_cores" integer NOT NULL,
	"ram_gb" integer NOT NULL,
	"storage_gb" integer NOT NULL,
	"network_mbps" integer NOT NULL,
	"cu_value" numeric(78, 0) NOT NULL,
	"attestation" jsonb,
	"signatures" jsonb NOT NULL,
	"expiry" bigint,
	"created_at" bigint NOT NULL,
	"verified_at" bigint,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "verification_requests_provider" ON "verification_requests" USING btree ("provider_lower","status");