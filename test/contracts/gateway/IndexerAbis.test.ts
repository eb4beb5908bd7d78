import { expect } from "chai";
import { Interface } from "ethers";
import type { InterfaceAbi } from "ethers";
import { artifacts } from "hardhat";

import { DEVNET_CCIP_ROUTER_EVENTS, MODULES } from "../../../gateway/indexer/modules/index.js";

/** Every event of an interface as `Name(type indexed name,...)`, sorted. */
function events(iface: Interface): string[] {
  const all: string[] = [];
  iface.forEachEvent((e) => all.push(e.format("full")));
  return all.sort();
}

async function artifact(name: string): Promise<Interface> {
  return new Interface((await artifacts.readArtifact(name)).abi as InterfaceAbi);
}

describe("The indexer's ABIs (the SDK's, and the devnet router's events written in the gateway)", function () {
  it("decodes the devnet CCIP router's events exactly as the compiled contract declares them", async function () {
    const router = await artifact("DevnetCCIPRouter");
    expect(events(DEVNET_CCIP_ROUTER_EVENTS)).to.deep.equal(events(router));
  });

  it("decodes the protocol contracts' events as the compiled contracts declare them", async function () {
    for (const contract of ["RedemptionManager", "ProviderRegistry", "SSTB", "Bridge"]) {
      const module = MODULES.find((m) => m.contract === contract)!;
      expect(events(module.iface), contract).to.deep.equal(events(await artifact(contract)));
    }
  });
});
