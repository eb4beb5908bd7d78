import { expect } from "chai";
import { network } from "hardhat";
import { AbiCoder, concat, parseEther } from "ethers";

import { DevnetCCIPRouter__factory, MockStablecoin__factory } from "../../../typechain-types/index.js";
import { ARB, ETH } from "../../helpers/bridge.js";

/**
 * The devnet's stand-in for a CCIP router (devnet and tests only; never deployed on a real chain),
 * on its own: the lanes it serves, the messages it takes, the gas limit it reads from the extra
 * args, and executions to receivers that are not CCIP receivers. The bridge's use of it is in
 * Bridge.test.ts.
 */

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture } = networkHelpers;
const coder = AbiCoder.defaultAbiCoder();

const FEE = parseEther("0.001");
const EVM_EXTRA_ARGS_V1_TAG = "0x97a657c9";
const GENERIC_EXTRA_ARGS_V2_TAG = "0x181dcf10";
const OTHER_CHAIN = 777n;

async function routerFixture() {
  const [deployer, relayer, sender, receiver] = await ethers.getSigners();
  const router = await new DevnetCCIPRouter__factory(deployer).deploy(ARB, relayer.address, FEE, [ETH]);
  const token = await new MockStablecoin__factory(deployer).deploy();
  return { router, token, relayer, sender, receiver };
}

/** A data-only message to `receiver` with the given extra args. */
function message(receiver: string, extraArgs: string, overrides: Record<string, unknown> = {}) {
  return {
    receiver: coder.encode(["address"], [receiver]),
    data: "0x1234",
    tokenAmounts: [],
    feeToken: ethers.ZeroAddress,
    extraArgs,
    ...overrides,
  };
}

describe("DevnetCCIPRouter", function () {
  describe("getFee and ccipSend", function () {
    it("serve only the configured lanes", async function () {
      const { router, receiver } = await loadFixture(routerFixture);
      expect(await router.isChainSupported(ETH)).to.equal(true);
      expect(await router.isChainSupported(OTHER_CHAIN)).to.equal(false);
      const m = message(receiver.address, "0x");
      expect(await router.getFee(ETH, m)).to.equal(FEE);
      await expect(router.getFee(OTHER_CHAIN, m))
        .to.be.revertedWithCustomError(router, "UnsupportedDestinationChain")
        .withArgs(OTHER_CHAIN);
      await expect(router.ccipSend(OTHER_CHAIN, m, { value: FEE }))
        .to.be.revertedWithCustomError(router, "UnsupportedDestinationChain")
        .withArgs(OTHER_CHAIN);
    });

    it("take only data-only messages paid in native gas", async function () {
      const { router, token, receiver } = await loadFixture(routerFixture);
      const withTokens = message(receiver.address, "0x", {
        tokenAmounts: [{ token: await token.getAddress(), amount: 1n }],
      });
      const inToken = message(receiver.address, "0x", { feeToken: await token.getAddress() });
      for (const m of [withTokens, inToken]) {
        await expect(router.getFee(ETH, m)).to.be.revertedWithCustomError(router, "UnsupportedMessage");
        await expect(router.ccipSend(ETH, m, { value: FEE })).to.be.revertedWithCustomError(
          router,
          "UnsupportedMessage",
        );
      }
    });

    it("read the gas limit from V2 or V1 extra args, default to 200,000 without, and refuse an unknown tag", async function () {
      const { router, sender, receiver } = await loadFixture(routerFixture);
      const v2 = concat([GENERIC_EXTRA_ARGS_V2_TAG, coder.encode(["uint256", "bool"], [300_000n, true])]);
      const v1 = concat([EVM_EXTRA_ARGS_V1_TAG, coder.encode(["uint256"], [400_000n])]);
      const r = router.connect(sender);
      for (const [extraArgs, gasLimit, sequence] of [
        [v2, 300_000n, 1n],
        [v1, 400_000n, 2n],
        ["0x", 200_000n, 3n],
      ] as const) {
        await expect(r.ccipSend(ETH, message(receiver.address, extraArgs), { value: FEE }))
          .to.emit(router, "CCIPSendRequested")
          .withArgs(
            ETH,
            sequence,
            (id: string) => id.length === 66,
            sender.address,
            receiver.address,
            "0x1234",
            gasLimit,
            FEE,
          );
      }
      expect(await router.outboundSequence(ETH)).to.equal(3n);
      await expect(r.ccipSend(ETH, message(receiver.address, "0xdeadbeef"), { value: FEE }))
        .to.be.revertedWithCustomError(router, "InvalidExtraArgsTag")
        .withArgs("0xdeadbeef");
    });
  });

  describe("execute", function () {
    it("records success without a call for an account, or a contract that does not declare the receiver interface", async function () {
      const { router, token, relayer, sender, receiver } = await loadFixture(routerFixture);
      const r = router.connect(relayer);
      for (const [sequence, to] of [
        [1n, receiver.address],
        [2n, await token.getAddress()],
      ] as const) {
        const id = await router.messageIdOf(ETH, ARB, sequence, sender.address, to, "0x1234", 100_000n);
        await expect(r.execute(ETH, sequence, sender.address, to, "0x1234", 100_000n, 0n))
          .to.emit(router, "ExecutionStateChanged")
          .withArgs(ETH, sequence, id, 2n, "0x");
        expect(await router.executionState(ETH, sequence)).to.equal(2n);
      }
    });

    it("refuses a transaction whose gas cannot give the receiver its gas limit", async function () {
      const { router, relayer, sender, receiver } = await loadFixture(routerFixture);
      await expect(
        router
          .connect(relayer)
          .execute(ETH, 1n, sender.address, receiver.address, "0x", 1_000_000n, 0n, { gasLimit: 200_000n }),
      ).to.be.revertedWithCustomError(router, "InsufficientGasForExecution");
      expect(await router.executionState(ETH, 1n)).to.equal(0n);
    });

    it("takes a gas override only to retry a failed message", async function () {
      const { router, relayer, sender, receiver } = await loadFixture(routerFixture);
      await expect(router.connect(relayer).execute(ETH, 1n, sender.address, receiver.address, "0x", 100_000n, 200_000n))
        .to.be.revertedWithCustomError(router, "InvalidGasLimitOverride")
        .withArgs(200_000n);
    });
  });
});
