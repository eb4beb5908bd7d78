import { bigint, index, integer, jsonb, numeric, pgTable, text } from "drizzle-orm/pg-core";
import type { AttestationJson, SignedBenchmarkReport } from "@compute-capacity/sdk";

/**
 * Submitted verifications (`POST /verification/submit` and the co-sign route): what this gateway's
 * verifier decided about a provider's benchmark report, keyed by the report's `cuHash` (the
 * verification id the on-chain `verifications` projection uses once the unit is minted). The
 * hardware figures are columns so that the capacity a provider's open attestations hold can be
 * summed in SQL.
 */
export const verificationRequests = pgTable(
  "verification_requests",
  {
    verificationId: text("verification_id").primaryKey(),
    chainId: integer("chain_id").notNull(),
    providerId: text("provider_id").notNull(),
    providerLower: text("provider_lower").notNull(),
    verificationType: text("verification_type").notNull(),
    report: jsonb("report").$type<SignedBenchmarkReport>().notNull(),
    /** `verified` (threshold reached), `partially_signed` (fewer signatures) or `rejected`. */
    status: text("status").notNull(),
    /** Why a report was rejected: `{parameter, reason}`. */
    rejection: jsonb("rejection").$type<{ parameter: string; reason: string }>(),
    cpuCores: integer("cpu_cores").notNull(),
    ramGb: integer("ram_gb").notNull(),
    storageGb: integer("storage_gb").notNull(),
    networkMbps: integer("network_mbps").notNull(),
    cuValue: numeric("cu_value", { precision: 78, scale: 0 }).notNull(),
    attestation: jsonb("attestation").$type<AttestationJson>(),
    /** Signatures gathered so far, by ascending signer (the order the contract needs). */
    signatures: jsonb("signatures").$type<Array<{ signer: string; signature: string }>>().notNull(),
    expiry: bigint("expiry", { mode: "number" }),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    verifiedAt: bigint("verified_at", { mode: "number" }),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [index("verification_requests_provider").on(t.providerLower, t.status)],
);
