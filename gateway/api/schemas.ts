/**
 * JSON schemas of the API: they validate requests, serialize responses (fields outside a schema
 * never leave the server) and become the OpenAPI document. Field names and types are the spec's.
 * Every resource is a named schema (components.ts): routes embed it by `$ref`, the document lists it
 * under `components.schemas`, and the SDK exports a type of the same name.
 *
 * Amounts: the spec types them as JSON numbers (doubles); every amount `x` also comes as
 * `x_base_units`, the exact integer amount in the token's base units as a decimal string (18
 * decimals for sSTB and STBGOV, 6 for USDC). Write routes accept either form ({@link sstbInput}).
 */
import { LISTING_STATUSES, MARKET_TYPES } from "@compute-capacity/sdk";
import { parseUnits } from "ethers";

import { component, exampleOf, withExample } from "./components.js";
import type { Ref } from "./components.js";
import { ERROR_STATUS, errorSchema } from "./errors.js";
import type { ErrorCode } from "./errors.js";

export type { Ref } from "./components.js";

// --- examples shared by the resources (one story: Acme's unit, Carol's redemption, a spot listing) ---
export const EXAMPLE = {
  provider: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  user: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  buyer: "0x90F79bf6EB2c4f036ce9dd44C2B6f1fa3b7F7a2E",
  contract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  txHash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
  cuHash: "0x8f3a9c1d2b4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8",
  messageId: "0x1f2e3d4c5b6a79880706f5e4d3c2b1a0f9e8d7c6b5a4938271605f4e3d2c1b0a",
  time: 1_795_740_000,
} as const;

// --- leaves ---
export const integer = { type: "integer" } as const;
export const string = { type: "string" } as const;
export const unix = { type: "integer", description: "Unix seconds", examples: [EXAMPLE.time] } as const;
export const nullableUnix = (description = "Unix seconds; null: not yet") =>
  ({ type: ["integer", "null"], description, examples: [EXAMPLE.time] }) as const;
export const address = {
  type: "string",
  pattern: "^0x[0-9a-fA-F]{40}$",
  description: "chain address",
  examples: [EXAMPLE.provider],
} as const;
export const txHash = {
  type: "string",
  pattern: "^0x[0-9a-f]{64}$",
  description: "transaction hash",
  examples: [EXAMPLE.txHash],
} as const;
export const bytes32 = { type: "string", pattern: "^0x[0-9a-fA-F]{64}$", examples: [EXAMPLE.cuHash] } as const;
const described = <T extends object>(schema: T, description: string, example?: unknown) => ({
  ...schema,
  description,
  ...(example === undefined ? {} : { examples: [example] }),
});

/** Exact base units as a decimal string. */
export const baseUnitsString = (description: string, example: string) =>
  ({ type: "string", pattern: "^[0-9]+$", description, examples: [example] }) as const;

/**
 * An amount `name` of a token: `name` as a JSON number of whole tokens (the spec's form) and
 * `name_base_units`, the exact integer in base units as a decimal string.
 */
export function tokenAmount(name: string, what: string, whole: string, decimals: number, token: string) {
  return {
    [name]: {
      type: "number",
      description:
        `${what}: whole ${token}, a JSON number (the exact decimal rounded once to a double; exact up to 15 ` +
        `significant digits). \`${name}_base_units\` is exact.`,
      examples: [Number(whole)],
    },
    [`${name}_base_units`]: baseUnitsString(
      `${what}: exact, in ${token} base units (${decimals} decimals), a decimal string`,
      parseUnits(whole, decimals).toString(),
    ),
  };
}
export const sstbAmount = (name: string, what: string, whole = "12.5") => tokenAmount(name, what, whole, 18, "sSTB");
export const usdcAmount = (name: string, what: string, whole = "2.4") => tokenAmount(name, what, whole, 6, "USDC");

/** A JSON object whose every listed property is required and no other is allowed. */
export function object<P extends Record<string, unknown>>(properties: P, description?: string) {
  return {
    type: "object",
    ...(description === undefined ? {} : { description }),
    required: Object.keys(properties),
    additionalProperties: false,
    properties,
  } as const;
}

/** `schema` or null. */
export function nullable(schema: object, description?: string) {
  return { anyOf: [schema, { type: "null" }], ...(description === undefined ? {} : { description }) };
}

// --- compute units ---
const cuMetadata = {
  cpu_cores: described(integer, "CPU cores", 32),
  ram_gb: described(integer, "memory, GB", 128),
  storage_gb: described(integer, "storage, GB", 2000),
  network_mbps: described(integer, "network bandwidth, Mbit/s", 10000),
};
const location = object(
  { country: described(string, "ISO 3166-1 alpha-2", "DE"), region: described(string, "region", "eu-central") },
  "where the provider's hardware is",
);

export const computeUnitItemSchema = object(
  {
    cu_id: described(integer, "the compute unit's id (the CU token id)", 1),
    cu_hash: { ...bytes32, description: "the unit's identity: keccak256 of its attested description" },
    ...sstbAmount("cu_value", "the unit's value (1 sSTB per unit of CU value)", "50"),
    provider_id: { ...address, description: "the provider (its chain address)" },
    verification_timestamp: { ...unix, description: "Unix seconds: when the unit was verified (block time)" },
    metadata: object(cuMetadata, "the unit's hardware"),
  },
  "A verified compute unit (list form).",
);
export const ComputeUnit = component("ComputeUnit", computeUnitItemSchema, exampleOf(computeUnitItemSchema));

const benchmarkResults = object(
  {
    cpu_score: described(integer, "CPU benchmark score", 9100),
    memory_score: described(integer, "memory benchmark score", 8700),
    storage_score: described(integer, "storage benchmark score", 7600),
    network_score: described(integer, "network benchmark score", 9400),
  },
  "the attested benchmark scores",
);
export const computeUnitDetailSchema = object(
  {
    ...computeUnitItemSchema.properties,
    owner: { ...address, description: "the unit's owner: its provider (the CU token is minted and burned at once)" },
    metadata: object({ ...cuMetadata, location, benchmark_results: benchmarkResults }, "the unit's hardware"),
  },
  "A verified compute unit (detail form): the list form plus its owner, location and benchmark scores.",
);
export const ComputeUnitDetail = component(
  "ComputeUnitDetail",
  computeUnitDetailSchema,
  exampleOf(computeUnitDetailSchema),
);

// --- providers ---
export const PROVIDER_STATUS_VALUES = ["active", "pending", "suspended"] as const;
const providerStatus = {
  type: "string",
  enum: PROVIDER_STATUS_VALUES,
  description: "`active`: may mint and be redeemed with; `pending`: registered, not yet approved; `suspended`",
} as const;

export const providerItemSchema = object(
  {
    provider_id: { ...address, description: "the provider's id: its chain address" },
    name: described(string, "display name", "Acme Compute"),
    status: providerStatus,
    reputation_score: { type: "number", minimum: 0, maximum: 100, description: "0..100.00", examples: [87.5] },
    location,
    ...sstbAmount("total_cu_value", "verified capacity not yet retired", "500"),
    ...sstbAmount("available_cu_value", "capacity free for new redemptions", "450"),
  },
  "A compute provider (list form).",
);
export const Provider = component("Provider", providerItemSchema, exampleOf(providerItemSchema));

export const providerDetailSchema = object(
  {
    ...providerItemSchema.properties,
    registration_date: { ...unix, description: "Unix seconds: registration (block time)" },
    contact_info: object(
      {
        email: described(string, "contact e-mail (also where redemption alerts go)", "ops@acme.example"),
        website: described(string, "website", "https://acme.example"),
      },
      "how to reach the provider",
    ),
    hardware_specifications: object(
      {
        cpu_type: described(string, "CPU model", "AMD EPYC 9654"),
        total_cpu_cores: described(integer, "CPU cores over all machines", 384),
        total_ram_gb: described(integer, "memory over all machines, GB", 1536),
        total_storage_gb: described(integer, "storage over all machines, GB", 24000),
        network_capacity_mbps: described(integer, "network capacity, Mbit/s", 100000),
      },
      "the provider's declared hardware",
    ),
    statistics: object(
      {
        ...sstbAmount("total_cu_value", "verified capacity not yet retired", "500"),
        ...sstbAmount("available_cu_value", "capacity free for new redemptions", "450"),
        total_redemptions: described(integer, "redemptions asked of the provider", 12),
        successful_redemptions: described(integer, "redemptions fulfilled and confirmed", 11),
        average_response_time: {
          type: "number",
          description: "minutes from request to fulfilment, mean over successful redemptions",
          examples: [42],
        },
      },
      "the provider's record",
    ),
  },
  "A compute provider (detail form): the list form plus registration, contact, hardware and statistics.",
);
export const ProviderDetail = component("ProviderDetail", providerDetailSchema, exampleOf(providerDetailSchema));

// --- redemptions and leases ---
export const REDEMPTION_STATUSES = ["pending", "fulfilled", "confirmed", "expired", "disputed", "resolved"] as const;

export const leaseSchema = object(
  {
    lease_id: described(string, "the lease's id: the id of its first redemption", "7"),
    status: {
      type: "string",
      enum: ["active", "ended", "terminated"],
      description: "`ended` from the stated end's second on (chain time); `terminated` by its user",
    },
    expires_at: nullableUnix("Unix seconds: the stated end, moved by each renewal; null when the provider stated none"),
    terminated_at: { ...nullableUnix("Unix seconds: when the user terminated it; null while not terminated") },
    renewal_offer: nullable(
      object(
        {
          ...sstbAmount("price", "what the renewal costs (a redemption of that amount)", "5"),
          extension: { type: "integer", minimum: 1, description: "seconds the end moves by", examples: [2_592_000] },
          valid_until: { ...unix, description: "Unix seconds: the last second the offer may be accepted" },
        },
        "the provider's standing renewal offer",
      ),
      "the provider's standing renewal offer while it can be accepted (in the web interface); null: none",
    ),
    renewals: {
      type: "array",
      description: "the accepted renewals, oldest first: each is a redemption of its own",
      items: object(
        {
          redemption_id: described(string, "the renewal's redemption", "9"),
          ...sstbAmount("sstb_amount", "sSTB the renewal redeemed", "5"),
          renewed_at: { ...unix, description: "Unix seconds: when the renewal was accepted" },
          expires_at: { ...unix, description: "Unix seconds: the lease's end after this renewal" },
        },
        "an accepted renewal",
      ),
      examples: [[]],
    },
  },
  "A lease: the resources a fulfilled redemption grants, until their end or a termination.",
);
const leaseExample = { ...(exampleOf(leaseSchema) as object), terminated_at: null };
export const Lease = component("Lease", leaseSchema, leaseExample);

export const redemptionSchema = object(
  {
    redemption_id: described(string, "the on-chain redemption id (decimal)", "7"),
    status: {
      type: "string",
      enum: REDEMPTION_STATUSES,
      description:
        "`pending` on creation; `fulfilled` once the provider supplied access; `confirmed` by the user; " +
        "`expired` past the deadline unfulfilled; `disputed` while a dispute is open; `resolved` after it",
    },
    ...sstbAmount("sstb_amount", "sSTB redeemed (the fee is on top)"),
    provider_id: { ...address, description: "the provider" },
    user: { ...address, description: "the redeeming holder", examples: [EXAMPLE.user] },
    initiated_at: { ...unix, description: "Unix seconds: initiation (block time)" },
    estimated_fulfillment_time: { ...unix, description: "Unix seconds: the on-chain fulfilment deadline" },
    fulfilled_at: nullableUnix("Unix seconds: fulfilment; null until fulfilled"),
    completed_at: nullableUnix("Unix seconds: confirmed, expired or resolved; null until then"),
    lease: nullable(
      Lease,
      "the lease the redemption belongs to (its own once fulfilled, the renewed one for a renewal); null until fulfilled",
    ),
    access_public_key: {
      type: ["string", "null"],
      pattern: "^0x[0-9a-f]{64}$",
      description: "the X25519 public key the user registered on-chain for access details; null: none yet",
      examples: ["0x4cfb1d3b2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b"],
    },
  },
  "A redemption: sSTB burned for compute from a provider, its status, its lease and the user's access key.",
);
export const Redemption = component("Redemption", redemptionSchema, exampleOf(redemptionSchema));

// --- sSTB balance ---
export const sstbBalanceSchema = object(
  {
    account: { ...address, description: "the API key's account", examples: [EXAMPLE.user] },
    ...sstbAmount("sstb_balance", "sSTB over every chain", "120"),
    balances: {
      type: "array",
      description: "per chain",
      items: object(
        {
          chain: described(string, "the deployment's name of the chain", "arbitrum"),
          native_chain_id: described(integer, "the chain's EIP-155 id", 42161),
          ...sstbAmount("sstb_balance", "sSTB on this chain", "120"),
        },
        "the balance on one chain",
      ),
    },
  },
  "The sSTB balance of the API key's account, per chain and in total.",
);
export const SstbBalance = component("SstbBalance", sstbBalanceSchema, exampleOf(sstbBalanceSchema));

// --- marketplace ---
const marketType = {
  type: "string",
  enum: MARKET_TYPES.slice(1),
  description: "the market the position is in",
} as const;
/** Every status a listing can be in: the SDK's `LISTING_STATUSES` without the unused zero value. */
const LISTING_STATUS_VALUES = LISTING_STATUSES.slice(1);
const pricePerToken = usdcAmount("price_per_token", "price per whole sSTB (options: the premium)", "2.4");

export const listingItemSchema = object(
  {
    listing_id: described(integer, "the position's id (unique across the three markets)", 4),
    market_type: marketType,
    token_type: { type: "string", const: "sSTB", description: "the token offered" },
    seller: { ...address, description: "the seller (maker)" },
    ...sstbAmount("amount", "sSTB on offer", "10"),
    ...pricePerToken,
    ...usdcAmount("total_price", "the whole amount's price (rounded up to the payment token's base unit)", "24"),
    listed_at: { ...unix, description: "Unix seconds: when the position was created" },
    expiration: { ...unix, description: "Unix seconds: when it expires", examples: [EXAMPLE.time + 604_800] },
  },
  "An open position of the spot, futures or options market (list form).",
);
export const Listing = component("Listing", listingItemSchema, exampleOf(listingItemSchema));

export const listingDetailSchema = object(
  {
    listing_id: listingItemSchema.properties.listing_id,
    token_type: listingItemSchema.properties.token_type,
    seller: listingItemSchema.properties.seller,
    ...sstbAmount("amount", "sSTB offered at creation", "10"),
    ...pricePerToken,
    created_at: { ...unix, description: "Unix seconds: when the position was created" },
    status: {
      type: "string",
      enum: LISTING_STATUS_VALUES,
      description:
        "`active` while it can be taken; spot: `filled`; futures: `matched`, then `settled`; options: `sold`, " +
        "`exercised`, `reclaimed`; any: `cancelled`, `expired`",
    },
  },
  "A position in any status (detail form).",
);
export const ListingDetail = component("ListingDetail", listingDetailSchema, exampleOf(listingDetailSchema));

export const claimableBalanceSchema = object(
  {
    account: { ...address, description: "whose balance it is", examples: [EXAMPLE.provider] },
    market_type: marketType,
    market: { ...address, description: "the market contract holding it", examples: [EXAMPLE.contract] },
    token: { ...address, description: "the token (the payment token or sSTB)", examples: [EXAMPLE.contract] },
    token_symbol: described(string, "the token's symbol", "USDC"),
    token_decimals: described(integer, "the token's decimals", 6),
    amount: {
      type: "number",
      description: "claimable now: whole tokens, a JSON number (`amount_base_units` is exact)",
      examples: [24],
    },
    amount_base_units: baseUnitsString("claimable now: exact, in the token's base units", "24000000"),
    ...{
      credited_total: {
        type: "number",
        description: "every payment ever credited here: whole tokens (`credited_total_base_units` is exact)",
        examples: [24],
      },
      credited_total_base_units: baseUnitsString("every payment ever credited: exact, base units", "24000000"),
    },
    updated_at: { ...unix, description: "Unix seconds: the last credit or withdrawal (block time)" },
  },
  "A payment the market could not send (the token refused the recipient, e.g. a blacklisted USDC account) " +
    "and holds for its recipient, who withdraws it with the market's withdrawClaimable(token, to).",
);
export const ClaimableBalance = component(
  "ClaimableBalance",
  claimableBalanceSchema,
  exampleOf(claimableBalanceSchema),
);

// --- bridge ---
export const bridgeChainSchema = object(
  {
    chain_id: described(string, "the deployment's name of the chain", "arbitrum"),
    name: described(string, "display name", "Arbitrum One"),
    native_chain_id: described(integer, "the chain's EIP-155 id", 42161),
    is_evm_compatible: { type: "boolean", description: "always true today" },
    bridge_address: { ...address, description: "the chain's bridge contract", examples: [EXAMPLE.contract] },
    status: {
      type: "string",
      description: "`active` when the chain's bridge is deployed, `unavailable` otherwise",
      examples: ["active"],
    },
  },
  "A chain of the deployment and its bridge.",
);
export const BridgeChain = component("BridgeChain", bridgeChainSchema, exampleOf(bridgeChainSchema));

export const BRIDGE_STATUSES = ["pending", "queued", "completed", "refused"] as const;
export const bridgeTransactionSchema = object(
  {
    message_id: { ...bytes32, description: "the CCIP message id", examples: [EXAMPLE.messageId] },
    source_chain: described(string, "the chain it was sent from", "arbitrum"),
    destination_chain: described(string, "the chain it goes to", "polygon"),
    token: { type: "string", description: "`sSTB` or `STBGOV`", examples: ["sSTB"] },
    ...tokenAmount("amount", "tokens sent", "25", 18, "tokens (18 decimals)"),
    sender: { ...address, description: "who sent it", examples: [EXAMPLE.user] },
    recipient: { ...address, description: "who receives it", examples: [EXAMPLE.user] },
    status: {
      type: "string",
      enum: BRIDGE_STATUSES,
      description:
        "`pending`: sent, not yet seen on the destination; `queued`: arrived, delivery waits (paused or " +
        "rate-limited); `completed`: tokens minted or released; `refused`: it waited when governance forgot " +
        "the peer bridge that sent it, and nothing is delivered",
    },
    fee_option: {
      type: ["string", "null"],
      enum: ["default", "service", "stb_gov", null],
      description: "how the sender paid the fee; null while only the destination is indexed",
    },
    created_at: { ...unix, description: "Unix seconds of the send (of the arrival while the source is not indexed)" },
    completed_at: nullableUnix("Unix seconds: completion; null until completed"),
    source_transaction: { ...txHash, type: ["string", "null"], description: "the send's transaction; null if unseen" },
    destination_transaction: {
      ...txHash,
      type: ["string", "null"],
      description: "the delivery's transaction; null until it arrived",
    },
    queue: nullable(
      object(
        {
          position: {
            type: "integer",
            minimum: 0,
            description: "transfers queued before it (from the same chain, in the same token); 0: it is next",
            examples: [1],
          },
          ...tokenAmount("remaining", "what it still has to deliver", "25", 18, "tokens (18 decimals)"),
          ...tokenAmount("waiting_before", "what the transfers before it still have to deliver", "40", 18, "tokens"),
          rate_limited: {
            type: "boolean",
            description:
              "whether the route's inbound limit of the token applies (false: deliveries wait only for a pause)",
          },
          ...tokenAmount(
            "available",
            "what the inbound limit lets in now (0 when not rate-limited)",
            "10",
            18,
            "tokens",
          ),
          ...tokenAmount("capacity", "the most the inbound limit holds (and one delivery takes)", "50", 18, "tokens"),
          ...tokenAmount("refill_per_second", "what the inbound limit refills each second", "0.5", 18, "tokens"),
          paused: { type: "boolean", description: "whether the destination's bridge is paused" },
          paused_until: nullableUnix(
            "Unix seconds (the destination's clock) until which the bridge is paused; null: not paused, or paused by " +
              "governance until governance lifts it (`paused` true)",
          ),
          executable_now: {
            type: "boolean",
            description:
              "whether `executeQueued(message_id)` on the destination's bridge, which anyone may send, delivers now",
          },
          ...tokenAmount("next_installment", "what the next `executeQueued` delivers of it", "25", 18, "tokens"),
          completes_at: nullableUnix(
            "Unix seconds (the destination's clock): the earliest the whole of it can be delivered, if each delivery " +
              "(its own and those before it) is completed as soon as the limit allows; null while governance's pause lasts",
          ),
          as_of: { ...unix, description: "Unix seconds: the destination's latest block, at which this was read" },
        },
        "a queued transfer's place in its destination's delivery queue, read live at `as_of`",
      ),
      "while `status` is `queued`: what its delivery waits for and when it can complete; null otherwise, and when " +
        "the destination's node did not answer",
    ),
  },
  "A bridge transfer (a CCIP message) as both chains' indexers have seen it.",
);
export const BridgeTransaction = component(
  "BridgeTransaction",
  bridgeTransactionSchema,
  exampleOf(bridgeTransactionSchema),
);

const feeAmount = (token: string, whole: string, decimals: number, discount?: string) =>
  object(
    {
      token: described(string, "the token the fee is paid in", token),
      ...tokenAmount("amount", "the fee", whole, decimals, "tokens of `token`"),
      ...(discount === undefined
        ? {}
        : {
            discount: {
              type: "string",
              pattern: "^\\d+(\\.\\d+)?%$",
              description: "the discount against the default option",
              examples: [discount],
            },
          }),
    },
    "one way to pay the fee",
  );
export const bridgeFeeQuoteSchema = object(
  {
    source_chain: described(string, "the chain it is sent from", "arbitrum"),
    destination_chain: described(string, "the chain it goes to", "polygon"),
    token: { type: "string", enum: ["sSTB", "STBGOV"], description: "the token sent" },
    ...tokenAmount("amount", "tokens to send", "25", 18, "tokens (18 decimals)"),
    fees: object(
      {
        default: feeAmount("USDC", "0.5", 6),
        service: feeAmount("sSTB", "0.4", 18, "20%"),
        stb_gov: feeAmount("STBGOV", "0.3", 18, "40%"),
      },
      "the fee under each option: `default` in the stablecoin, `service` in sSTB, `stb_gov` in STBGOV",
    ),
    transport_fee: {
      ...feeAmount("ETH", "0.0001", 18),
      description: "CCIP's fee in the source chain's native token, paid with every option",
    },
  },
  "The fees of a bridge transfer under each fee option, live from the source chain's bridge.",
);
export const BridgeFeeQuote = component("BridgeFeeQuote", bridgeFeeQuoteSchema, exampleOf(bridgeFeeQuoteSchema));

// --- verification ---
export const verificationSpecSchema = object({
  verification_id: { ...bytes32, description: "the verification's id: the unit's cuHash" },
  provider_id: { ...address, description: "the provider whose hardware it verifies" },
  verification_method: described(string, "how it was verified: k-of-n verifier attestations", "attestation"),
  proof: { type: "string", pattern: "^0x[0-9a-fA-F]*$", description: "hex", examples: ["0x"] },
  status: described(string, "`verified`", "verified"),
  created_at: unix,
  verified_at: unix,
});

export const signature = {
  type: "string",
  pattern: "^0x[0-9a-fA-F]{130}$",
  description: "65-byte ECDSA signature",
  examples: ["0x" + "ab".repeat(65)],
} as const;
const decimalInteger = (description: string, example: string) =>
  ({ type: "string", pattern: "^[0-9]{1,78}$", description, examples: [example] }) as const;
const nullableOf = (schema: object, description: string) => ({ ...nullable(schema), description });

const UINT24 = 16_777_215;
const UINT32 = 4_294_967_295;
const attestedSpecs = object(
  {
    cpuCores: { type: "integer", minimum: 1, maximum: UINT32, description: "CPU cores", examples: [32] },
    ramGb: { type: "integer", minimum: 1, maximum: UINT32, description: "memory, GB", examples: [128] },
    storageGb: { type: "integer", minimum: 1, maximum: UINT32, description: "storage, GB", examples: [2000] },
    networkMbps: { type: "integer", minimum: 1, maximum: UINT32, description: "Mbit/s", examples: [10000] },
    cpuScore: { type: "integer", minimum: 0, maximum: UINT24, description: "CPU score", examples: [9100] },
    memoryScore: { type: "integer", minimum: 0, maximum: UINT24, description: "memory score", examples: [8700] },
    storageScore: { type: "integer", minimum: 0, maximum: UINT24, description: "storage score", examples: [7600] },
    networkScore: { type: "integer", minimum: 0, maximum: UINT24, description: "network score", examples: [9400] },
  },
  "the attested hardware and scores",
);

/** The EIP-712 attestation message, integers beyond 2^53 as decimal strings. */
export const verificationAttestationSchema = object(
  {
    provider: { ...address, description: "the provider" },
    cuHash: { ...bytes32, description: "the unit's identity" },
    cuValue: decimalInteger("the unit's value in sSTB base units", "50000000000000000000"),
    specs: attestedSpecs,
    expiry: {
      type: "integer",
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: "Unix seconds after which it no longer mints",
      examples: [EXAMPLE.time + 86_400],
    },
    nonce: decimalInteger("the provider's attestation nonce", "1"),
  },
  "the EIP-712 Attestation message the verifiers sign",
);
export const VerificationAttestation = component(
  "VerificationAttestation",
  verificationAttestationSchema,
  exampleOf(verificationAttestationSchema),
);

export const VERIFICATION_STATUSES = ["verified", "partially_signed", "rejected"] as const;
export const verificationSchema = object(
  {
    ...verificationSpecSchema.properties,
    proof: nullableOf(
      { type: "string", pattern: "^0x[0-9a-fA-F]*$", examples: ["0x1234"] },
      "`computeProof` for verifyAndMintSSTB once verified; null before",
    ),
    status: {
      type: "string",
      enum: VERIFICATION_STATUSES,
      description: "`verified`: enough verifiers signed; `partially_signed`: more are needed; `rejected`",
    },
    verified_at: nullableOf(
      { type: "integer", description: "Unix seconds", examples: [EXAMPLE.time] },
      "Unix seconds: when it was verified; null before",
    ),
    verification_type: nullableOf(
      { type: "string", examples: ["attestation"] },
      "the submitted report's verification_type; null for a unit minted without a report here",
    ),
    rejection: nullableOf(
      object(
        {
          parameter: described(string, "the report's field at fault", "benchmark_results.cpu_score"),
          reason: described(string, "why", "is implausible for the declared hardware"),
        },
        "why it was rejected",
      ),
      "why it was rejected; null unless rejected",
    ),
    cu_hash: { ...bytes32, description: "the unit's identity" },
    ...sstbAmount("cu_value", "sSTB the mint gives", "50"),
    expiry: nullableOf(
      { type: "integer", description: "Unix seconds", examples: [EXAMPLE.time + 86_400] },
      "Unix seconds (chain time) after which the attestation no longer mints; null: not attested",
    ),
    threshold: nullableOf(
      { type: "integer", description: "signatures the verifier needs", examples: [2] },
      "signatures the verifier needs; null: unknown",
    ),
    attestation: nullableOf(VerificationAttestation, "the attestation; null before one is made"),
    signatures: {
      type: "array",
      description: "the verifiers' signatures so far",
      items: object({ signer: { ...address, description: "the verifier" }, signature }, "a verifier's signature"),
    },
    minted: { type: "boolean", description: "whether the unit was minted on-chain" },
    cu_id: nullableOf({ type: "integer", examples: [1] }, "the minted unit's id; null until minted"),
    transaction_hash: nullableOf(bytes32, "the mint's transaction; null until minted"),
    mint: nullableOf(
      object(
        {
          minting_agent: { ...address, description: "the minting agent", examples: [EXAMPLE.contract] },
          collateral_token: { ...address, description: "the collateral token", examples: [EXAMPLE.contract] },
          collateral_amount: baseUnitsString("collateral to post: base units of the collateral token", "60000000"),
          staking_period_min: described(integer, "shortest staking period, seconds", 2_592_000),
          staking_period_max: described(integer, "longest staking period, seconds", 31_536_000),
        },
        "verifyAndMintSSTB(proof, collateral_amount, stakingPeriod) on minting_agent, after approving collateral_amount",
      ),
      "how to mint once verified; null otherwise",
    ),
  },
  "A verification of a provider's hardware (its id is the unit's cuHash): submitted, partially signed, " +
    "rejected or minted.",
);
export const Verification = component("Verification", verificationSchema, exampleOf(verificationSchema));

// --- the error envelope ---
const ERROR_EXAMPLES: Record<ErrorCode, { message: string; details: Record<string, unknown> }> = {
  invalid_parameter: {
    message: "invalid limit: must be <= 100",
    details: { parameter: "limit", reason: "must be <= 100" },
  },
  authentication_error: { message: "an API key is required", details: {} },
  authorization_error: { message: 'this API key lacks the "write" scope', details: { scope: "write" } },
  resource_not_found: {
    message: `provider ${EXAMPLE.provider} not found`,
    details: { resource: "provider", id: EXAMPLE.provider },
  },
  rate_limit_exceeded: {
    message: "rate limit of 100 requests per minute exceeded",
    details: { limit: 100, retry_after_seconds: 42 },
  },
  internal_error: { message: "internal error", details: {} },
};
const errorExample = (code: ErrorCode) => ({ success: false, error: { code, ...ERROR_EXAMPLES[code] } });
export const ErrorResponse = component("Error", errorSchema, errorExample("invalid_parameter"));

const ERROR_MEANING: Record<ErrorCode, string> = {
  invalid_parameter:
    "invalid_parameter: a parameter, the body, the content type or the URL is invalid; `details.parameter` " +
    "names it and `details.reason` says why",
  authentication_error:
    "authentication_error: no API key or portal session, or one that is invalid, expired or revoked",
  authorization_error:
    "authorization_error: the key lacks the scope the route needs, the resource is not the account's, or HTTPS is required",
  resource_not_found: "resource_not_found: no such resource, or no such route",
  rate_limit_exceeded: "rate_limit_exceeded: the key's (or the address's) requests of this minute are spent",
  internal_error: "internal_error: the gateway or a chain it reads failed; the request may be retried",
};

/** The error responses every route may give: the spec's code of each status, described, with an example. */
export const errors = Object.fromEntries(
  (Object.entries(ERROR_STATUS) as Array<[ErrorCode, number]>).map(([code, status]) => [
    status,
    { ...ErrorResponse, description: ERROR_MEANING[code], examples: [errorExample(code)] },
  ]),
) as Record<400 | 401 | 403 | 404 | 429 | 500, Ref & { description: string; examples: unknown[] }>;

// --- envelopes ---
/** `{success: true, data}` around `data`: a response, described, with an example composed from `data`'s. */
export function envelope(data: unknown, description: string) {
  const schema = object({ success: { type: "boolean", const: true }, data }, description);
  return withExample(schema, { success: true, data: exampleOf(data, description) });
}

/** A list's envelope: the named array plus `total`, `page`, `limit`. */
export function listEnvelope(name: string, item: unknown, description: string) {
  const data = object({
    [name]: { type: "array", items: item },
    total: described(integer, "matching items over every page", 1),
    page: described(integer, "this page's number, from 1", 1),
    limit: described(integer, "items per page", 20),
  });
  return envelope(data, description);
}

// --- parameters ---
/** The page and limit of every list route. */
export const paging = {
  page: { type: "integer", minimum: 1, maximum: 1_000_000, default: 1, description: "page number, from 1" },
  limit: { type: "integer", minimum: 1, maximum: 100, default: 20, description: "items per page, 1 to 100" },
} as const;

/** A query string of these parameters and no others (an unknown filter is an error, not ignored). */
export function query(properties: Record<string, unknown>) {
  return { type: "object", additionalProperties: false, properties } as const;
}

/** Path parameters. */
export function params(properties: Record<string, unknown>) {
  return { type: "object", required: Object.keys(properties), additionalProperties: false, properties } as const;
}

export const addressParam = address;
export const idParam = { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
/** Whole sSTB in a filter: not negative, and not beyond what uint256 holds. */
export const amountFilter = { type: "number", minimum: 0, maximum: 1e59 } as const;

/**
 * An sSTB amount a write takes, in either form: `name` as whole sSTB (a JSON number, or a decimal
 * string such as `"12.5"`, read exactly; at most 18 decimals) or `name_base_units` (an integer in
 * base units as a decimal string). Exactly one of the two (amounts.ts `amountOf`).
 */
export function sstbInput(name: string, what: string) {
  return {
    [name]: {
      type: ["number", "string"],
      pattern: "^(0|[1-9][0-9]{0,59})(\\.[0-9]{1,18})?$",
      description:
        `${what}: whole sSTB, above 0, at most 18 decimals; a JSON number or, exactly, a decimal string ` +
        `("12.5"). Give this or \`${name}_base_units\`.`,
      examples: [12.5],
    },
    [`${name}_base_units`]: {
      type: "string",
      pattern: "^[0-9]{1,78}$",
      description: `${what}: exact, in sSTB base units (18 decimals), a decimal string. Give this or \`${name}\`.`,
      examples: ["12500000000000000000"],
    },
  };
}
