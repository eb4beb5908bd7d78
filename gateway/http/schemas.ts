/**
 * JSON schemas of the API: they validate requests, serialize responses (fields outside a schema
 * never leave the server) and become the OpenAPI document. Field names and types are the spec's.
 */

const integer = { type: "integer" } as const;
const string = { type: "string" } as const;
const unix = { type: "integer", description: "Unix seconds" } as const;
const address = { type: "string", pattern: "^0x[0-9a-fA-F]{40}$", description: "chain address" } as const;
const sstbAmount = {
  type: "number",
  description: "whole sSTB (18-decimal base units rounded to the nearest double; exact up to 15 significant digits)",
} as const;

/** A JSON object whose every listed property is required and no other is allowed. */
export function object(properties: Record<string, unknown>, description?: string) {
  return {
    type: "object",
    ...(description === undefined ? {} : { description }),
    required: Object.keys(properties),
    additionalProperties: false,
    properties,
  } as const;
}

const cuMetadata = { cpu_cores: integer, ram_gb: integer, storage_gb: integer, network_mbps: integer };

export const computeUnitItem = object({
  cu_id: integer,
  cu_hash: { type: "string", pattern: "^0x[0-9a-f]{64}$" },
  cu_value: sstbAmount,
  provider_id: address,
  verification_timestamp: unix,
  metadata: object(cuMetadata),
});

export const computeUnitDetail = object({
  ...computeUnitItem.properties,
  owner: address,
  metadata: object({
    ...cuMetadata,
    location: object({ country: string, region: string }),
    benchmark_results: object({
      cpu_score: integer,
      memory_score: integer,
      storage_score: integer,
      network_score: integer,
    }),
  }),
});

const providerStatus = { type: "string", enum: ["active", "pending", "suspended"] } as const;

export const providerItem = object({
  provider_id: address,
  name: string,
  status: providerStatus,
  reputation_score: { type: "number", minimum: 0, maximum: 100, description: "0..100.00" },
  location: object({ country: string, region: string }),
  total_cu_value: sstbAmount,
  available_cu_value: sstbAmount,
});

export const providerDetail = object({
  ...providerItem.properties,
  registration_date: unix,
  contact_info: object({ email: string, website: string }),
  hardware_specifications: object({
    cpu_type: string,
    total_cpu_cores: integer,
    total_ram_gb: integer,
    total_storage_gb: integer,
    network_capacity_mbps: integer,
  }),
  statistics: object({
    total_cu_value: sstbAmount,
    available_cu_value: sstbAmount,
    total_redemptions: integer,
    successful_redemptions: integer,
    average_response_time: { type: "number", description: "minutes" },
  }),
});

export const REDEMPTION_STATUSES = ["pending", "fulfilled", "confirmed", "expired", "disputed", "resolved"] as const;
const unixOrNull = (description: string) => ({ type: ["integer", "null"], description }) as const;

/** A lease (issue 19): the resources a fulfilled redemption grants, until their end or a termination. */
export const lease = object(
  {
    lease_id: { type: "string", description: "the lease's id: the id of its first redemption" },
    status: {
      type: "string",
      enum: ["active", "ended", "terminated"],
      description: "`ended` from the stated end's second on (chain time); `terminated` by its user",
    },
    expires_at: unixOrNull("Unix seconds: the stated end, moved by each renewal; null when the provider stated none"),
    terminated_at: unixOrNull("Unix seconds: when the user terminated it; null while not terminated"),
    renewal_offer: {
      ...object(
        {
          price: { ...sstbAmount, description: "whole sSTB the renewal costs (a redemption of that amount)" },
          extension: { type: "integer", minimum: 1, description: "seconds the end moves by" },
          valid_until: { ...unix, description: "Unix seconds: the last second the offer may be accepted" },
        },
        "the provider's standing renewal offer while it can be accepted (in the web interface); null: none",
      ),
      type: ["object", "null"],
    },
    renewals: {
      type: "array",
      description: "the accepted renewals, oldest first: each is a redemption of its own",
      items: object({
        redemption_id: string,
        sstb_amount: sstbAmount,
        renewed_at: unix,
        expires_at: { ...unix, description: "Unix seconds: the lease's end after this renewal" },
      }),
    },
  },
  "the lease the redemption belongs to: its own once fulfilled, the renewed one for a renewal",
);

export const redemption = object({
  redemption_id: string,
  status: { type: "string", enum: REDEMPTION_STATUSES },
  sstb_amount: sstbAmount,
  provider_id: address,
  user: address,
  initiated_at: unix,
  estimated_fulfillment_time: { ...unix, description: "Unix seconds: the on-chain fulfilment deadline" },
  fulfilled_at: { type: ["integer", "null"], description: "Unix seconds" },
  completed_at: { type: ["integer", "null"], description: "Unix seconds (confirmed, expired or resolved)" },
  lease: { ...lease, type: ["object", "null"], description: `${lease.description}; null until fulfilled` },
  access_public_key: {
    type: ["string", "null"],
    pattern: "^0x[0-9a-f]{64}$",
    description: "the X25519 public key the user registered on-chain for access details; null: none yet",
  },
});

export const verification = object({
  verification_id: string,
  provider_id: address,
  verification_method: string,
  proof: { type: "string", pattern: "^0x[0-9a-fA-F]*$" },
  status: string,
  created_at: unix,
  verified_at: unix,
});

export const sstbBalance = object({
  account: address,
  sstb_balance: { ...sstbAmount, description: "whole sSTB over every chain" },
  sstb_balance_base_units: { type: "string", pattern: "^[0-9]+$", description: "exact, 18-decimal base units" },
  balances: {
    type: "array",
    items: object({
      chain: string,
      native_chain_id: integer,
      sstb_balance: sstbAmount,
      sstb_balance_base_units: string,
    }),
  },
});

const usdcPrice = { type: "number", description: "whole USDC (the payment token, 6 decimals) per whole sSTB" } as const;

export const listingItem = object({
  listing_id: integer,
  market_type: { type: "string", enum: ["spot", "futures", "options"] },
  token_type: { type: "string", const: "sSTB" },
  seller: address,
  amount: sstbAmount,
  price_per_token: usdcPrice,
  total_price: { type: "number", description: "whole USDC for the whole amount (rounded up to the cent's 1/10000)" },
  listed_at: unix,
  expiration: unix,
});

export const listingDetail = object({
  listing_id: integer,
  token_type: { type: "string", const: "sSTB" },
  seller: address,
  amount: sstbAmount,
  price_per_token: usdcPrice,
  created_at: unix,
  status: {
    type: "string",
    enum: ["active", "filled", "cancelled", "expired", "matched", "settled", "sold", "exercised", "reclaimed"],
  },
});

export const bridgeChain = object({
  chain_id: string,
  name: string,
  native_chain_id: integer,
  is_evm_compatible: { type: "boolean" },
  bridge_address: address,
  status: { type: "string", description: "`active` when the chain's bridge is deployed, `unavailable` otherwise" },
});

const nullable = (schema: Record<string, unknown>) => ({ ...schema, type: [schema.type as string, "null"] });
const txHash = { type: "string", pattern: "^0x[0-9a-f]{64}$", description: "transaction hash" } as const;

export const bridgeTransaction = object({
  message_id: { type: "string", pattern: "^0x[0-9a-f]{64}$", description: "the CCIP message id" },
  source_chain: string,
  destination_chain: string,
  token: { type: "string", description: "`sSTB` or `STBGOV`" },
  amount: { type: "number", description: "whole tokens (18 decimals)" },
  sender: address,
  recipient: address,
  status: {
    type: "string",
    enum: ["pending", "queued", "completed", "refused"],
    description:
      "`pending`: sent, not yet seen on the destination; `queued`: arrived, delivery waits (paused or rate-limited); `completed`: tokens minted or released; `refused`: it waited when governance forgot the peer bridge that sent it, and nothing is delivered",
  },
  fee_option: nullable({ type: "string", enum: ["default", "service", "stb_gov", null] }),
  created_at: { ...unix, description: "Unix seconds of the send (of the arrival while the source is not indexed)" },
  completed_at: nullable(unix),
  source_transaction: nullable(txHash),
  destination_transaction: nullable(txHash),
});

const feeAmount = (discounted: boolean) =>
  object({
    token: string,
    amount: { type: "number", description: "whole tokens" },
    ...(discounted ? { discount: { type: "string", pattern: "^\\d+(\\.\\d+)?%$" } } : {}),
  });

export const bridgeFeeQuote = object({
  source_chain: string,
  destination_chain: string,
  token: { type: "string", enum: ["sSTB", "STBGOV"] },
  amount: { type: "number", description: "whole tokens to send" },
  fees: object({ default: feeAmount(false), service: feeAmount(true), stb_gov: feeAmount(true) }),
  transport_fee: {
    ...feeAmount(false),
    description: "CCIP's fee in the source chain's native token, paid with every option",
  },
});

/** `{success: true, data}` around `data`. */
export function envelope(data: unknown) {
  return object({ success: { type: "boolean", const: true }, data });
}

/** A list's envelope: the named array plus `total`, `page`, `limit`. */
export function listEnvelope(name: string, item: unknown) {
  return envelope(object({ [name]: { type: "array", items: item }, total: integer, page: integer, limit: integer }));
}

/** The page and limit of every list route. */
export const paging = {
  page: { type: "integer", minimum: 1, maximum: 1_000_000, default: 1 },
  limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
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

const errorRef = { $ref: "Error#" };
/** Error responses every route may give. */
export const errors = {
  400: errorRef,
  401: errorRef,
  403: errorRef,
  404: errorRef,
  429: errorRef,
  500: errorRef,
} as const;
