import { bigint, index, integer, numeric, pgTable, text } from "drizzle-orm/pg-core";

/**
 * Bridge transfers as each side records them (`Bridge` events). A transfer touches two chains whose
 * indexers run independently, so each side has its own table keyed by the CCIP message id and owned
 * by the chain that emitted the events: a reorg rebuild of one chain's projections then never
 * erases what the other chain saw. `GET /bridge/status/:message_id` joins the two.
 */

const amount = (name: string) => numeric(name, { precision: 78, scale: 0 });
const seconds = (name: string) => bigint(name, { mode: "number" });

/** Source side: `MessageSent` (tokens burned or escrowed, fees paid). */
export const bridgeSends = pgTable(
  "bridge_sends",
  {
    /** The source chain (the one that emitted `MessageSent`). */
    chainId: integer("chain_id").notNull(),
    messageId: text("message_id").primaryKey(),
    /** CCIP selector of the destination, as a decimal string (selectors exceed 2^63). */
    destinationSelector: text("destination_selector").notNull(),
    sender: text("sender").notNull(),
    senderLower: text("sender_lower").notNull(),
    recipient: text("recipient").notNull(),
    /** Token address on the source chain and which of the bridge's tokens it is (`sSTB`, `STBGOV`). */
    token: text("token").notNull(),
    tokenSymbol: text("token_symbol").notNull(),
    amount: amount("amount").notNull(),
    feeOption: text("fee_option").notNull(),
    fee: amount("fee").notNull(),
    transportFee: amount("transport_fee").notNull(),
    createdAt: seconds("created_at").notNull(),
    txHash: text("tx_hash").notNull(),
  },
  (t) => [index("bridge_sends_sender").on(t.senderLower)],
);

/** Destination side: `MessageReceived`, then `MessageQueued`/`MessageCompleted` if the delivery waited. */
export const bridgeReceipts = pgTable("bridge_receipts", {
  /** The destination chain (the one that emitted `MessageReceived`). */
  chainId: integer("chain_id").notNull(),
  messageId: text("message_id").primaryKey(),
  sourceSelector: text("source_selector").notNull(),
  sender: text("sender").notNull(),
  recipient: text("recipient").notNull(),
  token: text("token").notNull(),
  tokenSymbol: text("token_symbol").notNull(),
  amount: amount("amount").notNull(),
  /** `queued` while a delivery waits (paused bridge or inbound limit), then `completed`, or `refused` (its peer forgotten). */
  status: text("status").notNull(),
  receivedAt: seconds("received_at").notNull(),
  completedAt: seconds("completed_at"),
  /** The transaction that minted or released the tokens (the arrival's, or the later `executeQueued`). */
  completedTxHash: text("completed_tx_hash"),
  txHash: text("tx_hash").notNull(),
});
