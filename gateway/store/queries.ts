import { and, asc, desc, eq, getTableColumns, gt, gte, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

import { compiledPage, compiledStatement, pageOf } from "./compiled-statement.js";
import type { PageOf } from "./compiled-statement.js";
import type { Db, Tx } from "./db.js";
import {
  accessKeys,
  apiKeys,
  balances,
  blocks,
  bridgeReceipts,
  bridgeSends,
  claimableBalances,
  computeUnits,
  cursors,
  events,
  leases,
  listings,
  parameters,
  providers,
  redemptions,
  trades,
  verifications,
} from "./schema.js";

/**
 * The read model shared by the HTTP routes and GraphQL: rows of the primary chain's projections,
 * filtered and paged in SQL. Amounts stay base-unit strings here; the API layer formats them.
 */

export type ProviderRow = typeof providers.$inferSelect;
export type ComputeUnitRow = typeof computeUnits.$inferSelect & { country: string | null; region: string | null };
export type RedemptionRow = typeof redemptions.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type ListingRow = typeof listings.$inferSelect;
export type TradeRow = typeof trades.$inferSelect;
export type ClaimableBalanceRow = typeof claimableBalances.$inferSelect;
export type BridgeSendRow = typeof bridgeSends.$inferSelect;
export type BridgeReceiptRow = typeof bridgeReceipts.$inferSelect;
export type LeaseRow = typeof leases.$inferSelect;

/** A redemption with what its resource shows beside its own row (issue 19). */
export interface RedemptionView {
  row: RedemptionRow;
  /** The lease it belongs to (its own once fulfilled, or the one a renewal renewed); null before. */
  lease: LeaseRow | null;
  /** That lease's renewals, oldest first. */
  renewals: RedemptionRow[];
  /** The user's registered X25519 key (lower-case hex), or null. */
  accessPublicKey: string | null;
  /** The chain time (Unix seconds) the lease's status and offer are judged at. */
  now: number;
}

/** Where a lease is, as the API's filter and `lease.status` name it. */
export const LEASE_STATUS_FILTERS = ["none", "active", "ended", "terminated"] as const;
export type LeaseStatusFilter = (typeof LEASE_STATUS_FILTERS)[number];

export interface RedemptionFilter {
  providerId?: string;
  user?: string;
  status?: string;
  /** The status of the lease the redemption belongs to (`none`: not fulfilled, no lease). */
  leaseStatus?: LeaseStatusFilter;
}

/**
 * The chain's time as the indexer last saw it, moved on by the wall clock since: the time of the
 * last indexed block plus the seconds since it was indexed. Block times decide whether a lease
 * ended (the contract's `block.timestamp >= end`); on a chain without new blocks (an idle devnet,
 * or after a time jump) the wall clock alone would be wrong by the jump. Never ahead of the chain
 * by more than the clock drift; behind it by the indexing lag (the confirmation depth). Without
 * anything indexed yet: the wall clock.
 */
export async function chainTime(db: Db | Tx, chainId: number, wallMs = Date.now()): Promise<number> {
  const wall = Math.floor(wallMs / 1000);
  const [row] = await db
    .select({ blockTime: blocks.timestamp, indexedAt: cursors.updatedAt })
    .from(cursors)
    .innerJoin(blocks, and(eq(blocks.chainId, cursors.chainId), eq(blocks.number, cursors.blockNumber)))
    .where(eq(cursors.chainId, chainId));
  if (row === undefined) return wall;
  return row.blockTime + Math.max(0, wall - row.indexedAt);
}

/** The views of redemption rows of one chain: their leases, the leases' renewals, the users' keys. */
export async function redemptionViews(db: Db | Tx, rows: RedemptionRow[], now: number): Promise<RedemptionView[]> {
  if (rows.length === 0) return [];
  const chainId = rows[0].chainId;
  const leaseIds = [...new Set(rows.flatMap((r) => (r.leaseId === null ? [] : [r.leaseId])))];
  const users = [...new Set(rows.map((r) => r.userLower))];
  // one after the other: inside a transaction the three share one connection
  const leaseRows: LeaseRow[] =
    leaseIds.length === 0
      ? []
      : await db
          .select()
          .from(leases)
          .where(and(eq(leases.chainId, chainId), inArray(leases.leaseId, leaseIds)));
  const renewalRows: RedemptionRow[] =
    leaseIds.length === 0
      ? []
      : await db
          .select()
          .from(redemptions)
          .where(
            and(
              eq(redemptions.chainId, chainId),
              inArray(redemptions.leaseId, leaseIds),
              isNotNull(redemptions.renewedEnd),
            ),
          )
          .orderBy(asc(redemptions.redemptionId));
  const keyRows = await db
    .select({ userLower: accessKeys.userLower, publicKey: accessKeys.publicKey })
    .from(accessKeys)
    .where(and(eq(accessKeys.chainId, chainId), inArray(accessKeys.userLower, users)));
  const leaseById = new Map(leaseRows.map((l) => [l.leaseId, l]));
  const keyOf = new Map(keyRows.map((k) => [k.userLower, k.publicKey]));
  return rows.map((row) => ({
    row,
    lease: row.leaseId === null ? null : (leaseById.get(row.leaseId) ?? null),
    renewals: row.leaseId === null ? [] : renewalRows.filter((r) => r.leaseId === row.leaseId),
    accessPublicKey: keyOf.get(row.userLower) ?? null,
    now,
  }));
}

/** The view of one redemption, or undefined for an id the chain does not have. */
export async function redemptionView(
  db: Db | Tx,
  chainId: number,
  redemptionId: number,
  now: number,
): Promise<RedemptionView | undefined> {
  const [row] = await db
    .select()
    .from(redemptions)
    .where(and(eq(redemptions.chainId, chainId), eq(redemptions.redemptionId, redemptionId)))
    .limit(1);
  return row === undefined ? undefined : (await redemptionViews(db, [row], now))[0];
}

/**
 * Redemptions of one chain by provider, user, status and the status of the lease they belong to
 * (at the chain's time), with their views, by id in `order`.
 */
export async function listRedemptionViews(
  db: Db,
  chainId: number,
  filter: RedemptionFilter,
  page: { page: number; limit: number },
  order: "asc" | "desc" = "asc",
): Promise<{ rows: RedemptionView[]; total: number }> {
  const now = await chainTime(db, chainId);
  const conditions: SQL[] = [eq(redemptions.chainId, chainId)];
  if (filter.providerId !== undefined) {
    conditions.push(eq(redemptions.providerLower, filter.providerId.toLowerCase()));
  }
  if (filter.user !== undefined) conditions.push(eq(redemptions.userLower, filter.user.toLowerCase()));
  if (filter.status !== undefined) conditions.push(eq(redemptions.status, filter.status));
  switch (filter.leaseStatus) {
    case "none":
      conditions.push(isNull(redemptions.leaseId));
      break;
    case "terminated":
      conditions.push(isNotNull(leases.terminatedAt));
      break;
    case "ended":
      conditions.push(isNull(leases.terminatedAt), lte(leases.expiresAt, now));
      break;
    case "active":
      conditions.push(
        isNotNull(leases.leaseId),
        isNull(leases.terminatedAt),
        or(isNull(leases.expiresAt), gt(leases.expiresAt, now))!,
      );
      break;
  }
  const where = and(...conditions);
  const joined = and(eq(leases.chainId, redemptions.chainId), eq(leases.leaseId, redemptions.leaseId));
  const rows = await db
    .select(getTableColumns(redemptions))
    .from(redemptions)
    .leftJoin(leases, joined)
    .where(where)
    .orderBy(order === "asc" ? asc(redemptions.redemptionId) : desc(redemptions.redemptionId))
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  const [{ count }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(redemptions)
    .leftJoin(leases, joined)
    .where(where);
  return { rows: await redemptionViews(db, rows, now), total: count };
}

/** A bridge transfer as far as the indexers have seen it: either side may be missing (yet). */
export interface BridgeMessage {
  send?: BridgeSendRow;
  receipt?: BridgeReceiptRow;
}

/** Payment units (USDC, 6 decimals) per whole sSTB, compared exactly in SQL. */
const usdc = (whole: number) => sql`(${String(whole)}::numeric * 1000000)`;

export interface Page {
  page: number;
  limit: number;
}

/** Whole sSTB (a JSON number or a decimal string) compared as base units, exactly, in SQL. */
const wei = (wholeUnits: number) => sql`(${String(wholeUnits)}::numeric * 1000000000000000000)`;

export interface ComputeUnitFilter {
  providerId?: string;
  minValue?: number;
  maxValue?: number;
}

/** The number of rows matching the query before `limit`/`offset`, on every row of the page. */
const totalOver = sql<number>`(count(*) over ())::int`;

/** A value of a prepared statement, bound at each execution. */
const p = sql.placeholder;

/**
 * The read routes' queries, built once as prepared statements (PostgreSQL parses and plans each
 * once per connection; drizzle builds its SQL once): building a query on every request was the
 * largest single cost of an uncached read (docs/gateway-bench.md). Optional filters are parameters
 * that may be null (`$n is null or column = $n`), so that each route has one statement.
 */
export function statementsOf(db: Db) {
  const cu = { ...getTableColumns(computeUnits), country: providers.country, region: providers.region };
  const unitsJoin = eq(providers.addressLower, computeUnits.providerLower);
  const optional = (name: string, type: string, condition: SQL) =>
    sql`(${p(name)}::${sql.raw(type)} is null or ${condition})`;
  return {
    computeUnit: compiledStatement(
      db
        .select(cu)
        .from(computeUnits)
        .leftJoin(providers, unitsJoin)
        .where(and(eq(computeUnits.chainId, p("chainId")), eq(computeUnits.cuId, p("cuId"))))
        .limit(1)
        .prepare("read_compute_unit"),
    ),
    listComputeUnits: compiledPage(
      db
        .select({ ...cu, total: totalOver })
        .from(computeUnits)
        .leftJoin(providers, unitsJoin)
        .where(
          and(
            eq(computeUnits.chainId, p("chainId")),
            optional("providerLower", "text", sql`${computeUnits.providerLower} = ${p("providerLower")}`),
            optional("minValue", "numeric", sql`${computeUnits.cuValue} >= ${p("minValue")}::numeric * ${WEI}`),
            optional("maxValue", "numeric", sql`${computeUnits.cuValue} <= ${p("maxValue")}::numeric * ${WEI}`),
          ),
        )
        .orderBy(asc(computeUnits.cuId))
        .limit(p("limit"))
        .offset(p("offset"))
        .prepare("read_compute_units"),
    ),
    provider: compiledStatement(
      db
        .select()
        .from(providers)
        .where(and(eq(providers.chainId, p("chainId")), eq(providers.addressLower, p("addressLower"))))
        .limit(1)
        .prepare("read_provider"),
    ),
    listProviders: compiledPage(
      db
        .select({ ...getTableColumns(providers), total: totalOver })
        .from(providers)
        .where(
          and(
            eq(providers.chainId, p("chainId")),
            optional("status", "text", sql`${providers.status} = ${p("status")}`),
            // reputation is stored 0..10000 and shown 0..100.00
            optional("minReputation", "numeric", sql`${providers.reputation} >= ${p("minReputation")}::numeric * 100`),
            optional(
              "location",
              "text",
              sql`(lower(${providers.country}) = ${p("location")} or lower(${providers.region}) = ${p("location")})`,
            ),
          ),
        )
        .orderBy(asc(providers.registeredAt), asc(providers.providerId))
        .limit(p("limit"))
        .offset(p("offset"))
        .prepare("read_providers"),
    ),
    listing: compiledStatement(
      db
        .select()
        .from(listings)
        .where(and(eq(listings.chainId, p("chainId")), eq(listings.listingId, p("listingId"))))
        .limit(1)
        .prepare("read_listing"),
    ),
  };
}

/** 10^18 (whole sSTB to base units), in SQL. */
const WEI = sql.raw("1000000000000000000");

export class ReadModel {
  private readonly statements: ReturnType<typeof statementsOf>;

  constructor(
    private readonly db: Db,
    /** The chain whose projections the API shows (the one with the registry). */
    readonly primaryChainId: number,
    /** Where the prepared statements of the read routes run (the store's `reads`: pipelined on PostgreSQL). */
    reads: Db = db,
  ) {
    this.statements = statementsOf(reads);
  }

  /**
   * A page and its total from one query (`count(*) over ()` on each row). A page past the end has
   * no row to carry the total: only then a second query counts.
   */
  private async paged<R>(page: PageOf<R>, count: () => Promise<number>): Promise<{ rows: R[]; total: number }> {
    return { rows: page.rows, total: page.total ?? (await count()) };
  }

  private async count(table: PgTable, where: SQL | undefined): Promise<number> {
    const [{ total }] = await this.db
      .select({ total: sql<number>`count(*)::int` })
      .from(table)
      .where(where);
    return total;
  }

  private cuWhere(filter: ComputeUnitFilter): SQL | undefined {
    const conditions: SQL[] = [eq(computeUnits.chainId, this.primaryChainId)];
    if (filter.providerId !== undefined)
      conditions.push(eq(computeUnits.providerLower, filter.providerId.toLowerCase()));
    if (filter.minValue !== undefined) conditions.push(gte(computeUnits.cuValue, wei(filter.minValue)));
    if (filter.maxValue !== undefined) conditions.push(lte(computeUnits.cuValue, wei(filter.maxValue)));
    return and(...conditions);
  }

  private cuSelect() {
    return this.db
      .select({ ...getTableColumns(computeUnits), country: providers.country, region: providers.region })
      .from(computeUnits)
      .leftJoin(providers, eq(providers.addressLower, computeUnits.providerLower));
  }

  async listComputeUnits(filter: ComputeUnitFilter, page: Page): Promise<{ rows: ComputeUnitRow[]; total: number }> {
    const rows = await this.statements.listComputeUnits.execute({
      chainId: this.primaryChainId,
      providerLower: filter.providerId?.toLowerCase() ?? null,
      minValue: filter.minValue === undefined ? null : String(filter.minValue),
      maxValue: filter.maxValue === undefined ? null : String(filter.maxValue),
      limit: page.limit,
      offset: (page.page - 1) * page.limit,
    });
    return this.paged(rows, () => this.count(computeUnits, this.cuWhere(filter)));
  }

  async computeUnit(cuId: number): Promise<ComputeUnitRow | undefined> {
    const [row] = await this.statements.computeUnit.execute({ chainId: this.primaryChainId, cuId });
    return row;
  }

  /** Compute units of several providers at once (GraphQL). */
  async computeUnitsOf(providerIds: readonly string[]): Promise<ComputeUnitRow[]> {
    if (providerIds.length === 0) return [];
    return this.cuSelect()
      .where(
        and(
          eq(computeUnits.chainId, this.primaryChainId),
          inArray(
            computeUnits.providerLower,
            providerIds.map((p) => p.toLowerCase()),
          ),
        ),
      )
      .orderBy(asc(computeUnits.cuId));
  }

  async listProviders(
    filter: { status?: string; minReputation?: number; location?: string },
    page: Page,
  ): Promise<{ rows: ProviderRow[]; total: number }> {
    const rows = await this.statements.listProviders.execute({
      chainId: this.primaryChainId,
      status: filter.status ?? null,
      minReputation: filter.minReputation === undefined ? null : String(filter.minReputation),
      location: filter.location?.toLowerCase() ?? null,
      limit: page.limit,
      offset: (page.page - 1) * page.limit,
    });
    return this.paged(rows, () => this.countProviders(filter));
  }

  /** Providers matching `filter` (a page past the end has no row to carry the total). */
  private countProviders(filter: { status?: string; minReputation?: number; location?: string }): Promise<number> {
    const conditions: SQL[] = [eq(providers.chainId, this.primaryChainId)];
    if (filter.status !== undefined) conditions.push(eq(providers.status, filter.status));
    if (filter.minReputation !== undefined)
      conditions.push(sql`${providers.reputation} >= ${filter.minReputation * 100}`);
    if (filter.location !== undefined) {
      const location = filter.location.toLowerCase();
      conditions.push(
        or(sql`lower(${providers.country}) = ${location}`, sql`lower(${providers.region}) = ${location}`)!,
      );
    }
    return this.count(providers, and(...conditions));
  }

  async provider(providerId: string): Promise<ProviderRow | undefined> {
    const [row] = await this.statements.provider.execute({
      chainId: this.primaryChainId,
      addressLower: providerId.toLowerCase(),
    });
    return row;
  }

  async redemption(redemptionId: number): Promise<RedemptionView | undefined> {
    const now = await chainTime(this.db, this.primaryChainId);
    return redemptionView(this.db, this.primaryChainId, redemptionId, now);
  }

  /** Redemptions by provider, user, status and lease status. */
  async listRedemptions(
    filter: RedemptionFilter,
    page: Page,
    order: "asc" | "desc" = "asc",
  ): Promise<{ rows: RedemptionView[]; total: number }> {
    return listRedemptionViews(this.db, this.primaryChainId, filter, page, order);
  }

  /** Verification methods of compute units (by cu id), from the attestations that minted them. */
  async methodsOf(cuIds: readonly number[]): Promise<Map<number, string>> {
    if (cuIds.length === 0) return new Map();
    const rows = await this.db
      .select({ cuId: verifications.cuId, method: verifications.method })
      .from(verifications)
      .where(and(eq(verifications.chainId, this.primaryChainId), inArray(verifications.cuId, [...cuIds])));
    return new Map(rows.map((r) => [r.cuId!, r.method]));
  }

  /** sSTB balance of `account` on every chain that has one. */
  async balancesOf(account: string): Promise<Array<{ chainId: number; balance: string }>> {
    return this.db
      .select({ chainId: balances.chainId, balance: balances.balance })
      .from(balances)
      .where(eq(balances.account, account.toLowerCase()))
      .orderBy(asc(balances.chainId));
  }

  /** A governed parameter of a contract on the primary chain, as last set. */
  async parameter(contract: string, name: string): Promise<bigint | undefined> {
    const [row] = await this.db
      .select({ value: parameters.value })
      .from(parameters)
      .where(
        and(eq(parameters.chainId, this.primaryChainId), eq(parameters.contract, contract), eq(parameters.name, name)),
      );
    return row === undefined ? undefined : BigInt(row.value);
  }

  /** Open positions (`active`) of the markets, filtered and paged in listing id order. */
  async listListings(
    filter: { marketType?: string; providerId?: string; minPrice?: number; maxPrice?: number },
    page: Page,
  ): Promise<{ rows: ListingRow[]; total: number }> {
    const conditions: SQL[] = [eq(listings.chainId, this.primaryChainId), eq(listings.status, "active")];
    if (filter.marketType !== undefined) conditions.push(eq(listings.marketType, filter.marketType));
    if (filter.providerId !== undefined) conditions.push(eq(listings.sellerLower, filter.providerId.toLowerCase()));
    if (filter.minPrice !== undefined) conditions.push(gte(listings.pricePerToken, usdc(filter.minPrice)));
    if (filter.maxPrice !== undefined) conditions.push(lte(listings.pricePerToken, usdc(filter.maxPrice)));
    const where = and(...conditions);
    const rows = await this.db
      .select({ ...getTableColumns(listings), total: totalOver })
      .from(listings)
      .where(where)
      .orderBy(asc(listings.listingId))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit);
    return this.paged(pageOf(rows), () => this.count(listings, where));
  }

  async listing(listingId: number): Promise<ListingRow | undefined> {
    const [row] = await this.statements.listing.execute({ chainId: this.primaryChainId, listingId });
    return row;
  }

  /**
   * An account's claimable balances in the markets (payments the token refused to send it), per
   * market and token, the largest first; `token` narrows to one token, `includeEmpty` keeps the
   * balances already withdrawn (amount 0).
   */
  async claimableBalancesOf(
    account: string,
    filter: { token?: string; includeEmpty?: boolean },
    page: Page,
  ): Promise<{ rows: ClaimableBalanceRow[]; total: number }> {
    const conditions: SQL[] = [
      eq(claimableBalances.chainId, this.primaryChainId),
      eq(claimableBalances.accountLower, account.toLowerCase()),
    ];
    if (filter.token !== undefined)
      conditions.push(sql`lower(${claimableBalances.token}) = ${filter.token.toLowerCase()}`);
    if (filter.includeEmpty !== true) conditions.push(gt(claimableBalances.amount, "0"));
    const where = and(...conditions);
    const rows = await this.db
      .select({ ...getTableColumns(claimableBalances), total: totalOver })
      .from(claimableBalances)
      .where(where)
      .orderBy(desc(claimableBalances.amount), asc(claimableBalances.market), asc(claimableBalances.token))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit);
    return this.paged(pageOf(rows), () => this.count(claimableBalances, where));
  }

  /** The latest trades, newest first. */
  latestTrades(limit: number): Promise<TradeRow[]> {
    return this.db
      .select()
      .from(trades)
      .where(eq(trades.chainId, this.primaryChainId))
      .orderBy(desc(trades.blockNumber), desc(trades.logIndex))
      .limit(limit);
  }

  /**
   * The transfers waiting in the same delivery queue as `receipt` (its chain, from the same source chain, in
   * the same token) that were queued before it, first first, with the amounts they carried: the bridge's
   * queues are first-in first-out, in the order of the arrivals' `MessageReceived` events.
   */
  async queuedBefore(receipt: BridgeReceiptRow): Promise<{ messageId: string; amount: bigint }[]> {
    const rows = await this.db
      .select({ messageId: bridgeReceipts.messageId, amount: bridgeReceipts.amount })
      .from(bridgeReceipts)
      .innerJoin(
        events,
        and(
          eq(events.chainId, bridgeReceipts.chainId),
          eq(events.name, "MessageReceived"),
          eq(sql`${events.args}->>'messageId'`, bridgeReceipts.messageId),
        ),
      )
      .where(
        and(
          eq(bridgeReceipts.chainId, receipt.chainId),
          eq(bridgeReceipts.sourceSelector, receipt.sourceSelector),
          eq(bridgeReceipts.tokenSymbol, receipt.tokenSymbol),
          eq(bridgeReceipts.status, "queued"),
        ),
      )
      .orderBy(asc(events.blockNumber), asc(events.logIndex));
    const at = rows.findIndex((row) => row.messageId === receipt.messageId);
    return (at < 0 ? rows : rows.slice(0, at)).map((row) => ({ messageId: row.messageId, amount: BigInt(row.amount) }));
  }

  /** Both sides of a bridge transfer by CCIP message id (lower-case hex); undefined if neither is indexed. */
  async bridgeMessage(messageId: string): Promise<BridgeMessage | undefined> {
    const [[send], [receipt]] = await Promise.all([
      this.db.select().from(bridgeSends).where(eq(bridgeSends.messageId, messageId)),
      this.db.select().from(bridgeReceipts).where(eq(bridgeReceipts.messageId, messageId)),
    ]);
    if (send === undefined && receipt === undefined) return undefined;
    return { ...(send === undefined ? {} : { send }), ...(receipt === undefined ? {} : { receipt }) };
  }
}
