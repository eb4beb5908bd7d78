import { ZeroAddress } from "ethers";
import { and, desc, eq, lt, sql } from "drizzle-orm";

import { FEE_OPTION_NAMES, TRADE_TYPES } from "@compute-capacity/sdk";
import * as format from "../http/format.js";
import type { ChainContext, StoredEvent } from "../indexer/module.js";
import { addr, big, num } from "../indexer/module.js";
import { bridgeTokenSymbol, chainOfSelector } from "../indexer/modules/bridge.js";
import { claimableTokenOf } from "../indexer/modules/markets.js";
import { ISSUE_TYPES } from "../indexer/modules/redemption-manager.js";
import type { Tx } from "../store/db.js";
import { redemptionView } from "../store/queries.js";
import { claimableBalances, computeUnits, events, listings } from "../store/schema.js";
import type { WebhookEventName } from "./event-names.js";

export { WEBHOOK_EVENTS } from "./event-names.js";
export type { WebhookEventName } from "./event-names.js";

/** An event to announce: what the payload carries plus whom it concerns. */
export interface WebhookEvent {
  /** Stable: the same event always has the same id (`chainId:txHash:logIndex:event` on-chain). */
  id: string;
  /**
   * The fact the event announces: on-chain `chainId:txHash:logIndex` of the log that records it, the
   * same for the two events that announce one fact under two names (event-names.ts `TWIN_EVENTS`);
   * off-chain, the event's id (the default when absent).
   */
  factId?: string;
  event: WebhookEventName;
  /**
   * Unix seconds: when the fact happened (the block time on-chain, the verdict's time for a
   * verification, the chain time a lease notice fell due), never the send time (`webhook-timestamp`).
   */
  timestamp: number;
  data: Record<string, unknown>;
  /** Accounts the event involves (any case): `own_events_only` subscriptions match on them. */
  accounts: string[];
  /**
   * On-chain facts are public: any subscription to the event gets them. Off-chain events (the
   * default for {@link publish}) go only to subscriptions of the accounts they involve.
   */
  public?: boolean;
  /** For an on-chain event: its chain and block, so a reorg can cancel what it no longer has. */
  chainId?: number;
  blockNumber?: number;
}

/** What one indexed event announces (zero, one or two webhook events). */
type Mapper = (
  tx: Tx,
  e: StoredEvent,
  context: ChainContext,
) => Promise<Array<[WebhookEventName, Record<string, unknown>, string[]]>>;

/** The redemption `idArg` names, as the read API shows it at the event's block time. */
const redemptionOf = (tx: Tx, e: StoredEvent, idArg = "redemptionId") =>
  redemptionView(tx, e.chainId, num(e.args, idArg), e.timestamp);

const listingOf = async (tx: Tx, e: StoredEvent) => {
  const [row] = await tx
    .select()
    .from(listings)
    .where(and(eq(listings.chainId, e.chainId), eq(listings.listingId, num(e.args, "listingId"))));
  return row;
};

/**
 * A redemption event's data: the redemption as `GET /redemptions/:id` shows it after the event
 * (its lease and the user's access key included), plus `extra`. `idArg` names the event's argument
 * that holds the redemption's id (a lease's id is its first redemption's).
 */
function redemptionEvent(
  name: WebhookEventName,
  extra: (e: StoredEvent) => Record<string, unknown> = () => ({}),
  idArg = "redemptionId",
): Mapper {
  return async (tx, e) => {
    const view = await redemptionOf(tx, e, idArg);
    if (view === undefined) return [];
    const data = { ...format.redemption(view), ...extra(e), transactionHash: e.txHash };
    return [[name, data, [view.row.user, view.row.providerId]]];
  };
}

/**
 * A time-based lease event (`redemption.lease_expiring`, `redemption.lease_ended`) the scheduler
 * (lease-notices.ts) announces at chain time `at`: the lease's redemption as the read API shows it
 * then. Its id names the lease and the end it is about, so each end is announced once: a renewal
 * that moves the end gets new notices.
 */
export async function leaseNoticeEvent(
  tx: Tx,
  notice: { chainId: number; leaseId: number; leaseEnd: number; endBlock: number },
  event: "redemption.lease_expiring" | "redemption.lease_ended",
  at: number,
): Promise<WebhookEvent | undefined> {
  const view = await redemptionView(tx, notice.chainId, notice.leaseId, at);
  if (view === undefined) return undefined;
  return {
    id: `lease:${notice.chainId}:${notice.leaseId}:${notice.leaseEnd}:${event}`,
    factId: `lease:${notice.chainId}:${notice.leaseId}:${notice.leaseEnd}:${event}`,
    event,
    timestamp: at,
    data: { ...format.redemption(view), seconds_left: Math.max(0, notice.leaseEnd - at) },
    accounts: [view.row.user, view.row.providerId],
    public: true,
    chainId: notice.chainId,
    blockNumber: notice.endBlock,
  };
}

/** A created position (listing or order) as the marketplace list shows it, plus its kind. */
function positionEvent(...names: WebhookEventName[]): Mapper {
  return async (tx, e) => {
    const row = await listingOf(tx, e);
    if (row === undefined) return [];
    const data = { ...format.listingItem(row), kind: row.kind, transactionHash: e.txHash };
    return names.map((name) => [name, data, [row.seller]]);
  };
}

/**
 * Which indexed event triggers which webhook event, by contract (its name in the deployment file)
 * and event name. Projections are applied before the mapper runs, so a mapper reads the resource as
 * the read API shows it after the event. The table is in docs/webhooks.md.
 */
const MAPPERS: Record<string, Mapper> = {
  "CUToken.ComputeUnitVerified": async (tx, e) => {
    const [row] = await tx
      .select()
      .from(computeUnits)
      .where(and(eq(computeUnits.chainId, e.chainId), eq(computeUnits.cuId, num(e.args, "cuId"))));
    if (row === undefined) return [];
    const data = { ...format.computeUnitItem({ ...row, country: null, region: null }), transactionHash: e.txHash };
    return [["cu.verified", data, [row.providerId]]];
  },
  "MintingAgent.SSTBMinted": async (_tx, e) => {
    const provider = addr(e.args, "provider");
    const amount = big(e.args, "amount");
    const data = {
      provider_id: provider,
      ...format.amount("sstb_amount", amount),
      // sSTB is minted to the provider whose unit was verified
      owner: provider,
      ...format.amount("cu_value", amount),
      cu_id: num(e.args, "cuId"),
      ...format.amount("collateral_amount", big(e.args, "collateralAmount"), 6),
      staking_period: num(e.args, "stakingPeriod"),
      transactionHash: e.txHash,
    };
    return [["sstb.minted", data, [provider]]];
  },
  "SSTB.Transfer": async (_tx, e, context) => {
    const from = addr(e.args, "from");
    const to = addr(e.args, "to");
    // mints and burns are announced as sstb.minted, sstb.redeemed and bridge messages
    if (from === ZeroAddress || to === ZeroAddress) return [];
    const value = big(e.args, "value");
    const data = {
      from,
      to,
      ...format.amount("sstb_amount", value),
      chain: context.chain,
      native_chain_id: context.chainId,
      transactionHash: e.txHash,
    };
    return [["sstb.transferred", data, [from, to]]];
  },
  "RedemptionManager.RedemptionInitiated": async (_tx, e) => {
    const user = addr(e.args, "user");
    const provider = addr(e.args, "provider");
    const data = {
      redemption_id: String(num(e.args, "redemptionId")),
      ...format.amount("sstb_amount", big(e.args, "amount")),
      user,
      provider_id: provider,
      transactionHash: e.txHash,
    };
    return [["sstb.redeemed", data, [user, provider]]];
  },
  // emitted right after RedemptionInitiated in the same call: the deadline is known from here on
  "RedemptionManager.RedemptionTerms": redemptionEvent("redemption.initiated", (e) =>
    format.amount("fee", big(e.args, "fee")),
  ),
  "RedemptionManager.RedemptionFulfilled": redemptionEvent("redemption.fulfilled", (e) => ({
    // the envelope encrypted to the user's key (DESIGN.md section 5): only the user can open it
    access_details: e.args.accessDetails as string,
  })),
  "RedemptionManager.RedemptionConfirmed": redemptionEvent("redemption.confirmed"),
  // compensation is paid from the provider's lock: collateral token units (USDC, 6 decimals)
  "RedemptionManager.RedemptionExpired": redemptionEvent("redemption.expired", (e) =>
    format.amount("compensation", big(e.args, "compensation"), 6),
  ),
  "RedemptionManager.DisputeOpened": redemptionEvent("redemption.disputed", (e) => ({
    issue_type: ISSUE_TYPES[num(e.args, "issueType")] ?? "other",
    evidence_hash: e.args.evidenceHash as string,
  })),
  "RedemptionManager.DisputeResolved": redemptionEvent("redemption.resolved", (e) => ({
    user_won: e.args.userWon as boolean,
    ...format.amount("compensation", big(e.args, "compensation"), 6),
  })),
  "RedemptionManager.DisputeLapsed": redemptionEvent("redemption.resolved", (e) => ({
    user_won: e.args.userWon as boolean,
    ...format.amount("compensation", big(e.args, "compensation"), 6),
  })),
  // leases (issue 19): the lease's redemption (its id is the lease's) with the lease as it now is
  "RedemptionManager.RenewalOffered": redemptionEvent("redemption.renewal_offered", () => ({}), "leaseId"),
  "RedemptionManager.LeaseRenewed": redemptionEvent(
    "redemption.renewed",
    (e) => ({
      renewal: {
        redemption_id: String(num(e.args, "renewalId")),
        ...format.amount("fee", big(e.args, "fee")),
        expires_at: num(e.args, "end"),
      },
    }),
    "leaseId",
  ),
  // the provider must reclaim the resources (it is also e-mailed: outbox.ts)
  "RedemptionManager.LeaseTerminated": redemptionEvent("redemption.terminated", () => ({}), "leaseId"),
  "Market.ListingCreated": positionEvent("listing.created", "marketplace.listing_created"),
  "Market.OrderCreated": positionEvent("marketplace.order_created"),
  "Market.ListingPurchased": async (tx, e) => {
    const row = await listingOf(tx, e);
    if (row === undefined) return [];
    const buyer = addr(e.args, "buyer");
    const data = {
      listing_id: row.listingId,
      market_type: row.marketType,
      seller: row.seller,
      buyer,
      ...format.amount("amount", big(e.args, "amount")),
      ...format.amount("remaining", big(e.args, "remaining")),
      ...format.amount("price_per_token", row.pricePerToken, 6),
      transactionHash: e.txHash,
    };
    return [["listing.purchased", data, [buyer, row.seller]]];
  },
  "Market.TradeExecuted": async (_tx, e) => {
    const buyer = addr(e.args, "buyer");
    const seller = addr(e.args, "seller");
    const data = {
      listing_id: num(e.args, "listingId"),
      trade_type: TRADE_TYPES[num(e.args, "tradeType")] ?? "none",
      buyer,
      seller,
      ...format.amount("amount", big(e.args, "amount")),
      ...format.amount("price", big(e.args, "price"), 6),
      ...format.amount("payment", big(e.args, "payment"), 6),
      ...format.amount("fee", big(e.args, "fee"), 6),
      transactionHash: e.txHash,
    };
    return [["marketplace.trade_executed", data, [buyer, seller]]];
  },
  // the bridge transaction's fields as `/bridge/status/:message_id` names them; amounts have 18 decimals
  "Bridge.MessageSent": async (_tx, e, context) => {
    const sender = addr(e.args, "sender");
    const recipient = addr(e.args, "recipient");
    const data = {
      message_id: e.args.messageId as string,
      source_chain: context.chain,
      destination_chain: chainOfSelector(e.args.destinationChainSelector as string),
      token: bridgeTokenSymbol(addr(e.args, "token"), context),
      ...format.amount("amount", big(e.args, "amount")),
      sender,
      recipient,
      fee_option: FEE_OPTION_NAMES[num(e.args, "feeOption")] ?? String(e.args.feeOption),
      transactionHash: e.txHash,
    };
    return [["bridge.message_sent", data, [sender, recipient]]];
  },
  "Bridge.MessageReceived": async (_tx, e, context) => {
    const sender = addr(e.args, "sender");
    const recipient = addr(e.args, "recipient");
    const data = {
      message_id: e.args.messageId as string,
      source_chain: chainOfSelector(e.args.sourceChainSelector as string),
      destination_chain: context.chain,
      token: bridgeTokenSymbol(addr(e.args, "token"), context),
      ...format.amount("amount", big(e.args, "amount")),
      sender,
      recipient,
      // `queued`: the delivery waits (paused bridge or inbound limit); `bridge.status` shows when it completes
      status: (e.args.completed as boolean) ? "completed" : "queued",
      transactionHash: e.txHash,
    };
    return [["bridge.message_received", data, [sender, recipient]]];
  },
  // a payment the token refused (a blacklisted recipient), held for its recipient; and its withdrawal
  "Market.ClaimableCredited": claimableEvent("marketplace.claimable_credited"),
  "Market.ClaimableWithdrawn": claimableEvent("marketplace.claimable_withdrawn"),
};

/** A claimable-balance event's data: the credit or withdrawal and the balance after it. */
function claimableEvent(name: "marketplace.claimable_credited" | "marketplace.claimable_withdrawn"): Mapper {
  return async (tx, e, context) => {
    const account = addr(e.args, "account");
    const token = addr(e.args, "token");
    const { symbol, decimals } = claimableTokenOf(e.args, token, context);
    const [balance] = await tx
      .select({ amount: claimableBalances.amount })
      .from(claimableBalances)
      .where(
        and(
          eq(claimableBalances.chainId, e.chainId),
          eq(claimableBalances.market, e.address),
          eq(claimableBalances.accountLower, account.toLowerCase()),
          eq(claimableBalances.token, token),
        ),
      );
    const data = {
      account,
      market: e.address,
      market_type: format.marketTypeOf(e.contract),
      token,
      token_symbol: symbol,
      token_decimals: decimals,
      ...(name === "marketplace.claimable_withdrawn" ? { to: addr(e.args, "to") } : {}),
      ...format.amount("amount", big(e.args, "amount"), decimals),
      ...format.amount("claimable", balance?.amount ?? "0", decimals),
      transactionHash: e.txHash,
    };
    const accounts = name === "marketplace.claimable_withdrawn" ? [account, addr(e.args, "to")] : [account];
    return [[name, data, accounts]];
  };
}

/**
 * The log that records the fact an event announces, where it is not the event's own log: a twin
 * announced from another log of the same transaction (event-names.ts `TWIN_EVENTS`) names the log
 * its partner is announced from, so both carry one `fact_id`.
 */
const FACT_LOG: Record<string, (tx: Tx, e: StoredEvent) => Promise<number | undefined>> = {
  // redemption.initiated (RedemptionTerms) and sstb.redeemed (RedemptionInitiated): one initiation
  "RedemptionManager.RedemptionTerms": (tx, e) =>
    logIn(tx, e, "RedemptionInitiated", sql`${events.args}->>'redemptionId' = ${String(e.args.redemptionId)}`),
  // redemption.renewed (LeaseRenewed) and the renewal's sstb.redeemed (RedemptionInitiated)
  "RedemptionManager.LeaseRenewed": (tx, e) =>
    logIn(tx, e, "RedemptionInitiated", sql`${events.args}->>'redemptionId' = ${String(e.args.renewalId)}`),
  // marketplace.trade_executed (TradeExecuted) and listing.purchased (ListingPurchased): one purchase
  "Market.TradeExecuted": (tx, e) =>
    logIn(
      tx,
      e,
      "ListingPurchased",
      sql`${events.args}->>'listingId' = ${String(e.args.listingId)} and ${events.address} = ${e.address}`,
    ),
};

/** The log index of the nearest earlier `name` log of `e`'s transaction that matches `where`. */
async function logIn(tx: Tx, e: StoredEvent, name: string, where: ReturnType<typeof sql>) {
  const [row] = await tx
    .select({ logIndex: events.logIndex })
    .from(events)
    .where(
      and(
        eq(events.chainId, e.chainId),
        eq(events.blockNumber, e.blockNumber),
        eq(events.txHash, e.txHash),
        eq(events.name, name),
        lt(events.logIndex, e.logIndex),
        where,
      ),
    )
    .orderBy(desc(events.logIndex))
    .limit(1);
  return row?.logIndex;
}

const MARKETS = new Set(["SpotMarket", "FuturesMarket", "OptionsMarket"]);

/** The webhook events an indexed event triggers (after its projection was applied in `tx`). */
export async function webhookEventsOf(tx: Tx, e: StoredEvent, context: ChainContext): Promise<WebhookEvent[]> {
  const contract = MARKETS.has(e.contract) ? "Market" : e.contract;
  const mapper = MAPPERS[`${contract}.${e.name}`];
  if (mapper === undefined) return [];
  const announced = await mapper(tx, e, context);
  if (announced.length === 0) return [];
  const factLog = (await FACT_LOG[`${contract}.${e.name}`]?.(tx, e)) ?? e.logIndex;
  return announced.map(([event, data, accounts]) => ({
    id: `${e.chainId}:${e.txHash}:${e.logIndex}:${event}`,
    factId: `${e.chainId}:${e.txHash}:${factLog}`,
    event,
    timestamp: e.timestamp,
    data,
    accounts,
    public: true,
    chainId: e.chainId,
    blockNumber: e.blockNumber,
  }));
}
