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
CREATE INDEX "webhook_attempts_delivery" ON "webhook_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_once" ON "webhook_deliveries" USING btree ("channel","target","event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subscription" ON "webhook_deliveries" USING btree ("subscription_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_block" ON "webhook_deliveries" USING btree ("chain_id","block_number");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_account" ON "webhook_subscriptions" USING btree ("account_lower");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_events" ON "webhook_subscriptions" USING gin ("events");