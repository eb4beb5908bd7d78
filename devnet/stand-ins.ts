import { ContractFactory, getAddress, toBeHex, zeroPadValue } from "ethers";
import type { Interface, InterfaceAbi, JsonRpcProvider, Signer } from "ethers";

/** A local node's JSON-RPC, as a `hardhat node` answers it (with the `hardhat_*` and `debug_*` methods). */
export type LocalRpc = Pick<JsonRpcProvider, "send" | "getCode" | "getStorage">;

/** A contract to put at a fixed address: its artifact's ABI and creation bytecode, and its constructor's arguments. */
export interface StandIn {
  abi: Interface | InterfaceAbi;
  bytecode: string;
  args: readonly unknown[];
}

/** What {@link placeStandIn} put where. */
export interface PlacedStandIn {
  address: string;
  /** Where it was deployed first (its constructor ran there; it stays, unused). */
  deployedAt: string;
  /** The storage slots its constructor wrote, copied to `address`. */
  slots: string[];
}

interface StructLog {
  op: string;
  depth: number;
  stack?: string[];
}

/**
 * Puts a contract at a fixed address of a local node, as `hardhat_setCode` allows: the address of
 * a real chain's USDC or CCIP router, say, so that a deployment's parameter files can be used
 * unchanged. `setCode` copies only runtime code, which holds the immutables but not what the
 * constructor stored, so the contract is first deployed normally (its constructor runs), the
 * deployment is traced (`debug_traceTransaction`) for every storage slot the constructor wrote in
 * its own frame, and then its runtime code and those slots (`hardhat_setStorageAt`) are copied to
 * the address. Refuses an address that already has code. Local nodes only.
 */
export async function placeStandIn(
  rpc: LocalRpc,
  deployer: Signer,
  target: string,
  standIn: StandIn,
): Promise<PlacedStandIn> {
  const address = getAddress(target);
  if ((await rpc.getCode(address)) !== "0x") {
    throw new Error(`${address} already has code: a stand-in goes only where nothing is`);
  }
  const contract = await new ContractFactory(standIn.abi, standIn.bytecode, deployer).deploy(...standIn.args);
  const deployment = contract.deploymentTransaction()!;
  await deployment.wait();
  const deployedAt = await contract.getAddress();

  const trace = (await rpc.send("debug_traceTransaction", [
    deployment.hash,
    { disableMemory: true, disableStorage: true, disableStack: false },
  ])) as { failed: boolean; structLogs: StructLog[] };
  if (trace.failed) throw new Error(`the stand-in's deployment at ${deployedAt} failed`);
  // the constructor's own frame is the outermost one; SSTORE's key is the top of the stack
  const outermost = Math.min(...trace.structLogs.map((l) => l.depth));
  const slots = [
    ...new Set(
      trace.structLogs
        .filter((l) => l.op === "SSTORE" && l.depth === outermost)
        .map((l) => zeroPadValue(toBeHex(BigInt(l.stack![l.stack!.length - 1])), 32)),
    ),
  ];

  const code = await rpc.getCode(deployedAt);
  await rpc.send("hardhat_setCode", [address, code]);
  for (const slot of slots) {
    await rpc.send("hardhat_setStorageAt", [address, slot, await rpc.getStorage(deployedAt, slot)]);
  }
  if ((await rpc.getCode(address)) !== code) throw new Error(`hardhat_setCode did not put the code at ${address}`);
  return { address, deployedAt, slots };
}
