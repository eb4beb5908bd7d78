CREATE TABLE "api_keys" (
	"key_id" text PRIMARY KEY NOT NULL,
	"tier" text NOT NULL,
	"account" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"rate_limit" integer,
	"label" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint,
	"revoked_at" bigint
);
--> statement-breakpoint
CREATE TABLE "balances" (
	"chain_id" integer NOT NULL,
	"account" text NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	CONSTRAINT "balances_chain_id_account_pk" PRIMARY KEY("chain_id","account")
);
--> statement-breakpoint
CREATE TABLE "blocks" (
	"chain_id" integer NOT NULL,
	"number" bigint NOT NULL,
	"hash" text NOT NULL,
	"timestamp" bigint NOT NULL,
	CONSTRAINT "blocks_chain_id_number_pk" PRIMARY KEY("chain_id","number")
);
--> statement-breakpoint
CREATE TABLE "compute_units" (
	"chain_id" integer NOT NULL,
	"cu_id" bigint NOT NULL,
	"cu_hash" text NOT NULL,
	"cu_value" numeric(78, 0) NOT NULL,
	"provider_id" text NOT NULL,
	"provider_lower" text NOT NULL,
	"verified_at" bigint NOT NULL,
	"cpu_cores" integer NOT NULL,
	"ram_gb" integer NOT NULL,
	"storage_gb" integer NOT NULL,
	"network_mbps" integer NOT NULL,
	"cpu_score" integer NOT NULL,
	"memory_score" integer NOT NULL,
	"storage_score" integer NOT NULL,
	"network_score" integer NOT NULL,
	"collateral_amount" numeric(78, 0),
	"staking_period" bigint,
	CONSTRAINT "compute_units_chain_id_cu_id_pk" PRIMARY KEY("chain_id","cu_id")
);
--> statement-breakpoint
CREATE TABLE "cursors" (
	"chain_id" integer PRIMARY KEY NOT NULL,
	"chain" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"chain_id" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"block_hash" text NOT NULL,
	"tx_hash" text NOT NULL,
	"timestamp" bigint NOT NULL,
	"contract" text NOT NULL,
	"address" text NOT NULL,
	"name" text NOT NULL,
	"args" jsonb NOT NULL,
	CONSTRAINT "events_chain_id_block_number_log_index_pk" PRIMARY KEY("chain_id","block_number","log_index")
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"chain_id" integer NOT NULL,
	"listing_id" bigint PRIMARY KEY NOT NULL,
	"market_type" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"seller" text NOT NULL,
	"seller_lower" text NOT NULL,
	"counterparty" text,
	"amount" numeric(78, 0) NOT NULL,
	"remaining" numeric(78, 0) NOT NULL,
	"price_per_token" numeric(78, 0) NOT NULL,
	"strike_price" numeric(78, 0) NOT NULL,
	"listed_at" bigint NOT NULL,
	"expiration" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "parameters" (
	"chain_id" integer NOT NULL,
	"contract" text NOT NULL,
	"name" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	CONSTRAINT "parameters_chain_id_contract_name_pk" PRIMARY KEY("chain_id","contract","name")
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"chain_id" integer NOT NULL,
	"provider_id" text PRIMARY KEY NOT NULL,
	"address_lower" text NOT NULL,
	"name" text NOT NULL,
	"country" text NOT NULL,
	"region" text NOT NULL,
	"email" text NOT NULL,
	"website" text NOT NULL,
	"cpu_type" text NOT NULL,
	"total_cpu_cores" integer NOT NULL,
	"total_ram_gb" integer NOT NULL,
	"total_storage_gb" integer NOT NULL,
	"network_capacity_mbps" integer NOT NULL,
	"status" text NOT NULL,
	"tier" text NOT NULL,
	"reputation" integer NOT NULL,
	"registered_at" bigint NOT NULL,
	"total_cu" numeric(78, 0) NOT NULL,
	"available_cu" numeric(78, 0) NOT NULL,
	"total_redemptions" integer NOT NULL,
	"successful_redemptions" integer NOT NULL,
	"total_response_time" bigint NOT NULL,
	CONSTRAINT "providers_address_lower_unique" UNIQUE("address_lower")
);
--> statement-breakpoint
CREATE TABLE "redemptions" (
	"chain_id" integer NOT NULL,
	"redemption_id" bigint PRIMARY KEY NOT NULL,
	"user_address" text NOT NULL,
	"user_lower" text NOT NULL,
	"provider_id" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"fee" numeric(78, 0),
	"lock" numeric(78, 0),
	"status" text NOT NULL,
	"initiated_at" bigint NOT NULL,
	"deadline" bigint,
	"fulfilled_at" bigint,
	"completed_at" bigint,
	"issue_type" text,
	"disputed_at" bigint,
	"user_won" boolean
);
--> statement-breakpoint
CREATE TABLE "trades" (
	"chain_id" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"listing_id" bigint NOT NULL,
	"trade_type" text NOT NULL,
	"buyer" text NOT NULL,
	"seller" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"payment" numeric(78, 0) NOT NULL,
	"fee" numeric(78, 0) NOT NULL,
	"timestamp" bigint NOT NULL,
	CONSTRAINT "trades_chain_id_block_number_log_index_pk" PRIMARY KEY("chain_id","block_number","log_index")
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"verification_id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"provider_id" text NOT NULL,
	"method" text NOT NULL,
	"proof" text NOT NULL,
	"status" text NOT NULL,
	"nonce" text NOT NULL,
	"signatures" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"verified_at" bigint NOT NULL,
	"cu_id" bigint,
	"tx_hash" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "compute_units_provider" ON "compute_units" USING btree ("provider_lower");--> statement-breakpoint
CREATE INDEX "compute_units_value" ON "compute_units" USING btree ("cu_value");--> statement-breakpoint
CREATE INDEX "events_order" ON "events" USING btree ("block_number","log_index");--> statement-breakpoint
CREATE INDEX "events_name" ON "events" USING btree ("name");--> statement-breakpoint
CREATE INDEX "listings_status" ON "listings" USING btree ("status","market_type");--> statement-breakpoint
CREATE INDEX "listings_seller" ON "listings" USING btree ("seller_lower");--> statement-breakpoint
CREATE INDEX "listings_price" ON "listings" USING btree ("price_per_token");--> statement-breakpoint
CREATE INDEX "providers_status" ON "providers" USING btree ("status");--> statement-breakpoint
CREATE INDEX "providers_reputation" ON "providers" USING btree ("reputation");--> statement-breakpoint
CREATE INDEX "providers_country" ON "providers" USING btree ("country");--> statement-breakpoint
CREATE INDEX "providers_region" ON "providers" USING btree ("region");--> statement-breakpoint
CREATE INDEX "redemptions_user" ON "redemptions" USING btree ("user_lower");--> statement-breakpoint
CREATE INDEX "trades_time" ON "trades" USING btree ("timestamp");