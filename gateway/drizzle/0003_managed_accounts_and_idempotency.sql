CREATE TABLE "dispute_evidence" (
	"chain_id" integer NOT NULL,
	"redemption_id" bigint NOT NULL,
	"account" text NOT NULL,
	"issue_type" text NOT NULL,
	"document" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"hash" text NOT NULL,
	"tx_hash" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "dispute_evidence_chain_id_redemption_id_pk" PRIMARY KEY("chain_id","redemption_id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text NOT NULL,
	"status_code" integer,
	"response" text,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "idempotency_keys_account_idempotency_key_pk" PRIMARY KEY("account","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "managed_accounts" (
	"address" text PRIMARY KEY NOT NULL,
	"sealed" text NOT NULL,
	"label" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "redemption_requests" (
	"chain_id" integer NOT NULL,
	"redemption_id" bigint NOT NULL,
	"account" text NOT NULL,
	"provider_id" text NOT NULL,
	"specifications" jsonb,
	"tx_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "redemption_requests_chain_id_redemption_id_pk" PRIMARY KEY("chain_id","redemption_id")
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_expiry" ON "idempotency_keys" USING btree ("expires_at");