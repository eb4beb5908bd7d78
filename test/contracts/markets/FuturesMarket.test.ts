import { expect } from "chai";
import { network } from "hardhat";
import { parseEther } from "ethers";

import { Roles } from "@compute-capacity/sdk";
import {
  DEFAULT_FEE_BPS,
  HOUR,
  Kind,
  LStatus,
  MarketType,
  TradeType,
  cost,
  deployMarketScenario,
  marketFee,
  marketState,
} from "../../helpers/markets.js";
import type { MarketFixture } from "../../helpers/markets.js";
import { pauseAs } from "../../helpers/pause.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const AMOUNT = parseEther("10");
const PRICE = 1_500_001n; // a price that does not divide evenly
const PAYMENT = cost(AMOUNT, PRICE);
const FEE = marketFee(PAYMENT, DEFAULT_FEE_BPS);

async function scenario(): Promise<MarketFixture> {
  return deployMarketScenario(connection);
}

async function now(): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
}

/** An offer to sell (id 2) by the maker settling in a week. */
async function sellOffer() {
  const f = await loadFixture(scenario);
  const settlement = (await now()) + 7n * 24n * HOUR;
  await f.futuresMarket.connect(f.maker).offerToSell(AMOUNT, PRICE, settlement);
  return { f, id: 2n, settlement };
}

/** An offer to buy (id 2) by the maker settling in a week. */
async function buyOffer() {
  const f = await loadFixture(scenario);
  const settlement = (await now()) + 7n * 24n * HOUR;
  await f.futuresMarket.connect(f.maker).offerToBuy(AMOUNT, PRICE, settlement);
  return { f, id: 2n, settlement };
}

describe("FuturesMarket", function () {
  describe("initialize", function () {
    it("starts with a 30 bps fee, the treasury and the futures market type", async function () {
      const f = await loadFixture(scenario);
      const m = f.futuresMarket;
      expect(await m.feeBps()).to.equal(DEFAULT_FEE_BPS);
      expect(await m.treasury()).to.equal(f.treasury.address);
      expect(await m.marketType()).to.equal(MarketType.Futures);
      await expect(m.initialize(f.deployer.address, f.treasury.address)).to.be.revertedWithCustomError(
        m,
        "InvalidInitialization",
      );
    });
  });

  describe("offerToSell / offerToBuy", function () {
    it("an offer to sell escrows the sSTB and emits ListingCreated", async function () {
      const f = await loadFixture(scenario);
      const m = f.futuresMarket;
      const settlement = (await now()) + 24n * HOUR;
      const tx = m.connect(f.maker).offerToSell(AMOUNT, PRICE, settlement);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.maker, m], [-AMOUNT, AMOUNT]);
      await expect(tx)
        .to.emit(m, "ListingCreated")
        .withArgs(2n, MarketType.Futures, Kind.FutureSell, f.maker.address, AMOUNT, PRICE, 0n, settlement, await now());
      const l = await m.listingOf(2n);
      expect([l.kind, l.status, l.seller, l.amount, l.remaining, l.totalPrice, l.expiration]).to.deep.equal([
        Kind.FutureSell,
        LStatus.Active,
        f.maker.address,
        AMOUNT,
        AMOUNT,
        PAYMENT,
        settlement,
      ]);
    });

    it("an offer to buy escrows the payment and emits OrderCreated", async function () {
      const f = await loadFixture(scenario);
      const m = f.futuresMarket;
      const settlement = (await now()) + 24n * HOUR;
      const tx = m.connect(f.maker).offerToBuy(AMOUNT, PRICE, settlement);
      await expect(tx).to.changeTokenBalances(ethers, f.collateral, [f.maker, m], [-PAYMENT, PAYMENT]);
      await expect(tx)
        .to.emit(m, "OrderCreated")
        .withArgs(2n, MarketType.Futures, Kind.FutureBuy, f.maker.address, AMOUNT, PRICE, settlement, await now());
    });

    it("refuses bad terms and changes nothing", async function () {
      const f = await loadFixture(scenario);
      const m = f.futuresMarket.connect(f.maker);
      const t = await now();
      const before = await marketState(f);
      await expect(m.offerToSell(0n, PRICE, t + HOUR)).to.be.revertedWithCustomError(m, "MarketZeroAmount");
      await expect(m.offerToBuy(AMOUNT, 0n, t + HOUR)).to.be.revertedWithCustomError(m, "MarketPriceOutOfRange");
      await expect(m.offerToSell(AMOUNT, PRICE, t - 1n)).to.be.revertedWithCustomError(m, "MarketInvalidExpiration");
      expect(await marketState(f)).to.deep.equal(before);
    });
  });

  describe("take", function () {
    it("taking an offer to sell escrows the taker's payment and matches the future", async function () {
      const { f, id } = await sellOffer();
      const m = f.futuresMarket;
      const tx = m.connect(f.taker).take(id, PRICE);
      await expect(tx).to.changeTokenBalances(ethers, f.collateral, [f.taker, m], [-PAYMENT, PAYMENT]);
      await expect(tx).to.emit(m, "ListingPurchased").withArgs(id, f.taker.address, AMOUNT, 0n);
      await expect(tx).to.emit(m, "FutureMatched").withArgs(id, f.taker.address, f.maker.address, PAYMENT);
      const l = await m.listingOf(id);
      expect([l.status, l.counterparty, l.remaining]).to.deep.equal([LStatus.Matched, f.taker.address, 0n]);
    });

    it("taking an offer to buy escrows the taker's sSTB", async function () {
      const { f, id } = await buyOffer();
      const m = f.futuresMarket;
      const tx = m.connect(f.taker).take(id, PRICE);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.taker, m], [-AMOUNT, AMOUNT]);
      await expect(tx).to.emit(m, "OrderFilled").withArgs(id, f.taker.address, AMOUNT, 0n);
      await expect(tx).to.emit(m, "FutureMatched").withArgs(id, f.maker.address, f.taker.address, PAYMENT);
    });

    it("refuses a price crossing the taker's limit, a taken offer, the settlement time, an unknown id", async function () {
      const { f, id, settlement } = await sellOffer();
      const m = f.futuresMarket.connect(f.taker);
      await f.futuresMarket.connect(f.maker).offerToBuy(AMOUNT, PRICE, settlement); // id 5
      const before = await marketState(f, [2n, 5n]);
      await expect(m.take(id, PRICE - 1n))
        .to.be.revertedWithCustomError(m, "MarketPriceMismatch")
        .withArgs(id, PRICE, PRICE - 1n);
      await expect(m.take(5n, PRICE + 1n))
        .to.be.revertedWithCustomError(m, "MarketPriceMismatch")
        .withArgs(5n, PRICE, PRICE + 1n);
      await expect(m.take(8n, PRICE)).to.be.revertedWithCustomError(m, "MarketListingNotFound").withArgs(8n);
      await expect(f.futuresMarket.connect(f.stranger).take(id, PRICE))
        .to.be.revertedWithCustomError(f.collateral, "ERC20InsufficientAllowance")
        .withArgs(f.addresses.futures, 0n, PAYMENT);
      expect(await marketState(f, [2n, 5n])).to.deep.equal(before);
      await m.take(id, PRICE);
      await expect(m.take(id, PRICE))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Matched);
      await time.increaseTo(settlement);
      await expect(m.take(5n, PRICE)).to.be.revertedWithCustomError(m, "MarketListingExpired").withArgs(5n, settlement);
    });
  });

  describe("settle", function () {
    it("at the settlement time anyone settles: sSTB to the buyer, payment less fee to the seller", async function () {
      const { f, id, settlement } = await sellOffer();
      const m = f.futuresMarket;
      await m.connect(f.taker).take(id, PRICE);
      await expect(m.connect(f.stranger).settle(id))
        .to.be.revertedWithCustomError(m, "MarketNotExpired")
        .withArgs(id, settlement);
      await time.setNextBlockTimestamp(settlement);
      const tx = m.connect(f.stranger).settle(id);
      await expect(tx).to.emit(m, "FutureSettled").withArgs(id, f.taker.address, f.maker.address, AMOUNT, PAYMENT, FEE);
      await expect(tx)
        .to.emit(m, "TradeExecuted")
        .withArgs(id, TradeType.FutureSettlement, f.taker.address, f.maker.address, AMOUNT, PRICE, PAYMENT, FEE);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.taker, m], [AMOUNT, -AMOUNT]);
      await expect(tx).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.maker, f.treasury, m, f.stranger],
        [PAYMENT - FEE, FEE, -PAYMENT, 0n],
      );
      expect((await m.listingOf(id)).status).to.equal(LStatus.Settled);
      await expect(m.settle(id)).to.be.revertedWithCustomError(m, "MarketInvalidStatus").withArgs(id, LStatus.Settled);
      await expect(m.connect(f.maker).cancel(id))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Settled);
    });

    it("settles an offer to buy the other way round, and works while paused", async function () {
      const { f, id, settlement } = await buyOffer();
      const m = f.futuresMarket;
      await m.connect(f.taker).take(id, PRICE);
      await pauseAs(m, f.guardian, "guardian");
      await time.increaseTo(settlement + 10n);
      const tx = m.connect(f.stranger).settle(id);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.maker, m], [AMOUNT, -AMOUNT]);
      await expect(tx).to.changeTokenBalances(ethers, f.collateral, [f.taker, f.treasury], [PAYMENT - FEE, FEE]);
      expect(await f.sstb.balanceOf(f.addresses.futures)).to.equal(0n);
      expect(await f.collateral.balanceOf(f.addresses.futures)).to.equal(0n);
    });

    it("refuses an offer nobody took", async function () {
      const { f, id, settlement } = await sellOffer();
      await time.increaseTo(settlement);
      await expect(f.futuresMarket.settle(id))
        .to.be.revertedWithCustomError(f.futuresMarket, "MarketInvalidStatus")
        .withArgs(id, LStatus.Active);
    });
  });

  describe("cancel / expire", function () {
    it("the maker cancels an untaken offer and gets its escrow back; nobody else can", async function () {
      const { f, id } = await buyOffer();
      const m = f.futuresMarket;
      const before = await marketState(f, [id]);
      for (const caller of [f.taker, f.stranger]) {
        await expect(m.connect(caller).cancel(id))
          .to.be.revertedWithCustomError(m, "MarketNotMaker")
          .withArgs(id, caller.address);
      }
      expect(await marketState(f, [id])).to.deep.equal(before);
      const tx = m.connect(f.maker).cancel(id);
      await expect(tx).to.emit(m, "ListingCancelled").withArgs(id, f.maker.address, 0n, PAYMENT);
      await expect(tx).to.changeTokenBalances(ethers, f.collateral, [f.maker, m], [PAYMENT, -PAYMENT]);
      expect((await m.listingOf(id)).status).to.equal(LStatus.Cancelled);
      await expect(m.connect(f.taker).take(id, PRICE))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Cancelled);
    });

    it("a matched future cannot be cancelled or expired, only settled", async function () {
      const { f, id, settlement } = await sellOffer();
      const m = f.futuresMarket;
      await m.connect(f.taker).take(id, PRICE);
      await time.increaseTo(settlement);
      await expect(m.connect(f.maker).cancel(id))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Matched);
      await expect(m.expire(id)).to.be.revertedWithCustomError(m, "MarketInvalidStatus").withArgs(id, LStatus.Matched);
    });

    it("anyone returns an untaken offer to its maker from the settlement time on, not before", async function () {
      const { f, id, settlement } = await sellOffer();
      const m = f.futuresMarket.connect(f.stranger);
      await expect(m.expire(id)).to.be.revertedWithCustomError(m, "MarketNotExpired").withArgs(id, settlement);
      await time.increaseTo(settlement);
      const tx = m.expire(id);
      await expect(tx).to.emit(m, "ListingExpired").withArgs(id, f.stranger.address, AMOUNT, 0n);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.maker, m], [AMOUNT, -AMOUNT]);
      expect((await m.listingOf(id)).status).to.equal(LStatus.Expired);
    });
  });

  describe("pause and governance", function () {
    it("a pause stops offers and takes; cancel keeps working", async function () {
      const { f, id, settlement } = await sellOffer();
      const m = f.futuresMarket;
      await pauseAs(m, f.guardian, "guardian");
      const before = await marketState(f, [id]);
      await expect(m.connect(f.maker).offerToSell(AMOUNT, PRICE, settlement)).to.be.revertedWithCustomError(
        m,
        "EnforcedPause",
      );
      await expect(m.connect(f.maker).offerToBuy(AMOUNT, PRICE, settlement)).to.be.revertedWithCustomError(
        m,
        "EnforcedPause",
      );
      await expect(m.connect(f.taker).take(id, PRICE)).to.be.revertedWithCustomError(m, "EnforcedPause");
      expect(await marketState(f, [id])).to.deep.equal(before);
      await expect(m.connect(f.maker).cancel(id)).to.emit(m, "ListingCancelled");
    });

    it("every governed setter refuses a stranger", async function () {
      const f = await loadFixture(scenario);
      const m = f.futuresMarket.connect(f.stranger);
      const calls = [
        () => m.setMarketFee(0n),
        () => m.setTreasury(f.stranger.address),
        () => m.unpause(),
        () => m.rearmGuardian(),
        () => m.setGuardianPauseDuration(HOUR),
      ];
      for (const call of calls) {
        await expect(call())
          .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
          .withArgs(f.stranger.address, Roles.GOVERNANCE);
      }
      await expect(m.upgradeToAndCall(f.addresses.spot, "0x"))
        .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.UPGRADER);
    });

    it("the fee is charged at settlement at the rate then in force, rounded up", async function () {
      const { f, id, settlement } = await sellOffer();
      await f.futuresMarket.connect(f.taker).take(id, PRICE);
      await f.futuresMarket.setMarketFee(7n);
      await time.increaseTo(settlement);
      await expect(f.futuresMarket.settle(id)).to.changeTokenBalance(
        ethers,
        f.collateral,
        f.treasury,
        marketFee(PAYMENT, 7n),
      );
      expect(marketFee(PAYMENT, 7n)).to.equal((PAYMENT * 7n) / 10_000n + 1n);
    });
  });
});
