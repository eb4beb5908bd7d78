import { bigint, index, integer, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * Access keys and leases (issue 19, DESIGN.md section 5b). `access_keys` and `leases` are
 * projections of RedemptionManager's events (rebuilt after a reorg like the others);
 * `lease_notices` is not: it records which time-based webhooks (`redemption.lease_expiring`,
 * `redemption.lease_ended`) went out, so a rebuild, a restart or a second gateway never sends one
 * twice (docs/decisions/0108-leases-in-the-gateway.md).
 */

const amount = (name: string) => numeric(name, { precision: 78, scale: 0 });
const seconds = (name: string) => bigint(name, { mode: "number" });

/** The X25519 public key each user registered for access details (`AccessKeyRegistered`; the last one wins). */
export const accessKeys = pgTable(
  "access_keys",
  {
    chainId: integer("chain_id").notNull(),
    userLower: text("user_lower").notNull(),
    /** 32 bytes, lower-case hex with `0x`. */
    publicKey: text("public_key").notNull(),
    registeredAt: seconds("registered_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.userLower] })],
);

/**
 * A lease: a fulfilled redemption that is not a renewal (`RedemptionFulfilled`), with its stated
 * end (`LeaseStarted`, moved by `LeaseRenewed`), the standing renewal offer (`RenewalOffered`,
 * `RenewalOfferWithdrawn`) and its termination (`LeaseTerminated`). Its id is the redemption's.
 */
export const leases = pgTable(
  "leases",
  {
    chainId: integer("chain_id").notNull(),
    leaseId: bigint("lease_id", { mode: "number" }).notNull(),
    userLower: text("user_lower").notNull(),
    providerLower: text("provider_lower").notNull(),
    startedAt: seconds("started_at").notNull(),
    /** The stated end, Unix seconds; null: none stated (the lease runs until terminated). */
    expiresAt: seconds("expires_at"),
    /** The block of the event that set `expiresAt`: time-based notices about that end are cancelled with it by a reorg. */
    endBlock: bigint("end_block", { mode: "number" }),
    terminatedAt: seconds("terminated_at"),
    /** The standing renewal offer (all null: none). */
    offerPrice: amount("offer_price"),
    offerExtension: seconds("offer_extension"),
    offerValidUntil: seconds("offer_valid_until"),
    renewals: integer("renewals").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.leaseId] }),
    index("leases_provider").on(t.providerLower),
    index("leases_user").on(t.userLower),
    index("leases_expires").on(t.chainId, t.expiresAt),
  ],
);

/**
 * The time-based notices sent: one row per (lease, event, end). The scheduler (gateway/webhooks/
 * lease-notices.ts) inserts the row and queues the webhooks in one transaction; the key makes a
 * second gateway's or a restarted gateway's attempt a no-op. A renewal moves the end, so the new
 * end gets its own notices.
 */
export const leaseNotices = pgTable(
  "lease_notices",
  {
    chainId: integer("chain_id").notNull(),
    leaseId: bigint("lease_id", { mode: "number" }).notNull(),
    /** `redemption.lease_expiring` or `redemption.lease_ended`. */
    event: text("event").notNull(),
    leaseEnd: seconds("lease_end").notNull(),
    /** The block that set this end (a reorg below it deletes the row, so the notice goes again if the end is mined again). */
    endBlock: bigint("end_block", { mode: "number" }).notNull(),
    /** Unix milliseconds. */
    sentAt: bigint("sent_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.leaseId, t.event, t.leaseEnd] })],
);
