import { bigint, boolean, index, integer, jsonb, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * The gateway's one schema, for PGlite and PostgreSQL alike (drizzle-kit generates the migrations
 * in gateway/drizzle/ from this file). Amounts are `numeric(78, 0)` in base units (18 decimals
 * for sSTB): exact, filterable and sortable in SQL; the HTTP layer turns them into JSON numbers.
 * Timestamps are Unix seconds (block times). Addresses are stored checksummed, and lower-cased
 * where the API matches them.
 *
 * `events` is the source of truth: every decoded log, in chain order. The other indexed tables are
 * projections of it, rebuilt from it after a reorg deeper than the confirmation depth.
 */

const amount = (name: string) => numeric(name, { precision: 78, scale: 0 });
const seconds = (name: string) => bigint(name, { mode: "number" });

/** Per chain: the last block indexed, and its hash (to notice a reorg under it). */
export const cursors = pgTable("cursors", {
  chainId: integer("chain_id").primaryKey(),
  chain: text("chain").notNull(),
  blockNumber: seconds("block_number").notNull(),
  blockHash: text("block_hash").notNull(),
  updatedAt: seconds("updated_at").notNull(),
  /**
   * The projection code the chain's tables were built by (`PROJECTION_VERSION` in
   * gateway/indexer/indexer.ts): an older one is rebuilt from `events` at start, so a new
   * projection (issue 19's leases and access keys) covers events indexed before it existed.
   */
  projectionVersion: integer("projection_version").notNull().default(0),
});

/** Hashes of indexed blocks that carried events, to find the common ancestor after a reorg. */
export const blocks = pgTable(
  "blocks",
  {
    chainId: integer("chain_id").notNull(),
    number: seconds("number").notNull(),
    hash: text("hash").notNull(),
    timestamp: seconds("timestamp").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.number] })],
);

/** Every decoded log of a deployment's contracts; `args` holds integers as decimal strings. */
export const events = pgTable(
  "events",
  {
    chainId: integer("chain_id").notNull(),
    blockNumber: seconds("block_number").notNull(),
    logIndex: integer("log_index").notNull(),
    blockHash: text("block_hash").notNull(),
    txHash: text("tx_hash").notNull(),
    timestamp: seconds("timestamp").notNull(),
    contract: text("contract").notNull(),
    address: text("address").notNull(),
    name: text("name").notNull(),
    args: jsonb("args").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.blockNumber, t.logIndex] }),
    index("events_order").on(t.blockNumber, t.logIndex),
    index("events_name").on(t.name),
  ],
);

/** Providers (ProviderRegistry, primary chain). */
export const providers = pgTable(
  "providers",
  {
    chainId: integer("chain_id").notNull(),
    providerId: text("provider_id").primaryKey(),
    addressLower: text("address_lower").notNull().unique(),
    name: text("name").notNull(),
    country: text("country").notNull(),
    region: text("region").notNull(),
    email: text("email").notNull(),
    website: text("website").notNull(),
    cpuType: text("cpu_type").notNull(),
    totalCpuCores: integer("total_cpu_cores").notNull(),
    totalRamGb: integer("total_ram_gb").notNull(),
    totalStorageGb: integer("total_storage_gb").notNull(),
    networkCapacityMbps: integer("network_capacity_mbps").notNull(),
    status: text("status").notNull(),
    tier: text("tier").notNull(),
    reputation: integer("reputation").notNull(),
    registeredAt: seconds("registered_at").notNull(),
    totalCu: amount("total_cu").notNull(),
    availableCu: amount("available_cu").notNull(),
    totalRedemptions: integer("total_redemptions").notNull(),
    successfulRedemptions: integer("successful_redemptions").notNull(),
    totalResponseTime: seconds("total_response_time").notNull(),
  },
  (t) => [
    index("providers_status").on(t.status),
    index("providers_reputation").on(t.reputation),
    index("providers_country").on(t.country),
    index("providers_region").on(t.region),
  ],
);

/** Verified compute units (CUToken `ComputeUnitVerified`, MintingAgent `SSTBMinted`). */
export const computeUnits = pgTable(
  "compute_units",
  {
    chainId: integer("chain_id").notNull(),
    cuId: bigint("cu_id", { mode: "number" }).notNull(),
    cuHash: text("cu_hash").notNull(),
    cuValue: amount("cu_value").notNull(),
    providerId: text("provider_id").notNull(),
    providerLower: text("provider_lower").notNull(),
    verifiedAt: seconds("verified_at").notNull(),
    cpuCores: integer("cpu_cores").notNull(),
    ramGb: integer("ram_gb").notNull(),
    storageGb: integer("storage_gb").notNull(),
    networkMbps: integer("network_mbps").notNull(),
    cpuScore: integer("cpu_score").notNull(),
    memoryScore: integer("memory_score").notNull(),
    storageScore: integer("storage_score").notNull(),
    networkScore: integer("network_score").notNull(),
    /** From `SSTBMinted` in the same transaction: collateral posted and the staking period. */
    collateralAmount: amount("collateral_amount"),
    stakingPeriod: seconds("staking_period"),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.cuId] }),
    index("compute_units_provider").on(t.providerLower),
    index("compute_units_value").on(t.cuValue),
  ],
);

/** Verifications: one per compute unit identity (`cuHash`), from `AttestationConsumed`. */
export const verifications = pgTable("verifications", {
  verificationId: text("verification_id").primaryKey(),
  chainId: integer("chain_id").notNull(),
  providerId: text("provider_id").notNull(),
  method: text("method").notNull(),
  proof: text("proof").notNull(),
  status: text("status").notNull(),
  nonce: text("nonce").notNull(),
  signatures: integer("signatures").notNull(),
  createdAt: seconds("created_at").notNull(),
  verifiedAt: seconds("verified_at").notNull(),
  cuId: bigint("cu_id", { mode: "number" }),
  txHash: text("tx_hash").notNull(),
});

/** Redemptions (RedemptionManager). */
export const redemptions = pgTable(
  "redemptions",
  {
    chainId: integer("chain_id").notNull(),
    redemptionId: bigint("redemption_id", { mode: "number" }).primaryKey(),
    user: text("user_address").notNull(),
    userLower: text("user_lower").notNull(),
    providerId: text("provider_id").notNull(),
    amount: amount("amount").notNull(),
    fee: amount("fee"),
    lock: amount("lock"),
    status: text("status").notNull(),
    initiatedAt: seconds("initiated_at").notNull(),
    deadline: seconds("deadline"),
    fulfilledAt: seconds("fulfilled_at"),
    completedAt: seconds("completed_at"),
    issueType: text("issue_type"),
    disputedAt: seconds("disputed_at"),
    userWon: boolean("user_won"),
    /** Lower-cased provider, for the list route's filter. */
    providerLower: text("provider_lower"),
    /** The lease this redemption belongs to: its own id once fulfilled, the renewed lease for a renewal (issue 19). */
    leaseId: bigint("lease_id", { mode: "number" }),
    /** For a renewal: the lease's end after it (`LeaseRenewed`). */
    renewedEnd: seconds("renewed_end"),
  },
  (t) => [
    index("redemptions_user").on(t.userLower),
    index("redemptions_provider").on(t.providerLower, t.status),
    index("redemptions_lease").on(t.leaseId),
  ],
);

/** sSTB balances per chain (sSTB `Transfer`). */
export const balances = pgTable(
  "balances",
  {
    chainId: integer("chain_id").notNull(),
    account: text("account").notNull(),
    balance: amount("balance").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.account] })],
);

/** API keys: JWTs the gateway signs; this row makes them revocable and listable. */
export const apiKeys = pgTable("api_keys", {
  keyId: text("key_id").primaryKey(),
  tier: text("tier").notNull(),
  account: text("account").notNull(),
  scopes: jsonb("scopes").$type<string[]>().notNull(),
  rateLimit: integer("rate_limit"),
  label: text("label").notNull(),
  createdAt: seconds("created_at").notNull(),
  expiresAt: seconds("expires_at"),
  revokedAt: seconds("revoked_at"),
});

/** Governed parameters as last set (`ParameterUpdated`), by contract and name. */
export const parameters = pgTable(
  "parameters",
  {
    chainId: integer("chain_id").notNull(),
    contract: text("contract").notNull(),
    name: text("name").notNull(),
    value: amount("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.contract, t.name] })],
);

/** Market positions of the three markets (ids unique across them: `3 * sequence + marketType`). */
export const listings = pgTable(
  "listings",
  {
    chainId: integer("chain_id").notNull(),
    listingId: bigint("listing_id", { mode: "number" }).primaryKey(),
    marketType: text("market_type").notNull(),
    kind: text("kind").notNull(),
    status: text("status").notNull(),
    seller: text("seller").notNull(),
    sellerLower: text("seller_lower").notNull(),
    counterparty: text("counterparty"),
    amount: amount("amount").notNull(),
    remaining: amount("remaining").notNull(),
    /** Payment-token base units (USDC, 6 decimals) per whole sSTB; options: the premium. */
    pricePerToken: amount("price_per_token").notNull(),
    strikePrice: amount("strike_price").notNull(),
    listedAt: seconds("listed_at").notNull(),
    expiration: seconds("expiration").notNull(),
  },
  (t) => [
    index("listings_status").on(t.status, t.marketType),
    index("listings_seller").on(t.sellerLower),
    index("listings_price").on(t.pricePerToken),
  ],
);

/** Trades (`TradeExecuted`): GraphQL `marketplaceActivity`. */
export const trades = pgTable(
  "trades",
  {
    chainId: integer("chain_id").notNull(),
    blockNumber: seconds("block_number").notNull(),
    logIndex: integer("log_index").notNull(),
    listingId: bigint("listing_id", { mode: "number" }).notNull(),
    tradeType: text("trade_type").notNull(),
    buyer: text("buyer").notNull(),
    seller: text("seller").notNull(),
    amount: amount("amount").notNull(),
    price: amount("price").notNull(),
    payment: amount("payment").notNull(),
    fee: amount("fee").notNull(),
    timestamp: seconds("timestamp").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.blockNumber, t.logIndex] }), index("trades_time").on(t.timestamp)],
);

/**
 * Claimable balances of the markets (`ClaimableCredited`, `ClaimableWithdrawn`; issue 25): a
 * payment the token refused to send (a blacklisted recipient) is held by the market for its
 * recipient, who withdraws it with `withdrawClaimable(token, to)`. One row per market, account and
 * token: what is claimable now, and every credit's total.
 */
export const claimableBalances = pgTable(
  "claimable_balances",
  {
    chainId: integer("chain_id").notNull(),
    /** The market contract's address. */
    market: text("market").notNull(),
    marketType: text("market_type").notNull(),
    account: text("account").notNull(),
    accountLower: text("account_lower").notNull(),
    token: text("token").notNull(),
    tokenSymbol: text("token_symbol").notNull(),
    tokenDecimals: integer("token_decimals").notNull(),
    /** Claimable now, token base units. */
    amount: amount("amount").notNull(),
    /** Every credit ever, token base units. */
    creditedTotal: amount("credited_total").notNull(),
    updatedAt: seconds("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.market, t.accountLower, t.token] }),
    index("claimable_balances_account").on(t.accountLower, t.token),
  ],
);

export * from "./tables/bridge.js";
export * from "./tables/verification.js";
export * from "./tables/writes.js";
export * from "./tables/webhooks.js";
export * from "./tables/leases.js";
export * from "./tables/portal.js";
