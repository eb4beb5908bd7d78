import { Interface, parseEther } from "ethers";

import { rpc } from "./wallet";

/** The deployment as the portal reads it (the gateway's /portal/config.json). */
export async function deploymentOf(gatewayUrl: string): Promise<{ chain: { contracts: Record<string, string> } }> {
  return (await (await fetch(`${gatewayUrl}/portal/config.json`)).json()) as {
    chain: { contracts: Record<string, string> };
  };
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
  for (let i = 0; i < 100; i++) {
    const receipt = await rpc<{ status: string } | null>(rpcUrl, "eth_getTransactionReceipt", [hash]);
    if (receipt !== null) return hash;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`transfer ${hash} was not mined`);
}
