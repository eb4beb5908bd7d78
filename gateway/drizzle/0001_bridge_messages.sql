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
CREATE INDEX "bridge_sends_sender" ON "bridge_sends" USING btree ("sender_lower");