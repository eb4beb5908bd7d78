import type { Sealer } from "../accounts/sealed.js";

/**
 * Subscription secrets at rest. The worker must sign with a secret, so it is kept recoverable (a
 * hash would not do): sealed with the gateway's master key (`GATEWAY_ACCOUNT_KEY`, the one that
 * seals managed accounts' keys) when one is configured, the subscription id as associated data
 * (a sealed secret copied onto another subscription does not open); in clear otherwise (the
 * gateway says so at start). Both forms are read, so configuring a master key later needs no
 * migration: secrets created or rotated from then on are sealed.
 */
export class WebhookSecrets {
  constructor(private readonly sealer?: Sealer) {}

  get sealing(): boolean {
    return this.sealer !== undefined;
  }

  /** What the database keeps for `secret`. */
  toStored(secret: string, subscriptionId: string): string {
    return this.sealer === undefined ? secret : this.sealer.seal(Buffer.from(secret, "utf8"), aad(subscriptionId));
  }

  /** The secret a stored value holds. */
  fromStored(stored: string, subscriptionId: string): string {
    if (stored.startsWith("whsec_")) return stored; // kept in clear
    if (this.sealer === undefined)
      throw new Error("a sealed webhook secret needs the master key (GATEWAY_ACCOUNT_KEY)");
    return this.sealer.open(stored, aad(subscriptionId)).toString("utf8");
  }
}

const aad = (subscriptionId: string) => `webhook-subscription:${subscriptionId}`;
