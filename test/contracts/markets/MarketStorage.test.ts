import { expect } from "chai";
import hre, { network } from "hardhat";
import { AbiCoder, keccak256, parseEther } from "ethers";
import { upgrades } from "@openzeppelin/hardhat-upgrades";

import { HOUR, cost, deployBlacklistMarketScenario, marketFee, DEFAULT_FEE_BPS } from "../../helpers/markets.js";

/**
 * Issue 17 appended the claimable balances to the markets' shared ERC-7201 namespace
 * (`computeprotocol.storage.Market`). The upgrades plugin checks that each market's layout is an
 * upgrade of the previous one (`MarketLayoutV1` declares it), and a live proxy shows where the
 * balances sit: right after the slot every trade reads.
 */

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const api = await upgrades(hre, connection);

const PLACEHOLDER = "0x000000000000000000000000000000000000dEaD";
/** keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.Market")) - 1)) & ~0xff */
const MARKET_STORAGE = 0x06be8e109137a3fdb57f088fb79d4cbe30f9f99f623625e3bcc6b6e3cf8cc800n;
type ValidateOptions = Parameters<typeof api.validateUpgrade>[2];
/** Both kinds of implementation take the sSTB and the payment token. */
const OPTIONS = { kind: "uups", constructorArgs: [PLACEHOLDER, PLACEHOLDER] } as ValidateOptions;

async function blacklistScenario() {
  return deployBlacklistMarketScenario(connection);
}

describe("the markets' shared storage", function () {
  for (const name of ["SpotMarket", "FuturesMarket", "OptionsMarket"]) {
    it(`${name}: the upgrades plugin accepts its layout as an upgrade of the layout before issue 17`, async function () {
      await api.validateUpgrade(
        await ethers.getContractFactory("MarketLayoutV1"),
        await ethers.getContractFactory(name),
        OPTIONS,
      );
    });
  }

  it("the plugin compares that namespace: dropping the claimable balances again is refused", async function () {
    await expect(
      api.validateUpgrade(
        await ethers.getContractFactory("FuturesMarket"),
        await ethers.getContractFactory("MarketLayoutV1"),
        OPTIONS,
      ),
    ).to.be.rejectedWith(/New storage layout is incompatible/);
  });

  it("a credit sits in the mapping appended after the first slot, which keeps treasury, fee and sequence", async function () {
    const f = await networkHelpers.loadFixture(blacklistScenario);
    const m = f.futuresMarket;
    const settlement = BigInt((await ethers.provider.getBlock("latest"))!.timestamp) + HOUR;
    const [amount, price] = [parseEther("10"), 1_500_001n];
    await m.connect(f.maker).offerToSell(amount, price, settlement);
    await m.connect(f.taker).take(2n, price);
    await f.usdc.blacklist(f.maker.address);
    await networkHelpers.time.increaseTo(settlement);
    await m.settle(2n);

    const coder = AbiCoder.defaultAbiCoder();
    const slot = (n: bigint) => ethers.toBeHex(n, 32);
    const first = BigInt(await ethers.provider.getStorage(f.addresses.futures, slot(MARKET_STORAGE)));
    expect(ethers.getAddress(ethers.toBeHex(first & (2n ** 160n - 1n), 20))).to.equal(f.treasury.address);
    expect((first >> 160n) & 0xffffn).to.equal(await m.feeBps());
    expect(first >> 216n).to.equal(await m.listingCount());

    const outer = keccak256(coder.encode(["address", "uint256"], [f.maker.address, MARKET_STORAGE + 1n]));
    const inner = keccak256(coder.encode(["address", "bytes32"], [await f.usdc.getAddress(), outer]));
    const payment = cost(amount, price);
    const credited = payment - marketFee(payment, DEFAULT_FEE_BPS);
    expect(BigInt(await ethers.provider.getStorage(f.addresses.futures, inner))).to.equal(credited);
    expect(await m.claimable(f.maker.address, await f.usdc.getAddress())).to.equal(credited);
  });
});
