import { readFile } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";
import { Interface } from "ethers";
import type { InterfaceAbi } from "ethers";

import { DEVNET_CCIP_ROUTER_EVENTS, MODULES } from "../../../gateway/indexer/modules/index.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Every event of an interface as `Name(type indexed name,...)`, sorted. */
function events(iface: Interface): string[] {
  const all: string[] = [];
  iface.forEachEvent((e) => all.push(e.format("full")));
  return all.sort();
}

async function artifact(file: string): Promise<Interface> {
  const { abi } = JSON.parse(await readFile(path.join(ROOT, "artifacts", "contracts", file), "utf8")) as {
    abi: InterfaceAbi;
  };
  return new Interface(abi);
}

describe("The indexer's ABIs (the SDK's, and the devnet router's events written in the gateway)", function () {
  it("decodes the devnet CCIP router's events exactly as the compiled contract declares them", async function () {
    const router = await artifact("bridge/devnet/DevnetCCIPRouter.sol/DevnetCCIPRouter.json");
    expect(events(DEVNET_CCIP_ROUTER_EVENTS)).to.deep.equal(events(router));
  });

  it("decodes the protocol contracts' events as the compiled contracts declare them", async function () {
    const compiled: Record<string, string> = {
      RedemptionManager: "core/RedemptionManager.sol/RedemptionManager.json",
      ProviderRegistry: "core/ProviderRegistry.sol/ProviderRegistry.json",
      SSTB: "tokens/SSTB.sol/SSTB.json",
      Bridge: "bridge/Bridge.sol/Bridge.json",
    };
    for (const [contract, file] of Object.entries(compiled)) {
      const module = MODULES.find((m) => m.contract === contract)!;
      expect(events(module.iface), contract).to.deep.equal(events(await artifact(file)));
    }
  });
});
