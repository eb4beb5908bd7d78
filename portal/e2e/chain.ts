import { Interface, parseEther } from "ethers";

import { chainSelectorOf } from "@compute-capacity/sdk/constants";
import { bridgeAbi } from "@compute-capacity/sdk/abis";
import type { PortalChain, PortalConfig } from "@compute-capacity/sdk";

import { rpc } from "./wallet";

/** The deployment as the portal reads it (the gateway's /portal/config.json), every chain included. */
export async function deploymentOf(gatewayUrl: string): Promise<PortalConfig> {
  return (await (await fetch(`${gatewayUrl}/portal/config.json`)).json()) as PortalConfig;
}

/** An sSTB transfer between two of the node's unlocked accounts (an event for webhooks); waits for it to be mined. */
export async function transferSstb(
  rpcUrl: string,
  sstb: string,
  from: string,
  to: string,
  amount: string,
): Promise<string> {
  const data = new Interface(["function transfer(address to, uint256 amount)"]).encodeFunctionData("transfer", [
    to,
    parseEther(amount),
  ]);
  const hash = await rpc<string>(rpcUrl, "eth_sendTransaction", [{ from, to: sstb, data }]);
  await mined(rpcUrl, hash);
  return hash;
}

const BRIDGE = new Interface(bridgeAbi);

/**
 * Sets `chain`'s inbound limit of sSTB from `source` as its governance would (the devnet node impersonates
 * the chain's SatelliteExecutor, whose address the devnet printed); `restore` puts the previous limit back.
 */
export async function setInboundSstbLimit(
  devnet: { printed: string },
  chain: PortalChain,
  source: PortalChain,
  limit: { capacity: string; rate: string },
): Promise<{ restore: () => Promise<void> }> {
  const url = chain.wallet_rpc_urls[0]!;
  const executor = new RegExp(`Contracts on ${chain.name}:[\\s\\S]*?SatelliteExecutor\\s+(0x[0-9a-fA-F]{40})`).exec(
    devnet.printed,
  )?.[1];
  if (executor === undefined) throw new Error(`the devnet printed no SatelliteExecutor for ${chain.name}`);
  const bridge = chain.contracts.Bridge!;
  const selector = chainSelectorOf(source.chain_id);
  const read = BRIDGE.encodeFunctionData("rateLimitOf", [selector, 0, false]);
  const [previous] = BRIDGE.decodeFunctionResult(
    "rateLimitOf",
    await rpc<string>(url, "eth_call", [{ to: bridge, data: read }]),
  );
  await rpc(url, "hardhat_impersonateAccount", [executor]);
  await rpc(url, "hardhat_setBalance", [executor, "0xde0b6b3a7640000"]);
  const set = async (config: readonly [boolean, bigint, bigint]) => {
    const data = BRIDGE.encodeFunctionData("setRateLimit", [selector, 0, false, config]);
    await mined(url, await rpc<string>(url, "eth_sendTransaction", [{ from: executor, to: bridge, data }]));
  };
  await set([true, parseEther(limit.capacity), parseEther(limit.rate)]);
  const before = previous as unknown as { enabled: boolean; capacity: bigint; rate: bigint };
  return {
    // the previous limit back, and whatever a failed test left in the queue delivered (a queue that is not
    // empty would hold every later transfer from `source` behind it)
    restore: async () => {
      await set([before.enabled, before.capacity, before.rate]);
      for (let i = 0; i < 10; i++) {
        const queue = BRIDGE.encodeFunctionData("queueOf", [selector, 0]);
        const [head, length] = BRIDGE.decodeFunctionResult(
          "queueOf",
          await rpc<string>(url, "eth_call", [{ to: bridge, data: queue }]),
        ) as unknown as [string, bigint];
        if (length === 0n) return;
        // a minute of refill first (the restored limit lets a test's amounts through in a second or two)
        await rpc(url, "evm_increaseTime", [60]);
        const data = BRIDGE.encodeFunctionData("executeQueued", [head]);
        await mined(url, await rpc<string>(url, "eth_sendTransaction", [{ from: executor, to: bridge, data }]));
      }
    },
  };
}

/** Waits for `hash` to be mined on the node at `url`; throws if it reverted. */
async function mined(url: string, hash: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const receipt = await rpc<{ status: string } | null>(url, "eth_getTransactionReceipt", [hash]);
    if (receipt !== null) {
      if (receipt.status !== "0x1") throw new Error(`transaction ${hash} reverted`);
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`transaction ${hash} was not mined`);
}
