import { readFile, readdir } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";
import { Interface, getAddress } from "ethers";

import {
  contractAbis,
  decodeRevertData,
  encodeFunctionCall,
  protocolErrorsAbi,
  redemptionManagerAbi,
  redemptionViewsAbi,
  spotMarketAbi,
} from "@compute-capacity/sdk";
import type { FunctionArgs, FunctionResult, TypedContract } from "@compute-capacity/sdk";
import { ABIS_DIR, SDK_CONTRACTS, abiNameOf, renderAbiModules } from "../../../tools/sdk-abis.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");

async function artifactAbi(contract: string): Promise<unknown[]> {
  const dir = path.join(ROOT, "artifacts", "contracts");
  const file = (await readdir(dir, { recursive: true })).find((f) => f.endsWith(`${contract}.sol/${contract}.json`))!;
  return (JSON.parse(await readFile(path.join(dir, file), "utf8")) as { abi: unknown[] }).abi;
}

describe("the SDK's ABI modules (sdk/abis/, npm run sdk:abis)", function () {
  this.timeout(60_000);

  it("are what npm run sdk:abis generates from the compiled contracts today, and nothing else", async function () {
    const generated = await renderAbiModules(ROOT);
    const committed = (await readdir(path.join(ROOT, ABIS_DIR))).map((name) => `${ABIS_DIR}/${name}`).sort();
    expect(committed, `run npm run sdk:abis: ${ABIS_DIR}/ has other files than it writes`).to.deep.equal(
      [...generated.keys()].sort(),
    );
    for (const [file, text] of generated) {
      const current = await readFile(path.join(ROOT, file), "utf8");
      if (current !== text) expect.fail(`${file} is stale: run npm run sdk:abis`);
    }
  });

  it("hold each contract's functions, events and errors as compiled, with no bytecode", async function () {
    for (const contract of SDK_CONTRACTS) {
      const abi = contractAbis[contract];
      const fromArtifact = new Interface((await artifactAbi(contract)) as never);
      expect(new Interface(abi as never).format(), contract).to.deep.equal(fromArtifact.format());
      expect(abiNameOf(contract)).to.match(/^[a-z][A-Za-z]*$/);
    }
    for (const name of await readdir(path.join(ROOT, ABIS_DIR))) {
      expect(await readFile(path.join(ROOT, ABIS_DIR, name), "utf8")).to.not.match(/bytecode|0x60806040/);
    }
  });

  it("decode every custom error of every contract from the errors module alone", function () {
    const errors = new Interface(protocolErrorsAbi as never);
    for (const contract of SDK_CONTRACTS) {
      for (const fragment of new Interface(contractAbis[contract] as never).fragments) {
        if (fragment.type !== "error") continue;
        const error = errors.getError(fragment.format("sighash"));
        expect(error, `${contract}.${fragment.format("sighash")}`).to.not.equal(null);
      }
    }
    const data = new Interface(spotMarketAbi as never).encodeErrorResult("MarketNotMaker", [
      7n,
      "0x" + "11".repeat(20),
    ]);
    expect(decodeRevertData(data)).to.deep.include({ errorName: "MarketNotMaker" });
  });

  it("type calls, results and contracts from the ABI (checked by tsc, npm run lint)", function () {
    // compile-time checks: each @ts-expect-error line must be an error, or tsc fails
    const typeChecks = (manager: TypedContract<typeof redemptionManagerAbi>) => {
      const args: FunctionArgs<typeof redemptionManagerAbi, "initiateRedemption"> = [1n, "0x" + "00".repeat(20)];
      // @ts-expect-error the provider is an address, not a number
      const wrong: FunctionArgs<typeof redemptionManagerAbi, "initiateRedemption"> = [1n, 2n];
      // @ts-expect-error no such function
      encodeFunctionCall(redemptionManagerAbi, "initiateRedemptions", [1n]);
      // @ts-expect-error one argument too many
      encodeFunctionCall(redemptionManagerAbi, "confirmRedemption", [1n, 2n]);
      const fee: FunctionResult<typeof redemptionViewsAbi, "feeBps"> = 10n;
      const record = async () => {
        const r = await manager.redemptions(1n);
        const user: string = r.user;
        const amount: bigint = r.amount;
        // @ts-expect-error a record has no such field
        void r.price;
        return [user, amount];
      };
      return [args, wrong, fee, record];
    };
    expect(typeChecks).to.be.a("function");
    const provider = "0x" + "ab".repeat(20);
    const data = encodeFunctionCall(redemptionManagerAbi, "initiateRedemption", [5n, provider]);
    const decoded = new Interface(redemptionManagerAbi as never).decodeFunctionData("initiateRedemption", data);
    expect([...decoded]).to.deep.equal([5n, getAddress(provider)]);
  });
});
