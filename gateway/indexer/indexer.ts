import type { Block, Log } from "ethers";
import { and, asc, desc, eq, gt, lt } from "drizzle-orm";

import type { Db, Tx } from "../store/db.js";
import {
  accessKeys,
  balances,
  blocks,
  computeUnits,
  cursors,
  events,
  listings,
  parameters,
  providers,
  redemptions,
  trades,
  claimableBalances,
  bridgeSends,
  bridgeReceipts,
  leases,
  verifications,
} from "../store/schema.js";
import { plain } from "./module.js";
import type { ChainContext, ContractModule, StoredEvent } from "./module.js";
import { moduleOf } from "./modules/index.js";
import type { EventSink } from "./sink.js";
import type { Log as GatewayLog } from "../observability/log.js";
import { readProvider } from "../chain/rpc.js";
import type { ReadProvider, RpcCallInFlight } from "../chain/rpc.js";

/** One chain to index: where it is, which contracts, how deep a block must be to count. */
export interface ChainSource {
  chain: string;
  chainId: number;
  rpcUrl: string;
  contracts: Record<string, string>;
  /** Blocks below the head before a block is indexed (0 on the devnet). */
  confirmations: number;
  /** First block that can hold the deployment's events. */
  startBlock: number;
}

export interface IndexerOptions {
  pollIntervalMs: number;
  /** A call the node has not answered within this time fails, and the step is retried (none: 10 s). */
  rpcTimeoutMs?: number;
  /** Most blocks per `eth_getLogs` (and per transaction). */
  batchBlocks: number;
  log: GatewayLog;
  /** Called after a transaction that changed indexed data committed (a batch with events, a reorg rebuild). */
  onCommit?: () => void;
  /** Test hook: called inside the batch's transaction after each applied event. */
  afterApply?: (event: StoredEvent) => void | Promise<void>;
  /** Told of each newly indexed event and of each reorg, inside the batch's transaction (the webhook outbox). */
  sink?: EventSink;
}

/** Tables rebuilt from `events` after a reorg. */
const PROJECTIONS = [
  accessKeys,
  leases,
  providers,
  computeUnits,
  verifications,
  redemptions,
  balances,
  parameters,
  listings,
  trades,
  claimableBalances,
  bridgeSends,
  bridgeReceipts,
] as const;

/**
 * The version of the projection code: raise it when a projection changes what it builds from the
 * events already stored (a new table, a new column filled by `apply`). A chain whose tables an
 * older version built is rebuilt from `events` when its indexer starts. 1: issue 19's leases,
 * access keys and the redemptions' lease columns; 2: the markets' claimable balances (issue 25).
 */
export const PROJECTION_VERSION = 2;

/** What a chain's indexer has reached. */
export interface ChainStatus {
  chain: string;
  chainId: number;
  head: number | null;
  indexedBlock: number | null;
  confirmations: number;
  lastError: string | null;
  /** Reorganizations rolled back since the indexer started. */
  reorgs: number;
  /** Failed calls to the node since the indexer started. */
  rpcErrors: number;
  /** Unix milliseconds of the last step that reached the node and the database (null: none yet). */
  lastProgressAt: number | null;
}

/** A step in progress, as a stalled shutdown's log shows it: since when, and the calls it awaits. */
export interface StepInFlight {
  chain: string;
  /** Since the step began (null: no step is running). */
  ms: number | null;
  /** Its calls to the node not yet answered (none while it reads or writes the database). */
  rpc: RpcCallInFlight[];
}

/** A module bound to an address, or a contract the gateway has no ABI for (kept as raw logs). */
interface Source {
  contract: string;
  module: ContractModule | undefined;
}

/**
 * Indexes one chain: polls the head, reads the logs of every deployed contract in blocks
 * `(cursor, head - confirmations]`, and writes the decoded events, their projections and the new
 * cursor in one transaction. A kill at any point loses nothing (the transaction did not commit,
 * the cursor did not move) and duplicates nothing (events are keyed by chain, block and log
 * index; only newly inserted ones are applied). Before each batch the stored hash of the cursor
 * block is compared with the chain's; on a mismatch (a reorg deeper than the confirmation depth)
 * the indexer walks back to the last stored block still on the chain, deletes the events above
 * it and rebuilds the chain's projections from the remaining events.
 */
export class ChainIndexer {
  readonly rpc: ReadProvider;
  private readonly byAddress = new Map<string, Source>();
  private readonly context: ChainContext;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private head: number | null = null;
  private indexed: number | null = null;
  private lastError: string | null = null;
  private reorgs = 0;
  private rpcErrors = 0;
  private lastProgressAt: number | null = null;
  private stepSince: number | null = null;
  private readonly waiters = new Set<{ block: number; resolve: () => void }>();
  private projectionsCurrent = false;
  /** The latest block when a step last found the cursor at the indexable head (none since a change). */
  private idleAt: { number: number; hash: string } | undefined;

  constructor(
    private readonly db: Db,
    readonly source: ChainSource,
    private readonly options: IndexerOptions,
  ) {
    this.rpc = readProvider(source.rpcUrl, source.chainId, {
      onError: () => this.rpcErrors++,
      ...(options.rpcTimeoutMs === undefined ? {} : { timeoutMs: options.rpcTimeoutMs }),
    });
    for (const [contract, address] of Object.entries(source.contracts)) {
      if (contract.endsWith("Implementation")) continue;
      this.byAddress.set(address.toLowerCase(), { contract, module: moduleOf(contract) });
    }
    this.context = {
      chainId: source.chainId,
      chain: source.chain,
      primary: "ProviderRegistry" in source.contracts,
      contracts: source.contracts,
    };
  }

  status(): ChainStatus {
    return {
      chain: this.source.chain,
      chainId: this.source.chainId,
      head: this.head,
      indexedBlock: this.indexed,
      confirmations: this.source.confirmations,
      lastError: this.lastError,
      reorgs: this.reorgs,
      rpcErrors: this.rpcErrors,
      lastProgressAt: this.lastProgressAt,
    };
  }

  /** The step in progress and what it awaits of the node. */
  inFlight(now = Date.now()): StepInFlight {
    return {
      chain: this.source.chain,
      ms: this.stepSince === null ? null : now - this.stepSince,
      rpc: this.rpc.inFlight(now),
    };
  }

  start(): void {
    if (this.loop !== undefined) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /**
   * Ends the loop: its calls to the node in flight fail at once (nothing is written before a batch's
   * reads are done, and a batch's transaction either commits or leaves the cursor where it was), and a
   * write to the database in progress finishes.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    if (this.loop !== undefined) this.rpc.abort();
    await this.loop;
    this.loop = undefined;
    this.rpc.destroy();
  }

  /** Resolves once the chain is indexed up to `block` (for tests and the devnet). */
  waitFor(block: number, timeoutMs = 30_000): Promise<void> {
    if (this.indexed !== null && this.indexed >= block) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = { block, resolve: () => (clearTimeout(timer), resolve()) };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`${this.source.chain}: not indexed to block ${block} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(waiter);
      this.wake?.();
    });
  }

  /** Indexes until the cursor reaches the current head minus the depth. */
  async catchUp(): Promise<number> {
    while (!(await this.step())) {
      /* next batch */
    }
    return this.indexed ?? -1;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      let caughtUp = true;
      this.stepSince = Date.now();
      try {
        caughtUp = await this.step();
        failures = 0;
        this.lastError = null;
        this.lastProgressAt = Date.now();
      } catch (error) {
        if (this.stopped) break; // its calls to the node were aborted
        failures++;
        this.lastError = error instanceof Error ? error.message : String(error);
        if (failures === 1 || failures % 20 === 0) {
          this.options.log.warn({ failures, err: error }, `indexer ${this.source.chain}: ${this.lastError} (retrying)`);
        }
      } finally {
        this.stepSince = null;
      }
      if (this.stopped) break;
      if (caughtUp || failures > 0) {
        const delay =
          failures > 0 ? Math.min(this.options.pollIntervalMs * 2 ** failures, 10_000) : this.options.pollIntervalMs;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wake = () => (clearTimeout(timer), resolve());
        });
        this.wake = undefined;
      }
    }
  }

  /** One batch; true when the cursor is at the indexable head. */
  async step(): Promise<boolean> {
    if (!this.projectionsCurrent) await this.upgradeProjections();
    // The chain's latest block, which commits by its hash to every block below it: the same block as
    // when the last step found the cursor at the indexable head means no new block and no reorg since,
    // so an idle poll is this one request (not the cursor's query and two more) (decision 0178).
    const latest = await this.rpc.getBlock("latest");
    if (latest === null) throw new Error("the node has no latest block");
    if (this.idleAt !== undefined && latest.number === this.idleAt.number && latest.hash === this.idleAt.hash) {
      return true;
    }
    this.idleAt = undefined;
    const cursor = await this.cursor();
    if (cursor.hash !== "") {
      const block = await this.rpc.getBlock(cursor.number);
      if (block?.hash !== cursor.hash) {
        await this.rollBack(cursor.number);
        return false;
      }
    }
    this.indexed = cursor.number;
    this.notify();

    const head = latest.number;
    this.head = head;
    const target = head - this.source.confirmations;
    if (target <= cursor.number) {
      this.idleAt = { number: latest.number, hash: latest.hash! };
      return true;
    }
    const to = Math.min(cursor.number + this.options.batchBlocks, target);
    const from = cursor.number + 1;

    const toBlock = await this.rpc.getBlock(to);
    const logs =
      this.byAddress.size === 0
        ? []
        : await this.rpc.getLogs({ address: [...this.byAddress.keys()], fromBlock: from, toBlock: to });
    const toAgain = await this.rpc.getBlock(to);
    if (toBlock === null || toAgain === null || toBlock.hash !== toAgain.hash) {
      throw new Error(`block ${to} changed while reading it (reorg in progress)`);
    }
    const stored = await this.decode(logs);

    await this.db.transaction(async (tx) => {
      const fresh = new Set<string>();
      for (let i = 0; i < stored.length; i += 500) {
        const inserted = await tx
          .insert(events)
          .values(stored.slice(i, i + 500))
          .onConflictDoNothing()
          .returning({ blockNumber: events.blockNumber, logIndex: events.logIndex });
        for (const r of inserted) fresh.add(`${r.blockNumber}:${r.logIndex}`);
      }
      for (const e of stored) {
        if (!fresh.has(`${e.blockNumber}:${e.logIndex}`)) continue;
        await this.apply(tx, e);
        await this.options.sink?.indexed(tx, e, this.context);
      }
      const seen = new Map<number, { hash: string; timestamp: number }>();
      for (const e of stored) seen.set(e.blockNumber, { hash: e.blockHash, timestamp: e.timestamp });
      seen.set(to, { hash: toBlock.hash!, timestamp: toBlock.timestamp });
      for (const [number, b] of seen) {
        await tx
          .insert(blocks)
          .values({ chainId: this.source.chainId, number, hash: b.hash, timestamp: b.timestamp })
          .onConflictDoUpdate({
            target: [blocks.chainId, blocks.number],
            set: { hash: b.hash, timestamp: b.timestamp },
          });
      }
      await this.saveCursor(tx, to, toBlock.hash!);
    });
    this.options.sink?.committed();
    this.indexed = to;
    if (stored.length > 0) this.options.onCommit?.();
    this.notify();
    return to >= target;
  }

  private async apply(tx: Tx, e: StoredEvent): Promise<void> {
    const module = this.byAddress.get(e.address.toLowerCase())?.module;
    await module?.apply?.(tx, e, this.context);
    await this.options.afterApply?.(e);
  }

  /** Decodes logs in chain order, with block times and enrichments. */
  private async decode(logs: readonly Log[]): Promise<StoredEvent[]> {
    // the blocks' times, read at once (one batch) and awaited together: when the batch fails (a stop's
    // abort, a timeout), every read fails with it, and each failure is handled here, not left unawaited
    const numbers = [...new Set(logs.map((log) => log.blockNumber))];
    const blocks = await Promise.all(numbers.map((n) => this.rpc.getBlock(n)));
    const times = new Map<number, Block | null>(numbers.map((n, i) => [n, blocks[i]]));
    const out: StoredEvent[] = [];
    for (const log of logs) {
      const block = times.get(log.blockNumber)!;
      if (block === null || block.hash !== log.blockHash) {
        throw new Error(`block ${log.blockNumber} changed while reading its logs (reorg in progress)`);
      }
      const source = this.byAddress.get(log.address.toLowerCase())!;
      const parsed = source.module?.iface.parseLog({ topics: [...log.topics], data: log.data }) ?? null;
      const event: StoredEvent = {
        chainId: this.source.chainId,
        blockNumber: log.blockNumber,
        logIndex: log.index,
        blockHash: log.blockHash,
        txHash: log.transactionHash,
        timestamp: block.timestamp,
        contract: source.contract,
        address: log.address,
        name: parsed?.name ?? "unknown",
        args:
          parsed === null
            ? { topics: [...log.topics], data: log.data }
            : (plain(parsed.args) as Record<string, unknown>),
      };
      if (parsed !== null && source.module?.enrich !== undefined) {
        Object.assign(event.args, await source.module.enrich(event, this.rpc, this.context));
      }
      out.push(event);
    }
    return out;
  }

  private async cursor(): Promise<{ number: number; hash: string }> {
    const [row] = await this.db.select().from(cursors).where(eq(cursors.chainId, this.source.chainId));
    return row === undefined
      ? { number: this.source.startBlock - 1, hash: "" }
      : { number: row.blockNumber, hash: row.blockHash };
  }

  private async saveCursor(tx: Tx, number: number, hash: string): Promise<void> {
    const values = {
      chainId: this.source.chainId,
      chain: this.source.chain,
      blockNumber: number,
      blockHash: hash,
      updatedAt: Math.floor(Date.now() / 1000),
      projectionVersion: PROJECTION_VERSION,
    };
    await tx.insert(cursors).values(values).onConflictDoUpdate({ target: cursors.chainId, set: values });
  }

  /**
   * The block under the cursor is no longer on the chain: find the last stored block that still
   * is, drop everything above it and rebuild the projections from the events that remain.
   */
  private async rollBack(cursorBlock: number): Promise<void> {
    const chainId = this.source.chainId;
    let ancestor = { number: this.source.startBlock - 1, hash: "" };
    let below = cursorBlock;
    while (ancestor.hash === "") {
      const candidates = await this.db
        .select()
        .from(blocks)
        .where(and(eq(blocks.chainId, chainId), lt(blocks.number, below)))
        .orderBy(desc(blocks.number))
        .limit(50);
      if (candidates.length === 0) break;
      for (const candidate of candidates) {
        const onChain = await this.rpc.getBlock(candidate.number);
        if (onChain?.hash === candidate.hash) {
          ancestor = { number: candidate.number, hash: candidate.hash };
          break;
        }
      }
      below = candidates[candidates.length - 1].number;
    }
    this.reorgs++;
    this.options.log.warn(
      { block: cursorBlock, ancestor: ancestor.number },
      `indexer ${this.source.chain}: reorg below block ${cursorBlock}; rewinding to block ${ancestor.number} and rebuilding`,
    );
    await this.db.transaction(async (tx) => {
      await tx.delete(events).where(and(eq(events.chainId, chainId), gt(events.blockNumber, ancestor.number)));
      await tx.delete(blocks).where(and(eq(blocks.chainId, chainId), gt(blocks.number, ancestor.number)));
      await this.options.sink?.retract(tx, chainId, ancestor.number);
      await this.rebuild(tx);
      if (ancestor.hash === "") await tx.delete(cursors).where(eq(cursors.chainId, chainId));
      else await this.saveCursor(tx, ancestor.number, ancestor.hash);
    });
    this.indexed = ancestor.number;
    this.options.onCommit?.();
  }

  /** Deletes the chain's projections and applies its stored events again, in chain order. */
  private async rebuild(tx: Tx): Promise<void> {
    const chainId = this.source.chainId;
    for (const table of PROJECTIONS) await tx.delete(table).where(eq(table.chainId, chainId));
    for (let offset = 0; ; offset += 1000) {
      const page = await tx
        .select()
        .from(events)
        .where(eq(events.chainId, chainId))
        .orderBy(asc(events.blockNumber), asc(events.logIndex))
        .limit(1000)
        .offset(offset);
      for (const e of page) await this.apply(tx, e);
      if (page.length < 1000) break;
    }
  }

  /**
   * Tables an older projection code built (the cursor's `projectionVersion` below
   * {@link PROJECTION_VERSION}) are rebuilt from the stored events, once: the cursor row is locked
   * while it happens, so a second gateway on the same database waits and then finds it done.
   */
  private async upgradeProjections(): Promise<void> {
    const chainId = this.source.chainId;
    let rebuilt = false;
    await this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(cursors).where(eq(cursors.chainId, chainId)).for("update");
      if (row === undefined || row.projectionVersion >= PROJECTION_VERSION) return;
      await this.rebuild(tx);
      await tx.update(cursors).set({ projectionVersion: PROJECTION_VERSION }).where(eq(cursors.chainId, chainId));
      rebuilt = true;
    });
    this.projectionsCurrent = true;
    if (rebuilt) {
      this.options.log.info(
        { projectionVersion: PROJECTION_VERSION },
        `indexer ${this.source.chain}: projections rebuilt from the stored events (projection version ${PROJECTION_VERSION})`,
      );
      this.options.onCommit?.();
    }
  }

  private notify(): void {
    for (const waiter of this.waiters) {
      if (this.indexed !== null && this.indexed >= waiter.block) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }
}
