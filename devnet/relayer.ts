import { readFile, rename, writeFile } from "node:fs/promises";

import { EXECUTION_STATES } from "@compute-capacity/sdk";
import type { DevnetCCIPRouter } from "../typechain-types/index.js";

/**
 * DEVNET ONLY. The relayer plays CCIP's executing network between the devnet's CCIP routers
 * (`DevnetCCIPRouter`): it reads each router's `CCIPSendRequested` events from a cursor on, and on
 * the destination chain executes every message that has not succeeded there. On real chains CCIP
 * delivers and nothing of ours relays.
 *
 * - Resumable: the cursor (last block read per chain, and the deliveries that failed) can be kept in
 *   a file; a restarted relayer continues from it.
 * - Idempotent: a message is executed only while the destination router says it has not succeeded,
 *   so a rescan, a second relayer run or a lost cursor never delivers twice (the router and the
 *   bridge refuse a second execution anyway).
 * - Explicit gas: each execution carries the message's gas limit plus a margin as the transaction's
 *   gas limit. Estimating it would settle where the receiver's call runs out of gas inside the
 *   router's try/catch and record a message that would succeed as failed.
 * - Retries: a failed delivery (the receiver reverted) is retried on later passes, after
 *   `retryDelayMs`, until it succeeds; the router keeps it re-executable.
 */

/** One chain the relayer serves: its CCIP selector and its devnet router, connected to the relayer. */
export interface RelayerChain {
  name: string;
  selector: bigint;
  router: DevnetCCIPRouter;
}

/** A message seen on a source router, as the destination router needs it to execute. */
export interface PendingMessage {
  messageId: string;
  source: string;
  destination: string;
  sourceSelector: string;
  sequenceNumber: string;
  sender: string;
  receiver: string;
  data: string;
  gasLimit: string;
  attempts: number;
  /** Wall-clock time (ms) of the last failed attempt. */
  lastAttempt?: number;
}

/** Where the relayer is: the last block read per chain, and the deliveries to retry. */
export interface RelayerCursor {
  blocks: Record<string, number>;
  failed: PendingMessage[];
}

/** The outcome of one execution. */
export interface RelayedMessage {
  messageId: string;
  source: string;
  destination: string;
  state: (typeof EXECUTION_STATES)[number];
  gasUsed: bigint;
  transactionHash: string;
}

export interface RelayerOptions {
  /** Start from this cursor (default: the file's, else block 0 on every chain). */
  cursor?: RelayerCursor;
  /** Keep the cursor in this JSON file, read at `load()` and written after every pass. */
  cursorFile?: string;
  /** Transaction gas on top of the message's gas limit (router bookkeeping, ERC-165 checks). */
  gasMargin?: bigint;
  /** Wait this long before retrying a failed delivery. */
  retryDelayMs?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

/** Gas the destination router needs beyond the receiver's gas limit (measured about 60,000). */
export const DEFAULT_GAS_MARGIN = 150_000n;

export class Relayer {
  private readonly chains: RelayerChain[];
  private cursorState: RelayerCursor;
  private readonly options: Required<Omit<RelayerOptions, "cursor" | "cursorFile">> & { cursorFile?: string };
  private readonly delivered = new Map<string, RelayedMessage>();
  private readonly waiters = new Map<string, Array<(m: RelayedMessage) => void>>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(chains: readonly RelayerChain[], options: RelayerOptions = {}) {
    this.chains = [...chains];
    this.cursorState = options.cursor ?? { blocks: {}, failed: [] };
    this.options = {
      gasMargin: options.gasMargin ?? DEFAULT_GAS_MARGIN,
      retryDelayMs: options.retryDelayMs ?? 1_000,
      log: options.log ?? (() => {}),
      cursorFile: options.cursorFile,
    };
  }

  /** Reads the cursor file, if one is configured and exists. */
  async load(): Promise<this> {
    if (this.options.cursorFile === undefined) return this;
    try {
      this.cursorState = JSON.parse(await readFile(this.options.cursorFile, "utf8")) as RelayerCursor;
      this.options.log(`relayer: resuming from ${this.options.cursorFile}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    return this;
  }

  /** A copy of the cursor. */
  cursor(): RelayerCursor {
    return structuredClone(this.cursorState);
  }

  /**
   * One pass: reads every router's new send events up to its latest block, executes each message
   * on its destination unless it already succeeded there, then retries failed deliveries whose
   * delay has passed. Returns the executions made.
   */
  async poll(): Promise<RelayedMessage[]> {
    const passStart = Date.now();
    const results: RelayedMessage[] = [];
    for (const chain of this.chains) {
      const provider = chain.router.runner!.provider!;
      const latest = await provider.getBlockNumber();
      const from = (this.cursorState.blocks[chain.name] ?? -1) + 1;
      if (from > latest) continue;
      const events = await chain.router.queryFilter(chain.router.filters.CCIPSendRequested(), from, latest);
      for (const event of events) {
        const destination = this.chains.find((c) => c.selector === event.args.destinationChainSelector);
        if (destination === undefined) {
          this.options.log(
            `relayer: ${event.args.messageId} goes to unknown chain ${event.args.destinationChainSelector}`,
          );
          continue;
        }
        const message: PendingMessage = {
          messageId: event.args.messageId,
          source: chain.name,
          destination: destination.name,
          sourceSelector: chain.selector.toString(),
          sequenceNumber: event.args.sequenceNumber.toString(),
          sender: event.args.sender,
          receiver: event.args.receiver,
          data: event.args.data,
          gasLimit: event.args.gasLimit.toString(),
          attempts: 0,
        };
        const result = await this.execute(message);
        if (result !== undefined) results.push(result);
      }
      this.cursorState.blocks[chain.name] = latest;
      await this.save();
    }
    // failures of earlier passes whose delay is over (not the ones this pass just recorded)
    const retry = this.cursorState.failed.filter(
      (m) => (m.lastAttempt ?? 0) < passStart && passStart - (m.lastAttempt ?? 0) >= this.options.retryDelayMs,
    );
    for (const message of retry) {
      this.cursorState.failed = this.cursorState.failed.filter((m) => m.messageId !== message.messageId);
      const result = await this.execute(message);
      if (result !== undefined) results.push(result);
    }
    if (retry.length > 0) await this.save();
    return results;
  }

  /** Polls every `intervalMs` until {stop}; errors are logged and the next pass tries again. */
  start(intervalMs = 250): void {
    const tick = async () => {
      try {
        await this.poll();
      } catch (error) {
        this.options.log(`relayer: pass failed, retrying: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (this.timer !== undefined) this.timer = setTimeout(() => (this.running = tick()), intervalMs);
    };
    this.timer = setTimeout(() => (this.running = tick()), 0);
  }

  /** Stops polling and waits for a pass in progress. */
  async stop(): Promise<void> {
    const timer = this.timer;
    this.timer = undefined;
    if (timer !== undefined) clearTimeout(timer);
    await this.running;
  }

  /** Resolves when this relayer has delivered `messageId` successfully (polling or not). */
  waitFor(messageId: string, timeoutMs = 30_000): Promise<RelayedMessage> {
    const done = this.delivered.get(messageId);
    if (done !== undefined) return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`message ${messageId} not delivered in ${timeoutMs} ms`)),
        timeoutMs,
      );
      const list = this.waiters.get(messageId) ?? [];
      list.push((m) => {
        clearTimeout(timer);
        resolve(m);
      });
      this.waiters.set(messageId, list);
    });
  }

  /** Executes one message on its destination unless it already succeeded there. */
  private async execute(message: PendingMessage): Promise<RelayedMessage | undefined> {
    const destination = this.chains.find((c) => c.name === message.destination)!;
    const router = destination.router;
    const state = EXECUTION_STATES[Number(await router.executionState(message.sourceSelector, message.sequenceNumber))];
    if (state === "success") return undefined;
    const gasLimit = BigInt(message.gasLimit);
    const tx = await router.execute(
      message.sourceSelector,
      message.sequenceNumber,
      message.sender,
      message.receiver,
      message.data,
      gasLimit,
      0n,
      { gasLimit: gasLimit + this.options.gasMargin },
    );
    const receipt = (await tx.wait())!;
    const log = receipt.logs
      .map((l) => {
        try {
          return router.interface.parseLog(l);
        } catch {
          return null;
        }
      })
      .find((l) => l?.name === "ExecutionStateChanged");
    const outcome = EXECUTION_STATES[Number(log!.args.state)];
    const result: RelayedMessage = {
      messageId: message.messageId,
      source: message.source,
      destination: message.destination,
      state: outcome,
      gasUsed: receipt.gasUsed,
      transactionHash: receipt.hash,
    };
    const short = `${message.messageId.slice(0, 10)}… ${message.source} -> ${message.destination}`;
    if (outcome === "success") {
      this.options.log(
        `relayer: delivered ${short} (gas ${receipt.gasUsed}${message.attempts > 0 ? `, attempt ${message.attempts + 1}` : ""})`,
      );
      this.delivered.set(message.messageId, result);
      for (const resolve of this.waiters.get(message.messageId) ?? []) resolve(result);
      this.waiters.delete(message.messageId);
    } else {
      this.options.log(`relayer: delivery of ${short} failed on the destination; will retry`);
      this.cursorState.failed.push({ ...message, attempts: message.attempts + 1, lastAttempt: Date.now() });
    }
    return result;
  }

  private async save(): Promise<void> {
    if (this.options.cursorFile === undefined) return;
    const tmp = `${this.options.cursorFile}.tmp`;
    await writeFile(tmp, JSON.stringify(this.cursorState, null, 2) + "\n");
    await rename(tmp, this.options.cursorFile);
  }
}
