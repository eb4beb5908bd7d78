import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { parseEther } from "ethers";
import type { Signer } from "ethers";

import { createApiClient, fulfilRedemptionSync, generateAccessKeyPair, unwrap } from "@compute-capacity/sdk";
import type { ApiPaths } from "@compute-capacity/sdk";
import { webhookHandler } from "../gateway/webhooks/receiver.js";
import type { UnsignedTransaction } from "../gateway/writes/sender.js";

import type { RedemptionManager, SSTB } from "../typechain-types/index.js";
import { sampleAccessDetails } from "./samples.js";

/**
 * The demo's redemption once more, through the gateway's HTTP API with the user's API key. The
 * user's account is external (the gateway holds no key for it), so each write answers the
 * unsigned transactions and the user's wallet signs and sends them; the provider fulfils with its
 * own tooling, as providers do. Returns the redemption's id.
 */
export async function runHttpRedemption(
  gatewayUrl: string,
  apiKey: string,
  accounts: { user: Signer; provider: Signer },
  d: { sstb: SSTB; redemptionManager: RedemptionManager },
  chainId: bigint,
  log: (line: string) => void,
): Promise<bigint> {
  const { user, provider } = accounts;
  const api = createApiClient({ baseUrl: gatewayUrl, apiKey });
  // the user's account is external: every write answers unsigned transactions
  const unsigned = (outcome: { mode: string; transactions?: UnsignedTransaction[] }) => {
    if (outcome.transactions === undefined) throw new Error(`expected unsigned transactions, got mode ${outcome.mode}`);
    return outcome.transactions;
  };
  const signAndSend = async (transactions: UnsignedTransaction[]) => {
    let last;
    for (const t of transactions) {
      last = await (
        await user.sendTransaction({ to: t.to, data: t.data, value: BigInt(t.value), nonce: t.nonce, gasLimit: t.gas })
      ).wait();
      log(`    signed and sent ${t.description} (nonce ${t.nonce})`);
    }
    return last!;
  };

  await (await d.sstb.connect(provider).transfer(await user.getAddress(), parseEther("2"))).wait();
  const providerId = await provider.getAddress();
  const body = { sstb_amount: 1, provider_id: providerId };
  log(`  POST /v1/redemptions ${JSON.stringify(body)}`);
  const redeemed = unwrap(await api.POST("/v1/redemptions", { body }));
  log(`    mode ${redeemed.mode}: ${unsigned(redeemed).length} unsigned transactions`);
  const receipt = await signAndSend(unsigned(redeemed));
  const initiated = receipt.logs
    .map((entry) => d.redemptionManager.interface.parseLog(entry))
    .find((parsed) => parsed?.name === "RedemptionInitiated");
  const redemptionId = initiated!.args.redemptionId as bigint;
  log(`    redemption #${redemptionId} initiated`);

  const keys = generateAccessKeyPair();
  // the provider's own tooling: the SDK's fulfilment action, with its signer
  await fulfilRedemptionSync(
    { runner: provider, chainId, addresses: { RedemptionManager: await d.redemptionManager.getAddress() } },
    { redemptionId, details: sampleAccessDetails(redemptionId), userPublicKey: keys.publicKey },
  );
  log(`  the provider fulfilled #${redemptionId} with encrypted access details`);

  log(`  POST /v1/redemptions/${redemptionId}/confirm`);
  const confirmed = unwrap(
    await api.POST("/v1/redemptions/{redemptionId}/confirm", {
      params: { path: { redemptionId: Number(redemptionId) } },
    }),
  );
  await signAndSend(unsigned(confirmed));
  log(`    redemption #${redemptionId} confirmed`);
  return redemptionId;
}

/** A webhook event name, as the API's subscription body types it. */
type WebhookEvent = NonNullable<
  ApiPaths["/api/v1/webhooks"]["post"]["requestBody"]
>["content"]["application/json"]["events"][number];

/** A webhook the demo's receiver accepted (its signature checked by the receiver helper). */
export interface DemoWebhook {
  event: string;
  deliveryId: string;
  data: Record<string, unknown>;
}

/** The demo's webhook receiver on loopback, subscribed through the API with the user's key. */
export interface DemoReceiver {
  url: string;
  subscriptionId: string;
  received: DemoWebhook[];
  /** Resolves once a webhook matching `predicate` arrived; rejects after `timeoutMs`. */
  waitFor(predicate: (webhook: DemoWebhook) => boolean, timeoutMs?: number): Promise<DemoWebhook>;
  /**
   * Deletes the subscription (`DELETE /api/v1/webhooks/:id`) and stops the receiver: nothing the demo
   * subscribed outlives it (a subscription left behind would queue deliveries, retried for 24 hours,
   * to a receiver that is gone). Safe to call twice.
   */
  remove(): Promise<void>;
}

/**
 * Starts an HTTP receiver on loopback built on the gateway's receiver helper (every body's
 * `X-SERVICE-Signature` checked against the subscription's secret in constant time) and subscribes
 * it through `POST /api/v1/webhooks` to `events` that involve the key's account.
 */
export async function subscribeDemoReceiver(
  gatewayUrl: string,
  apiKey: string,
  events: readonly WebhookEvent[],
): Promise<DemoReceiver> {
  const received: DemoWebhook[] = [];
  let secret = "";
  const server = createServer(
    webhookHandler({ secrets: () => secret }, ({ event, deliveryId, payload }) => {
      if (!received.some((r) => r.deliveryId === deliveryId)) received.push({ event, deliveryId, data: payload.data });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  const api = createApiClient({ baseUrl: gatewayUrl, apiKey });
  let subscription: { subscription_id: string; secret: string };
  try {
    subscription = unwrap(
      await api.POST("/api/v1/webhooks", { body: { url, events: [...events], own_events_only: true } }),
    );
  } catch (error) {
    await close();
    throw error;
  }
  secret = subscription.secret;
  let removed = false;
  return {
    url,
    subscriptionId: subscription.subscription_id,
    received,
    async waitFor(predicate, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(predicate);
        if (found !== undefined) return found;
        if (Date.now() > until) throw new Error(`no matching webhook within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async remove() {
      if (removed) return;
      removed = true;
      try {
        unwrap(
          await api.DELETE("/api/v1/webhooks/{subscription_id}", {
            params: { path: { subscription_id: subscription.subscription_id } },
          }),
        );
      } finally {
        await close();
      }
    },
  };
}
