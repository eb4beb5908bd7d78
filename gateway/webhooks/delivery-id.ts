import { randomBytes } from "node:crypto";

/**
 * Delivery ids that sort in the order this process made them: UUID version 7 (RFC 9562), whose first 48
 * bits are the Unix time in milliseconds and whose next 12 bits (`rand_a`) are a counter within the
 * millisecond (the RFC's "fixed-length dedicated counter"), the remaining 62 bits random.
 *
 * The workers send a subscription's deliveries ordered by their due time, then their creation time,
 * then their id (`gateway/webhooks/worker.ts`). The first two are milliseconds: the events of one
 * indexed batch, or the deliveries one transaction queues, share them, and with random ids (version
 * 4) their order within a millisecond was random. With these, it is the order they were queued in
 * (decision 0186). The lowercase hexadecimal form sorts the same as text, in JavaScript and in
 * PostgreSQL.
 */
export class DeliveryIds {
  private lastMs = -1;
  private counter = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  /** The next id: later than every id this generator made before, whatever the clock did. */
  next(): string {
    const now = this.clock();
    if (now > this.lastMs) {
      this.lastMs = now;
      this.counter = 0;
    } else if (this.counter < 0xfff) {
      // the same millisecond, or a clock that went back: count on within the last one
      this.counter++;
    } else {
      // 4,096 ids in one millisecond: borrow the next one, as the RFC allows
      this.lastMs++;
      this.counter = 0;
    }
    const bytes = randomBytes(16);
    bytes.writeUIntBE(this.lastMs, 0, 6);
    bytes[6] = 0x70 | (this.counter >> 8);
    bytes[7] = this.counter & 0xff;
    bytes[8] = 0x80 | (bytes[8] & 0x3f);
    const hex = bytes.toString("hex");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}

/** The process's one generator: every delivery row this gateway queues takes its id from it. */
export const deliveryIds = new DeliveryIds();
