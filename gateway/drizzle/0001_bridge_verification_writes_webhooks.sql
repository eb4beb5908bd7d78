CREATE TABLE "bridge_receipts" (
	"chain_id" integer NOT NULL,
	"message_id" text PRIMARY KEY NOT NULL,
	"source_selector" text NOT NULL,
	"sender" text NOT NULL,
	"recipient" text NOT NULL,
	"token" text NOT NULL,
	"token_symbol" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text NOT NULL,
	"received_at" bigint NOT NULL,
	"completed_at" bigint,
	"completed_tx_hash" text,
	"tx_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bridge_sends" (
	"chain_id" integer NOT NULL,
	"message_id" text PRIMARY KEY NOT NULL,
	"destination_selector" text NOT NULL,
	"sender" text NOT NULL,
	"sender_lower" text NOT NULL,
	"recipient" text NOT NULL,
	"token" text NOT NULL,
	"token_symbol" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"fee_option" text NOT NULL,
	"fee" numeric(78, 0) NOT NULL,
	"transport_fee" numeric(78, 0) NOT NULL,
	"created_at" bigint NOT NULL,
	"tx_hash" text NOT NULL
);
--> statement-breakpoint
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
	CONSTRAINT "dispute_evidence_chain_id_redemption_id_hash_pk" PRIMARY KEY("chain_id","redemption_id","hash")
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
CREATE TABLE "webhook_attempts" (
	"delivery_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" bigint NOT NULL,
	"duration_ms" integer NOT NULL,
	"status_code" integer,
	"error" text,
	"ok" boolean NOT NULL,
	"worker" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"subscription_id" text,
	"target" text NOT NULL,
	"event_id" text NOT NULL,
	"event" text NOT NULL,
	"body" text NOT NULL,
	"chain_id" integer,
	"block_number" bigint,
	"status" text NOT NULL,
	"attempts" integer NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"lease_until" bigint,
	"lease_owner" text,
	"give_up_at" bigint NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"delivered_at" bigint
);
--> statement-breakpoint
CREATE TABLE "webhook_subscriptions" (
	"subscription_id" text PRIMARY KEY NOT NULL,
	"account_lower" text NOT NULL,
	"url" text NOT NULL,
	"events" jsonb NOT NULL,
	"timestamp_format" text NOT NULL,
	"own_events_only" boolean NOT NULL,
	"secret" text NOT NULL,
	"created_at" bigint NOT NULL,
	"rotated_at" bigint
);
--> statement-breakpoint
CREATE INDEX "bridge_sends_sender" ON "bridge_sends" USING btree ("sender_lower");--> statement-breakpoint
CREATE INDEX "verification_requests_provider" ON "verification_requests" USING btree ("provider_lower","status");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expiry" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery" ON "webhook_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_once" ON "webhook_deliveries" USING btree ("channel","target","event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subscription" ON "webhook_deliveries" USING btree ("subscription_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_block" ON "webhook_deliveries" USING btree ("chain_id","block_number");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_account" ON "webhook_subscriptions" USING btree ("account_lower");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_events" ON "webhook_subscriptions" USING gin ("events");