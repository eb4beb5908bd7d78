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
import { SDK_CONTRACTS } from "../../../tools/sdk-abis.js";

describe("the SDK's ABI modules (sdk/abis/, npm run sdk:abis)", function () {
  this.timeout(60_000);

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
