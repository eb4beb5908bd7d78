CREATE TABLE "claimable_balances" (
	"chain_id" integer NOT NULL,
	"market" text NOT NULL,
	"market_type" text NOT NULL,
	"account" text NOT NULL,
	"account_lower" text NOT NULL,
	"token" text NOT NULL,
	"token_symbol" text NOT NULL,
	"token_decimals" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"credited_total" numeric(78, 0) NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "claimable_balances_chain_id_market_account_lower_token_pk" PRIMARY KEY("chain_id","market","account_lower","token")
);
--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "previous_secret" text;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "previous_secret_expires_at" bigint;--> statement-breakpoint
CREATE INDEX "claimable_balances_account" ON "claimable_balances" USING btree ("account_lower","token");