import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { parseEther } from "ethers";
import type { Signer } from "ethers";

import {
  acceptRenewalSync,
  approveRedemptionSync,
  createProtocolClient,
  getAccessDetails,
  getLease,
  initiateRedemptionSync,
  registerDerivedAccessKey,
  terminateLeaseSync,
} from "@compute-capacity/sdk";
import type { Gateway } from "../gateway/server.js";
import { ProviderAgent } from "../provider/agent.js";
import type { ProviderConfig } from "../provider/config.js";
import type { SSTB } from "../typechain-types/index.js";
import { subscribeDemoReceiver } from "./http-demo.js";
import type { DemoReceiver } from "./http-demo.js";

const DAY = 86_400;
const LEASE_EVENTS = [
  "redemption.initiated",
  "redemption.fulfilled",
  "redemption.renewal_offered",
  "redemption.renewed",
  "redemption.terminated",
  "redemption.lease_expiring",
  "redemption.lease_ended",
] as const;

/** The demo's provisioning command: a fake host per redemption, its access details on stdout. */
const PROVISION = `const r = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
console.log(JSON.stringify({ redemption_id: r.redemption_id, access_type: "ssh",
  hostname: "vm-" + r.redemption_id + ".devnet.example", port: 22, username: "lease" + r.redemption_id,
  ssh_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGRldm5ldC1sZWFzZS1kZW1v provider@devnet",
  resources: { cpu_cores: 8, memory_gb: 32, storage_gb: 500, bandwidth_mbps: 1000 },
  documentation_url: "https://docs.devnet.example/ssh" }));`;

/**
 * Leases (issue 19) on the devnet: the user registers the access key derived from its wallet's
 * signature; the provider agent (provider/, in this process) fulfils two redemptions with a 30-day
 * lease and offers each a renewal; the user accepts one and terminates it (the agent reclaims the
 * resources), the other runs to its end after a time jump (the agent reclaims it again); each
 * party's webhooks are shown. Everything it creates goes: the agent, its state, both subscriptions
 * and the provider's API key.
 */
export async function runLeaseDemo(
  gateway: Gateway,
  userApiKey: string,
  accounts: { user: Signer; provider: Signer; providerKey: string },
  d: {
    sstb: SSTB;
    redemptionManager: { getAddress(): Promise<string> };
    redemptionViews: { getAddress(): Promise<string> };
  },
  chain: { send(method: string, params: unknown[]): Promise<unknown> },
  rpcUrl: string,
  log: (line: string) => void,
): Promise<{ renewed: bigint; ended: bigint }> {
  const { user, provider } = accounts;
  const providerAddress = await provider.getAddress();
  const deployment = {
    RedemptionManager: await d.redemptionManager.getAddress(),
    RedemptionViews: await d.redemptionViews.getAddress(),
    SSTB: await d.sstb.getAddress(),
  };
  const userClient = await createProtocolClient({ runner: user, deployment, chainId: 42161n });
  const providerKey = await gateway.keys.create({
    tier: "premium",
    account: providerAddress,
    scopes: ["read", "write"], // write: to subscribe its receiver; the agent itself only reads
    label: "devnet lease demo (provider agent)",
  });
  const dir = await mkdtemp(path.join(tmpdir(), "devnet-lease-demo-"));
  const receivers: DemoReceiver[] = [];
  let agent: ProviderAgent | undefined;
  try {
    receivers.push(await subscribeDemoReceiver(gateway.url, userApiKey, LEASE_EVENTS));
    receivers.push(await subscribeDemoReceiver(gateway.url, providerKey.token, LEASE_EVENTS));
    const [forUser, forProvider] = receivers;
    log(`  the user's and the provider's lease events go to receivers at ${forUser.url} and ${forProvider.url}`);

    const { keys } = await registerDerivedAccessKey(userClient, {
      domain: new URL(gateway.url).host,
      uri: gateway.url,
    });
    log(`  1. the user registered its access key, derived from its wallet's signature: ${keys.publicKey}`);

    await writeFile(path.join(dir, "provision.cjs"), PROVISION);
    await writeFile(path.join(dir, "deprovision.cjs"), "");
    const config: ProviderConfig = {
      gatewayUrl: gateway.url,
      apiKey: providerKey.token,
      rpcUrl,
      privateKey: accounts.providerKey,
      provisionCommand: `node ${path.join(dir, "provision.cjs")}`,
      deprovisionCommand: `node ${path.join(dir, "deprovision.cjs")}`,
      stateFile: path.join(dir, "state.json"),
      leaseSeconds: 30 * DAY,
      renewal: { price: "1", extensionSeconds: 30 * DAY, beforeSeconds: 31 * DAY },
      pollMs: 300,
      attempts: 3,
      backoffMs: 500,
      commandTimeoutSeconds: 30,
      webhookPort: null,
      webhookHost: "127.0.0.1",
      webhookSecret: null,
      dryRun: false,
    };
    agent = new ProviderAgent(config, (line) => log(`     [agent] ${line.replace(/^provider: /, "")}`));
    await agent.start();

    await (await d.sstb.connect(provider).transfer(await user.getAddress(), parseEther("6"))).wait();
    const ids: bigint[] = [];
    for (const amount of ["2", "1"]) {
      await approveRedemptionSync(userClient, { amount: parseEther(amount) });
      const { redemptionId } = await initiateRedemptionSync(userClient, {
        amount: parseEther(amount),
        provider: providerAddress,
      });
      ids.push(redemptionId);
    }
    const [renewed, ended] = ids;
    log(`  2. the user redeemed 2 and 1 sSTB: redemptions #${renewed} and #${ended}`);
    const offered = async (id: bigint) => {
      for (const until = Date.now() + 60_000; Date.now() < until;) {
        const lease = await getLease(userClient, { leaseId: id });
        if (lease?.offer) return lease;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`no renewal offer on lease #${id} within a minute`);
    };
    const lease = await offered(renewed);
    const details = await getAccessDetails(userClient, { redemptionId: renewed, privateKey: keys.privateKey });
    log(
      `  3. the agent fulfilled both with a lease until ${new Date(Number(lease.end) * 1000).toISOString()}; ` +
        `the user opened #${renewed} with the derived key: ${details.username}@${details.hostname}`,
    );
    await offered(ended);
    log(`  4. the agent offered each a renewal: 30 days for 1 sSTB, valid until the lease's end`);

    await approveRedemptionSync(userClient, { amount: lease.offer!.price });
    const renewal = await acceptRenewalSync(userClient, {
      leaseId: renewed,
      price: lease.offer!.price,
      extension: lease.offer!.extension,
    });
    log(
      `  5. the user accepted on #${renewed}: renewal #${renewal.renewalId}, the lease now ends ` +
        new Date(Number(renewal.end) * 1000).toISOString(),
    );
    await terminateLeaseSync(userClient, { leaseId: renewed });
    log(`  6. the user terminated lease #${renewed}`);
    await forProvider.waitFor((w) => w.event === "redemption.terminated" && w.data.redemption_id === String(renewed));

    await chain.send("evm_increaseTime", [31 * DAY]);
    await chain.send("evm_mine", []);
    log(`  7. 31 days later lease #${ended} has run to its end`);
    await gateway.synced();
    await forUser.waitFor((w) => w.event === "redemption.lease_ended" && w.data.redemption_id === String(ended));
    // the agent reclaims both: the terminated lease and the ended one
    for (const until = Date.now() + 60_000; ;) {
      const state = JSON.parse(await readFile(config.stateFile, "utf8")) as {
        redemptions: Record<string, { deprovisioned?: string }>;
      };
      if (state.redemptions[String(renewed)]?.deprovisioned && state.redemptions[String(ended)]?.deprovisioned) break;
      if (Date.now() > until) throw new Error("the agent did not reclaim both leases within a minute");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    for (const receiver of [forUser, forProvider]) {
      for (const [event, id] of [
        ["redemption.renewal_offered", renewed],
        ["redemption.renewed", renewed],
        ["redemption.terminated", renewed],
        ["redemption.lease_ended", ended],
      ] as const) {
        await receiver.waitFor((w) => w.event === event && w.data.redemption_id === String(id));
      }
    }
    for (const [who, receiver] of [
      ["user", forUser],
      ["provider", forProvider],
    ] as const) {
      log(`  Webhooks the ${who} received:`);
      for (const w of receiver.received)
        log(`    ${w.event.padEnd(27)} #${w.data.redemption_id}  delivery ${w.deliveryId}`);
    }
    return { renewed, ended };
  } finally {
    // the demo leaves nothing behind: the agent, its state, the subscriptions and the provider's key
    await agent?.stop();
    for (const receiver of receivers) await receiver.remove();
    await gateway.keys.revoke(providerKey.key.keyId);
    await rm(dir, { recursive: true, force: true });
    log("  the agent stopped; its state, both subscriptions and the provider's API key are gone");
  }
}
