import type { Tx } from "../store/db.js";
import type { ChainContext, StoredEvent } from "./module.js";

/**
 * The indexer's port: what it tells about the events it indexes, inside its batch transaction.
 * The indexer defines it and knows nothing of who listens; the webhook outbox implements it
 * (gateway/webhooks/outbox.ts), and a gateway without webhooks passes none.
 */
export interface EventSink {
  /** After a newly indexed event's projection was applied (not when projections are rebuilt). */
  indexed(tx: Tx, event: StoredEvent, context: ChainContext): Promise<void>;
  /** A reorg removed the chain's events above `block`. */
  retract(tx: Tx, chainId: number, block: number): Promise<void>;
  /** The batch's transaction committed: what it queued is now visible to the workers. */
  committed(): void;
}
