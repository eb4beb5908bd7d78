import { PAUSED_INDEFINITELY, cost, estimateQueuedDelivery } from "@compute-capacity/sdk";
import type { QueuedDeliveryState } from "@compute-capacity/sdk";
import type {
  BridgeMessage,
  ClaimableBalanceRow,
  ComputeUnitRow,
  ListingRow,
  ProviderRow,
  RedemptionView,
  TradeRow,
} from "../store/queries.js";

/**
 * Rows -> the spec's resources. Amounts: the spec types them as numbers, so an 18-decimal base-unit
 * amount becomes whole sSTB as a JSON number: the exact decimal value, rounded once to the nearest
 * IEEE-754 double. That is exact for every amount of up to 15 significant digits (any amount below
 * one billion sSTB with up to 6 decimals) and within one part in 10^15 beyond; filters and sorting
 * work on the exact base units in the database, never on the rounded numbers.
 */
export function sstb(baseUnits: string | bigint | null): number {
  return baseUnits === null ? 0 : Number(decimalUnits(BigInt(baseUnits), 18));
}

/**
 * `value / 10^decimals` as an exact decimal string ("1.5", "-0.000001", "42"): what ethers'
 * `formatUnits` gives (but "42" for "42.0"), by string arithmetic on the digits instead of its
 * FixedNumber, which cost about 20 us of an uncached read of a few amounts (the benchmark's CPU
 * profile). `Number()` of it is the double nearest the exact value, as before.
 */
export function decimalUnits(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}

/** The exact base units of an amount as the API shows them (`*_base_units`): a decimal string. */
export function units(baseUnits: string | bigint | null): string {
  return baseUnits === null ? "0" : BigInt(baseUnits).toString();
}

/**
 * An amount in both of the API's forms (schemas.ts `tokenAmount`): `name` as whole tokens (a JSON
 * number) and `name_base_units` exact.
 */
export function amount<N extends string>(name: N, baseUnits: string | bigint | null, decimals = 18): Amount<N> {
  const exact = units(baseUnits);
  return { [name]: Number(decimalUnits(BigInt(exact), decimals)), [`${name}_base_units`]: exact } as Amount<N>;
}

/** `name` (whole tokens) and `name_base_units` (exact). */
export type Amount<N extends string> = { [K in N]: number } & { [K in `${N}_base_units`]: string };

/** The market type of a market contract's deployment name (`SpotMarket` -> `spot`). */
export function marketTypeOf(contract: string): "spot" | "futures" | "options" {
  return contract === "FuturesMarket" ? "futures" : contract === "OptionsMarket" ? "options" : "spot";
}

/** Reputation is stored 0..10000 and shown 0..100.00 (DESIGN.md section 9). */
export const reputation = (stored: number) => stored / 100;

export function computeUnitItem(row: ComputeUnitRow) {
  return {
    cu_id: row.cuId,
    cu_hash: row.cuHash,
    ...amount("cu_value", row.cuValue),
    provider_id: row.providerId,
    verification_timestamp: row.verifiedAt,
    metadata: {
      cpu_cores: row.cpuCores,
      ram_gb: row.ramGb,
      storage_gb: row.storageGb,
      network_mbps: row.networkMbps,
    },
  };
}

export function computeUnitDetail(row: ComputeUnitRow) {
  const item = computeUnitItem(row);
  return {
    ...item,
    // the CU token is minted to the provider and burned in the same call: the provider owns the unit
    owner: row.providerId,
    metadata: {
      ...item.metadata,
      location: { country: row.country ?? "", region: row.region ?? "" },
      benchmark_results: {
        cpu_score: row.cpuScore,
        memory_score: row.memoryScore,
        storage_score: row.storageScore,
        network_score: row.networkScore,
      },
    },
  };
}

export function providerItem(row: ProviderRow) {
  return {
    provider_id: row.providerId,
    name: row.name,
    status: row.status,
    reputation_score: reputation(row.reputation),
    location: { country: row.country, region: row.region },
    ...amount("total_cu_value", row.totalCu),
    ...amount("available_cu_value", row.availableCu),
  };
}

/** Mean time from request to fulfilment over successful redemptions, whole minutes (as the contract's providerStats). */
export function averageResponseMinutes(row: ProviderRow): number {
  return row.successfulRedemptions === 0 ? 0 : Math.floor(row.totalResponseTime / row.successfulRedemptions / 60);
}

export function providerDetail(row: ProviderRow) {
  return {
    ...providerItem(row),
    registration_date: row.registeredAt,
    contact_info: { email: row.email, website: row.website },
    hardware_specifications: {
      cpu_type: row.cpuType,
      total_cpu_cores: row.totalCpuCores,
      total_ram_gb: row.totalRamGb,
      total_storage_gb: row.totalStorageGb,
      network_capacity_mbps: row.networkCapacityMbps,
    },
    statistics: {
      ...amount("total_cu_value", row.totalCu),
      ...amount("available_cu_value", row.availableCu),
      total_redemptions: row.totalRedemptions,
      successful_redemptions: row.successfulRedemptions,
      average_response_time: averageResponseMinutes(row),
    },
  };
}

/**
 * A redemption resource: the spec's fields, the outcome times, the lease it belongs to (null until
 * fulfilled; a renewal shows the lease it renewed) and the user's registered access key (issue 19).
 */
export function redemption(view: RedemptionView) {
  const { row } = view;
  return {
    redemption_id: String(row.redemptionId),
    status: row.status,
    ...amount("sstb_amount", row.amount),
    provider_id: row.providerId,
    user: row.user,
    initiated_at: row.initiatedAt,
    estimated_fulfillment_time: row.deadline ?? row.initiatedAt,
    fulfilled_at: row.fulfilledAt,
    completed_at: row.completedAt,
    lease: view.lease === null ? null : lease(view),
    access_public_key: view.accessPublicKey,
  };
}

/** Where a lease is at chain time `now`: terminated, ended (from its stated end's second on, as on-chain) or active. */
export function leaseStatus(lease: { terminatedAt: number | null; expiresAt: number | null }, now: number) {
  if (lease.terminatedAt !== null) return "terminated";
  return lease.expiresAt !== null && now >= lease.expiresAt ? "ended" : "active";
}

/**
 * The lease of a redemption view. `renewal_offer` is the standing offer while it can be accepted
 * (the lease running and the offer's validity not passed); the chain keeps a lapsed one until the
 * provider withdraws or replaces it, but it can no longer be taken.
 */
function lease(view: RedemptionView) {
  const l = view.lease!;
  const status = leaseStatus(l, view.now);
  const offerStands = l.offerPrice !== null && status === "active" && view.now <= (l.offerValidUntil ?? 0);
  return {
    lease_id: String(l.leaseId),
    status,
    expires_at: l.expiresAt,
    terminated_at: l.terminatedAt,
    renewal_offer: offerStands
      ? { ...amount("price", l.offerPrice), extension: l.offerExtension!, valid_until: l.offerValidUntil! }
      : null,
    renewals: view.renewals.map((r) => ({
      redemption_id: String(r.redemptionId),
      ...amount("sstb_amount", r.amount),
      renewed_at: r.fulfilledAt!,
      expires_at: r.renewedEnd!,
    })),
  };
}

/** Prices: payment-token base units (USDC, 6 decimals) per whole sSTB -> whole USDC, a JSON number. */
export function usdc(baseUnits: string | bigint): number {
  return Number(decimalUnits(BigInt(baseUnits), 6));
}

export function listingItem(row: ListingRow) {
  return {
    listing_id: row.listingId,
    market_type: row.marketType,
    token_type: "sSTB",
    seller: row.seller,
    ...amount("amount", row.amount),
    ...amount("price_per_token", row.pricePerToken, 6),
    ...amount("total_price", cost(BigInt(row.amount), BigInt(row.pricePerToken)), 6),
    listed_at: row.listedAt,
    expiration: row.expiration,
  };
}

export function listingDetail(row: ListingRow) {
  return {
    listing_id: row.listingId,
    token_type: "sSTB",
    seller: row.seller,
    ...amount("amount", row.amount),
    ...amount("price_per_token", row.pricePerToken, 6),
    created_at: row.listedAt,
    status: row.status,
  };
}

/** A trade as GraphQL `marketplaceActivity` shows it. */
export function activity(row: TradeRow) {
  return {
    id: `${row.chainId}-${row.blockNumber}-${row.logIndex}`,
    timestamp: row.timestamp,
    activityType: row.tradeType,
    tokenType: "sSTB",
    amount: sstb(row.amount),
    amountBaseUnits: units(row.amount),
    price: usdc(row.price),
    priceBaseUnits: units(row.price),
    buyer: { id: row.buyer, address: row.buyer },
    seller: { id: row.seller, address: row.seller },
  };
}

/**
 * A bridge transfer (SPEC.md "Bridge transaction") from what each side's indexer has seen.
 * `status`: `pending` once sent (the destination has not seen it yet), `queued` when it arrived
 * but its delivery waits (paused bridge or inbound rate limit), `completed` once the tokens were
 * minted or released, `refused` when governance forgot the peer bridge that sent it while it waited
 * (nothing delivered). Fields only the other side knows are null until it is indexed.
 */
export function bridgeTransaction(
  message: BridgeMessage,
  chainOf: (by: { chainId?: number; selector?: string }) => string,
  queue: { state: QueuedDeliveryState; position: number } | null,
) {
  const { send, receipt } = message;
  const anySide = (send ?? receipt)!;
  return {
    message_id: anySide.messageId,
    source_chain:
      send !== undefined ? chainOf({ chainId: send.chainId }) : chainOf({ selector: receipt!.sourceSelector }),
    destination_chain:
      receipt !== undefined ? chainOf({ chainId: receipt.chainId }) : chainOf({ selector: send!.destinationSelector }),
    token: anySide.tokenSymbol,
    ...amount("amount", anySide.amount),
    sender: anySide.sender,
    recipient: anySide.recipient,
    status: receipt === undefined ? "pending" : receipt.status,
    fee_option: send?.feeOption ?? null,
    created_at: send?.createdAt ?? receipt!.receivedAt,
    completed_at: receipt?.completedAt ?? null,
    source_transaction: send?.txHash ?? null,
    destination_transaction: receipt?.completedTxHash ?? receipt?.txHash ?? null,
    queue: queue === null ? null : queuedDelivery(queue.state, queue.position),
  };
}

/** A queued delivery's `queue` (schemas.ts `bridgeTransactionSchema`): what it waits for and when it can complete. */
function queuedDelivery(state: QueuedDeliveryState, position: number) {
  const estimate = estimateQueuedDelivery(state);
  const limited = state.limit.enabled;
  const paused = state.pausedUntil > state.now;
  return {
    position,
    ...amount("remaining", state.remaining.toString()),
    ...amount("waiting_before", state.waitingBefore.reduce((sum, rest) => sum + rest, 0n).toString()),
    rate_limited: limited,
    // a disabled bucket lets anything in: its figures are 0 rather than the contract's 2^256 - 1
    ...amount("available", limited ? state.available.toString() : "0"),
    ...amount("capacity", state.limit.capacity.toString()),
    ...amount("refill_per_second", state.limit.rate.toString()),
    paused: paused,
    paused_until: paused && state.pausedUntil < PAUSED_INDEFINITELY ? Number(state.pausedUntil) : null,
    executable_now: estimate.executableNow,
    ...amount("next_installment", estimate.nextInstallment.toString()),
    completes_at: estimate.completesAt === null ? null : Number(estimate.completesAt),
    as_of: Number(state.now),
  };
}

/** A claimable balance (schemas.ts `ClaimableBalance`): in the token's own decimals. */
export function claimableBalance(row: ClaimableBalanceRow) {
  return {
    account: row.account,
    market_type: row.marketType,
    market: row.market,
    token: row.token,
    token_symbol: row.tokenSymbol,
    token_decimals: row.tokenDecimals,
    ...amount("amount", row.amount, row.tokenDecimals),
    ...amount("credited_total", row.creditedTotal, row.tokenDecimals),
    updated_at: row.updatedAt,
  };
}
