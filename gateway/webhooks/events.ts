import { ZeroAddress } from "ethers";
import { and, eq } from "drizzle-orm";

import { FEE_OPTION_NAMES, TRADE_TYPES } from "@compute-capacity/sdk";
import * as format from "../http/format.js";
import type { ChainContext, StoredEvent } from "../indexer/module.js";
import { addr, big, num } from "../indexer/module.js";
import { bridgeTokenSymbol, chainOfSelector } from "../indexer/modules/bridge.js";
import { ISSUE_TYPES } from "../indexer/modules/redemption-manager.js";
import type { Tx } from "../store/db.js";
import { redemptionView } from "../store/queries.js";
import { computeUnits, listings } from "../store/schema.js";
import type { WebhookEventName } from "./event-names.js";

export { WEBHOOK_EVENTS } from "./event-names.js";
export type { WebhookEventName } from "./event-names.js";

/** An event to announce: what the payload carries plus whom it concerns. */
export interface WebhookEvent {
  /** Stable: the same event always has the same id (`chainId:txHash:logIndex:event` on-chain). */
  id: string;
  event: WebhookEventName;
  /** Unix seconds (the block time on-chain). */
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
    const amount = format.sstb(big(e.args, "amount"));
    const data = {
      provider_id: provider,
      sstb_amount: amount,
      // sSTB is minted to the provider whose unit was verified
      owner: provider,
      cu_value: amount,
      cu_id: num(e.args, "cuId"),
      collateral_amount: format.usdc(big(e.args, "collateralAmount")),
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
      sstb_amount: format.sstb(value),
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
      sstb_amount: format.sstb(big(e.args, "amount")),
      user,
      provider_id: provider,
      transactionHash: e.txHash,
    };
    return [["sstb.redeemed", data, [user, provider]]];
  },
  // emitted right after RedemptionInitiated in the same call: the deadline is known from here on
  "RedemptionManager.RedemptionTerms": redemptionEvent("redemption.initiated", (e) => ({
    fee: format.sstb(big(e.args, "fee")),
  })),
  "RedemptionManager.RedemptionFulfilled": redemptionEvent("redemption.fulfilled", (e) => ({
    // the envelope encrypted to the user's key (DESIGN.md section 5): only the user can open it
    access_details: e.args.accessDetails as string,
  })),
  "RedemptionManager.RedemptionConfirmed": redemptionEvent("redemption.confirmed"),
  "RedemptionManager.RedemptionExpired": redemptionEvent("redemption.expired", (e) => ({
    compensation: format.sstb(big(e.args, "compensation")),
  })),
  "RedemptionManager.DisputeOpened": redemptionEvent("redemption.disputed", (e) => ({
    issue_type: ISSUE_TYPES[num(e.args, "issueType")] ?? "other",
    evidence_hash: e.args.evidenceHash as string,
  })),
  "RedemptionManager.DisputeResolved": redemptionEvent("redemption.resolved", (e) => ({
    user_won: e.args.userWon as boolean,
    compensation: format.sstb(big(e.args, "compensation")),
  })),
  "RedemptionManager.DisputeLapsed": redemptionEvent("redemption.resolved", (e) => ({
    user_won: e.args.userWon as boolean,
    compensation: format.sstb(big(e.args, "compensation")),
  })),
  // leases (issue 19): the lease's redemption (its id is the lease's) with the lease as it now is
  "RedemptionManager.RenewalOffered": redemptionEvent("redemption.renewal_offered", () => ({}), "leaseId"),
  "RedemptionManager.LeaseRenewed": redemptionEvent(
    "redemption.renewed",
    (e) => ({
      renewal: {
        redemption_id: String(num(e.args, "renewalId")),
        fee: format.sstb(big(e.args, "fee")),
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
      amount: format.sstb(big(e.args, "amount")),
      remaining: format.sstb(big(e.args, "remaining")),
      price_per_token: format.usdc(row.pricePerToken),
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
      amount: format.sstb(big(e.args, "amount")),
      price: format.usdc(big(e.args, "price")),
      payment: format.usdc(big(e.args, "payment")),
      fee: format.usdc(big(e.args, "fee")),
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
      amount: format.sstb(big(e.args, "amount")),
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
      amount: format.sstb(big(e.args, "amount")),
      sender,
      recipient,
      // `queued`: the delivery waits (paused bridge or inbound limit); `bridge.status` shows when it completes
      status: (e.args.completed as boolean) ? "completed" : "queued",
      transactionHash: e.txHash,
    };
    return [["bridge.message_received", data, [sender, recipient]]];
  },
};

const MARKETS = new Set(["SpotMarket", "FuturesMarket", "OptionsMarket"]);

/** The webhook events an indexed event triggers (after its projection was applied in `tx`). */
export async function webhookEventsOf(tx: Tx, e: StoredEvent, context: ChainContext): Promise<WebhookEvent[]> {
  const contract = MARKETS.has(e.contract) ? "Market" : e.contract;
  const mapper = MAPPERS[`${contract}.${e.name}`];
  if (mapper === undefined) return [];
  const announced = await mapper(tx, e, context);
  return announced.map(([event, data, accounts]) => ({
    id: `${e.chainId}:${e.txHash}:${e.logIndex}:${event}`,
    event,
    timestamp: e.timestamp,
    data,
    accounts,
    public: true,
    chainId: e.chainId,
    blockNumber: e.blockNumber,
  }));
}
