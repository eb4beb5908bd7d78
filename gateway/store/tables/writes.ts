import { bigint, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

const seconds = (name: string) => bigint(name, { mode: "number" });

/**
 * Accounts whose signing key the gateway holds (managed accounts). `sealed` is the private key
 * encrypted with AES-256-GCM under the gateway's account master key (gateway/accounts/sealed.ts);
 * the key is never stored in clear.
 */
export const managedAccounts = pgTable("managed_accounts", {
  address: text("address").primaryKey(),
  sealed: text("sealed").notNull(),
  label: text("label").notNull(),
  createdAt: seconds("created_at").notNull(),
});

/**
 * One row (`id` 1): a known text sealed under the master key the first gateway on this database
 * started with. Every gateway opens it at start and refuses to run when it cannot: gateways sharing a
 * database must share the key that seals managed accounts' keys, webhook secrets and stored responses
 * (gateway/accounts/sealed.ts, `checkSealingKey`).
 */
export const sealingKeyCheck = pgTable("sealing_key_check", {
  id: integer("id").primaryKey(),
  sealed: text("sealed").notNull(),
  createdAt: seconds("created_at").notNull(),
});

/**
 * `Idempotency-Key`s of POST requests, per account: the hash of the first request, its state
 * (`pending` while it runs, `done` once answered) and the response it got, kept until `expiresAt`.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    account: text("account").notNull(),
    key: text("idempotency_key").notNull(),
    requestHash: text("request_hash").notNull(),
    state: text("state").notNull(),
    statusCode: integer("status_code"),
    response: text("response"),
    createdAt: seconds("created_at").notNull(),
    expiresAt: seconds("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.account, t.key] }), index("idempotency_keys_expiry").on(t.expiresAt)],
);

/**
 * Dispute evidence, kept off-chain: the canonical JSON `document` whose keccak256 (`hash`) went
 * on-chain as `openDispute`'s evidence hash. One row per redemption (a redemption is disputed once).
 */
export const disputeEvidence = pgTable(
  "dispute_evidence",
  {
    chainId: integer("chain_id").notNull(),
    redemptionId: bigint("redemption_id", { mode: "number" }).notNull(),
    account: text("account").notNull(),
    issueType: text("issue_type").notNull(),
    document: text("document").notNull(),
    evidence: jsonb("evidence").$type<unknown>().notNull(),
    hash: text("hash").notNull(),
    txHash: text("tx_hash"),
    createdAt: seconds("created_at").notNull(),
  },
  // one row per document: a redemption's attempts each keep theirs; the on-chain hash picks the one
  (t) => [primaryKey({ columns: [t.chainId, t.redemptionId, t.hash] })],
);

/**
 * What a redemption was asked for off-chain: the reference body's `specifications`, for the
 * provider to read (the chain records only amount and provider).
 */
export const redemptionRequests = pgTable(
  "redemption_requests",
  {
    chainId: integer("chain_id").notNull(),
    redemptionId: bigint("redemption_id", { mode: "number" }).notNull(),
    account: text("account").notNull(),
    providerId: text("provider_id").notNull(),
    specifications: jsonb("specifications").$type<Record<string, number>>(),
    txHash: text("tx_hash").notNull(),
    createdAt: seconds("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.redemptionId] })],
);
