import { expect } from "chai";
import { network } from "hardhat";
import { parseEther } from "ethers";

import { Roles, signPermit } from "@compute-capacity/sdk";
import {
  DEFAULT_FEE_BPS,
  HOUR,
  Kind,
  LStatus,
  MarketType,
  TradeType,
  USDC,
  cost,
  deployMarketScenario,
  fillPayment,
  marketFee,
  marketState,
} from "../../helpers/markets.js";
import type { MarketFixture } from "../../helpers/markets.js";
import { pauseAs } from "../../helpers/pause.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const AMOUNT = parseEther("10");
const PRICE = USDC("2"); // 2 USDC per sSTB
const TOTAL = USDC("20");
const U64_MAX = 2n ** 64n - 1n;

async function scenario(): Promise<MarketFixture> {
  return deployMarketScenario(connection);
}

async function now(): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
}

/** A sell listing (id 1) of AMOUNT at PRICE by the maker, expiring in a day. */
async function listed() {
  const f = await loadFixture(scenario);
  const expiration = (await now()) + 24n * HOUR;
  await f.spotMarket.connect(f.maker).createListing(AMOUNT, PRICE, expiration);
  return { f, id: 1n, expiration };
}

/** A buy order (id 1) of AMOUNT at PRICE by the maker, expiring in a day. */
async function ordered() {
  const f = await loadFixture(scenario);
  const expiration = (await now()) + 24n * HOUR;
  await f.spotMarket.connect(f.maker).createBuyOrder(AMOUNT, PRICE, expiration);
  return { f, id: 1n, expiration };
}

describe("SpotMarket", function () {
  describe("initialize", function () {
    it("starts with a 30 bps fee, the treasury, the deployment's tokens and no listings", async function () {
      const f = await loadFixture(scenario);
      const m = f.spotMarket;
      expect(await m.feeBps()).to.equal(DEFAULT_FEE_BPS);
      expect(await m.MAX_FEE_BPS()).to.equal(100n);
      expect(await m.treasury()).to.equal(f.treasury.address);
      expect(await m.sstb()).to.equal(await f.sstb.getAddress());
      expect(await m.paymentToken()).to.equal(await f.collateral.getAddress());
      expect(await m.marketType()).to.equal(MarketType.Spot);
      expect(await m.TOKEN_TYPE()).to.equal("sSTB");
      expect(await m.listingCount()).to.equal(0n);
      await expect(m.initialize(f.deployer.address, f.treasury.address)).to.be.revertedWithCustomError(
        m,
        "InvalidInitialization",
      );
    });
  });

  describe("createListing", function () {
    it("escrows the sSTB, emits ListingCreated and exposes the spec's listing fields", async function () {
      const f = await loadFixture(scenario);
      const m = f.spotMarket;
      const expiration = (await now()) + 24n * HOUR;
      expect(await m.connect(f.maker).createListing.staticCall(AMOUNT, PRICE, expiration)).to.equal(1n);
      const tx = m.connect(f.maker).createListing(AMOUNT, PRICE, expiration);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.maker, m], [-AMOUNT, AMOUNT]);
      const t = await now();
      await expect(tx)
        .to.emit(m, "ListingCreated")
        .withArgs(1n, MarketType.Spot, Kind.SellListing, f.maker.address, AMOUNT, PRICE, 0n, expiration, t);
      const l = await m.listingOf(1n);
      expect(l.listingId).to.equal(1n);
      expect(l.marketType).to.equal(MarketType.Spot);
      expect(l.kind).to.equal(Kind.SellListing);
      expect(l.status).to.equal(LStatus.Active);
      expect(l.tokenType).to.equal("sSTB");
      expect(l.seller).to.equal(f.maker.address);
      expect(l.counterparty).to.equal(ethers.ZeroAddress);
      expect(l.amount).to.equal(AMOUNT);
      expect(l.remaining).to.equal(AMOUNT);
      expect(l.pricePerToken).to.equal(PRICE);
      expect(l.totalPrice).to.equal(TOTAL);
      expect(l.listedAt).to.equal(t);
      expect(l.expiration).to.equal(expiration);
      expect(await m.listingCount()).to.equal(1n);
    });

    it("issues ids unique across the three markets: spot 1, 4, 7; futures 2, 5; options 3", async function () {
      const f = await loadFixture(scenario);
      const expiration = (await now()) + 24n * HOUR;
      const one = parseEther("1");
      for (const expected of [1n, 4n, 7n]) {
        await expect(f.spotMarket.connect(f.maker).createListing(one, PRICE, expiration))
          .to.emit(f.spotMarket, "ListingCreated")
          .withArgs(expected, MarketType.Spot, Kind.SellListing, f.maker.address, one, PRICE, 0n, expiration, anyTime);
      }
      for (const expected of [2n, 5n]) {
        expect(await f.futuresMarket.connect(f.maker).offerToSell.staticCall(one, PRICE, expiration)).to.equal(
          expected,
        );
        await f.futuresMarket.connect(f.maker).offerToSell(one, PRICE, expiration);
      }
      expect(await f.optionsMarket.connect(f.maker).writeCall.staticCall(one, PRICE, PRICE, expiration)).to.equal(3n);
      await expect(f.spotMarket.listingOf(2n)).to.be.revertedWithCustomError(f.spotMarket, "MarketListingNotFound");
    });

    it("reverts on zero, too large an amount, a price out of range, a past expiration, and changes nothing", async function () {
      const f = await loadFixture(scenario);
      const m = f.spotMarket.connect(f.maker);
      const t = await now();
      const before = await marketState(f);
      await expect(m.createListing(0n, PRICE, t + HOUR)).to.be.revertedWithCustomError(m, "MarketZeroAmount");
      await expect(m.createListing(2n ** 96n, PRICE, t + HOUR))
        .to.be.revertedWithCustomError(m, "MarketAmountTooLarge")
        .withArgs(2n ** 96n);
      await expect(m.createListing(AMOUNT, 0n, t + HOUR))
        .to.be.revertedWithCustomError(m, "MarketPriceOutOfRange")
        .withArgs(0n);
      await expect(m.createListing(AMOUNT, U64_MAX + 1n, t + HOUR))
        .to.be.revertedWithCustomError(m, "MarketPriceOutOfRange")
        .withArgs(U64_MAX + 1n);
      await expect(m.createListing(AMOUNT, PRICE, t))
        .to.be.revertedWithCustomError(m, "MarketInvalidExpiration")
        .withArgs(t);
      await expect(m.createListing(AMOUNT, PRICE, 2n ** 40n))
        .to.be.revertedWithCustomError(m, "MarketInvalidExpiration")
        .withArgs(2n ** 40n);
      await expect(f.spotMarket.connect(f.stranger).createListing(AMOUNT, PRICE, t + HOUR))
        .to.be.revertedWithCustomError(f.sstb, "ERC20InsufficientAllowance")
        .withArgs(f.addresses.spot, 0n, AMOUNT);
      expect(await marketState(f)).to.deep.equal(before);
    });
  });

  describe("buy", function () {
    it("fills part: the buyer pays the price, the seller receives it less the fee, the treasury the fee", async function () {
      const { f, id } = await listed();
      const m = f.spotMarket;
      const part = parseEther("4");
      const payment = USDC("8");
      const fee = marketFee(payment, DEFAULT_FEE_BPS); // 0.024 USDC
      expect(await m.quoteFill(id, part)).to.deep.equal([payment, fee]);
      const tx = m.connect(f.taker).buy(id, part, PRICE);
      await expect(tx)
        .to.emit(m, "ListingPurchased")
        .withArgs(id, f.taker.address, part, AMOUNT - part);
      await expect(tx)
        .to.emit(m, "TradeExecuted")
        .withArgs(id, TradeType.SpotFill, f.taker.address, f.maker.address, part, PRICE, payment, fee);
      await expect(tx).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.taker, f.maker, f.treasury, m],
        [-payment, payment - fee, fee, 0n],
      );
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.taker, m], [part, -part]);
      const l = await m.listingOf(id);
      expect(l.status).to.equal(LStatus.Active);
      expect(l.remaining).to.equal(AMOUNT - part);
      expect((await m.positionOf(id)).filled).to.equal(part);
    });

    it("quoteTrade prices any fill of any position: the payment after what is filled, and its fee", async function () {
      const f = await loadFixture(scenario);
      const price = 1_234_567n;
      const [filled, amount] = [parseEther("1") + 1n, parseEther("2.5")];
      const payment = fillPayment(filled, amount, price);
      expect(await f.spotMarket.quoteTrade(filled, amount, price)).to.deep.equal([
        payment,
        marketFee(payment, DEFAULT_FEE_BPS),
      ]);
      await f.spotMarket.setMarketFee(0n);
      expect(await f.spotMarket.quoteTrade(0n, amount, price)).to.deep.equal([cost(amount, price), 0n]);
    });

    it("fills the rest and ends the listing as filled; nothing more can be bought", async function () {
      const { f, id } = await listed();
      const m = f.spotMarket.connect(f.taker);
      await m.buy(id, parseEther("4"), PRICE);
      await expect(m.buy(id, parseEther("6"), PRICE))
        .to.emit(f.spotMarket, "ListingPurchased")
        .withArgs(id, f.taker.address, parseEther("6"), 0n);
      expect((await f.spotMarket.listingOf(id)).status).to.equal(LStatus.Filled);
      expect(await f.sstb.balanceOf(f.addresses.spot)).to.equal(0n);
      await expect(m.buy(id, 1n, PRICE))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Filled);
      await expect(f.spotMarket.connect(f.maker).cancel(id))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Filled);
    });

    it("fills down to one base unit; the payments telescope to the listing's total price", async function () {
      const f = await loadFixture(scenario);
      const m = f.spotMarket;
      const expiration = (await now()) + HOUR;
      await m.connect(f.maker).createListing(3n, U64_MAX, expiration); // about 18.45 units per base unit
      const paid: bigint[] = [];
      for (let filled = 0n; filled < 3n; filled++) {
        const payment = fillPayment(filled, 1n, U64_MAX);
        const fee = marketFee(payment, DEFAULT_FEE_BPS);
        expect(fee).to.equal(1n); // a trade of any size pays a fee
        await expect(m.connect(f.taker).buy(1n, 1n, U64_MAX)).to.changeTokenBalances(
          ethers,
          f.collateral,
          [f.taker, f.maker, f.treasury],
          [-payment, payment - fee, fee],
        );
        paid.push(payment);
      }
      expect(paid).to.deep.equal([19n, 18n, 19n]);
      expect(paid.reduce((a, b) => a + b)).to.equal(cost(3n, U64_MAX));
      expect((await m.listingOf(1n)).status).to.equal(LStatus.Filled);
    });

    it("refuses a fill that would move no payment; the seller takes back the rest", async function () {
      const f = await loadFixture(scenario);
      const m = f.spotMarket;
      await m.connect(f.maker).createListing(2n, PRICE, (await now()) + HOUR);
      await m.connect(f.taker).buy(1n, 1n, PRICE); // cost(1) rounds up to 1 unit
      const before = await marketState(f, [1n]);
      await expect(m.connect(f.taker).buy(1n, 1n, PRICE))
        .to.be.revertedWithCustomError(m, "MarketZeroPayment")
        .withArgs(1n, 1n);
      expect(await marketState(f, [1n])).to.deep.equal(before);
      await expect(m.connect(f.maker).cancel(1n)).to.emit(m, "ListingCancelled").withArgs(1n, f.maker.address, 1n, 0n);
    });

    it("rounds the fee up, so splitting a trade never lowers the fee, and the payment is the same", async function () {
      const f = await loadFixture(scenario);
      const m = f.spotMarket;
      const price = 333_333n; // 0.333333 USDC per sSTB
      const expiration = (await now()) + HOUR;
      await m.connect(f.maker).createListing(AMOUNT, price, expiration); // 1: bought whole
      await m.connect(f.maker).createListing(AMOUNT, price, expiration); // 4: bought in 7 pieces
      const treasury0 = await f.collateral.balanceOf(f.treasury.address);
      const taker0 = await f.collateral.balanceOf(f.taker.address);
      await m.connect(f.taker).buy(1n, AMOUNT, price);
      const wholeFee = (await f.collateral.balanceOf(f.treasury.address)) - treasury0;
      const wholePaid = taker0 - (await f.collateral.balanceOf(f.taker.address));
      expect(wholeFee).to.equal(marketFee(cost(AMOUNT, price), DEFAULT_FEE_BPS));

      const pieces = [
        parseEther("1") + 1n,
        parseEther("2"),
        parseEther("0.5"),
        parseEther("3") - 1n,
        parseEther("1.5"),
        parseEther("1"),
        parseEther("1"),
      ];
      expect(pieces.reduce((a, b) => a + b)).to.equal(AMOUNT);
      const treasury1 = await f.collateral.balanceOf(f.treasury.address);
      const taker1 = await f.collateral.balanceOf(f.taker.address);
      for (const piece of pieces) await m.connect(f.taker).buy(4n, piece, price);
      const splitFee = (await f.collateral.balanceOf(f.treasury.address)) - treasury1;
      const splitPaid = taker1 - (await f.collateral.balanceOf(f.taker.address));
      expect(splitPaid).to.equal(wholePaid);
      let filled = 0n;
      let expected = 0n;
      for (const piece of pieces) {
        expected += marketFee(fillPayment(filled, piece, price), DEFAULT_FEE_BPS);
        filled += piece;
      }
      expect(splitFee).to.equal(expected);
      expect(splitFee).to.be.greaterThan(wholeFee); // seven ceilings against one
    });

    it("charges no fee when governance sets it to zero", async function () {
      const { f, id } = await listed();
      await f.spotMarket.setMarketFee(0n);
      await expect(f.spotMarket.connect(f.taker).buy(id, AMOUNT, PRICE)).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.taker, f.maker, f.treasury],
        [-TOTAL, TOTAL, 0n],
      );
    });

    it("refuses a price above the buyer's maximum, an expired listing, a buy order, too much, zero, an unknown id", async function () {
      const { f, id, expiration } = await listed();
      const m = f.spotMarket.connect(f.taker);
      await f.spotMarket.connect(f.maker).createBuyOrder(AMOUNT, PRICE, expiration); // id 4
      const before = await marketState(f, [1n, 4n]);
      await expect(m.buy(id, AMOUNT, PRICE - 1n))
        .to.be.revertedWithCustomError(m, "MarketPriceMismatch")
        .withArgs(id, PRICE, PRICE - 1n);
      await expect(m.buy(4n, AMOUNT, PRICE))
        .to.be.revertedWithCustomError(m, "MarketWrongKind")
        .withArgs(4n, Kind.BuyOrder);
      await expect(m.buy(id, AMOUNT + 1n, PRICE))
        .to.be.revertedWithCustomError(m, "MarketExceedsRemaining")
        .withArgs(id, AMOUNT + 1n, AMOUNT);
      await expect(m.buy(id, 0n, PRICE)).to.be.revertedWithCustomError(m, "MarketZeroAmount");
      await expect(m.buy(7n, 1n, PRICE))
        .to.be.revertedWithCustomError(m, "MarketListingNotFound")
        .withArgs(7n);
      await expect(f.spotMarket.connect(f.stranger).buy(id, AMOUNT, PRICE))
        .to.be.revertedWithCustomError(f.collateral, "ERC20InsufficientAllowance")
        .withArgs(f.addresses.spot, 0n, TOTAL - marketFee(TOTAL, DEFAULT_FEE_BPS));
      await time.increaseTo(expiration);
      await expect(m.buy(id, 1n, PRICE))
        .to.be.revertedWithCustomError(m, "MarketListingExpired")
        .withArgs(id, expiration);
      expect(await marketState(f, [1n, 4n])).to.deep.equal(before);
    });
  });

  describe("buy orders", function () {
    it("createBuyOrder escrows the total price and emits OrderCreated", async function () {
      const f = await loadFixture(scenario);
      const m = f.spotMarket;
      const expiration = (await now()) + 24n * HOUR;
      const tx = m.connect(f.maker).createBuyOrder(AMOUNT, PRICE, expiration);
      await expect(tx).to.changeTokenBalances(ethers, f.collateral, [f.maker, m], [-TOTAL, TOTAL]);
      await expect(tx)
        .to.emit(m, "OrderCreated")
        .withArgs(1n, MarketType.Spot, Kind.BuyOrder, f.maker.address, AMOUNT, PRICE, expiration, await now());
      const l = await m.listingOf(1n);
      expect([l.kind, l.status, l.seller, l.amount, l.totalPrice]).to.deep.equal([
        Kind.BuyOrder,
        LStatus.Active,
        f.maker.address,
        AMOUNT,
        TOTAL,
      ]);
    });

    it("sell fills part from escrow: sSTB to the order's maker, payment less fee to the seller", async function () {
      const { f, id } = await ordered();
      const m = f.spotMarket;
      const part = parseEther("2.5");
      const payment = USDC("5");
      const fee = marketFee(payment, DEFAULT_FEE_BPS);
      const tx = m.connect(f.taker).sell(id, part, PRICE);
      await expect(tx)
        .to.emit(m, "OrderFilled")
        .withArgs(id, f.taker.address, part, AMOUNT - part);
      await expect(tx)
        .to.emit(m, "TradeExecuted")
        .withArgs(id, TradeType.SpotFill, f.maker.address, f.taker.address, part, PRICE, payment, fee);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.taker, f.maker, m], [-part, part, 0n]);
      await expect(tx).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.taker, f.treasury, m, f.maker],
        [payment - fee, fee, -payment, 0n],
      );
    });

    it("odd partial fills and a cancel return exactly the escrow: no dust stays in the market", async function () {
      const f = await loadFixture(scenario);
      const m = f.spotMarket;
      const price = 1_234_567n;
      const amount = parseEther("7") + 3n;
      await m.connect(f.maker).createBuyOrder(amount, price, (await now()) + HOUR);
      const escrow = cost(amount, price);
      expect(await f.collateral.balanceOf(f.addresses.spot)).to.equal(escrow);
      let paid = 0n;
      let filled = 0n;
      for (const piece of [parseEther("1") + 1n, parseEther("0.333333333333333333"), parseEther("2")]) {
        const payment = fillPayment(filled, piece, price);
        await m.connect(f.taker).sell(1n, piece, 0n);
        paid += payment;
        filled += piece;
      }
      const rest = escrow - paid;
      expect(await f.collateral.balanceOf(f.addresses.spot)).to.equal(rest);
      await expect(m.connect(f.maker).cancel(1n)).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.maker, m],
        [rest, -rest],
      );
      expect(await f.collateral.balanceOf(f.addresses.spot)).to.equal(0n);
      expect(rest).to.equal(cost(amount, price) - cost(filled, price));
    });

    it("a full fill spends the escrow exactly and ends the order as filled", async function () {
      const f = await loadFixture(scenario);
      const m = f.spotMarket;
      const price = 999_999n;
      const amount = parseEther("3") + 7n;
      await m.connect(f.maker).createBuyOrder(amount, price, (await now()) + HOUR);
      await m.connect(f.taker).sell(1n, parseEther("1") + 5n, price);
      await m.connect(f.taker).sell(1n, parseEther("2") + 2n, price);
      expect((await m.listingOf(1n)).status).to.equal(LStatus.Filled);
      expect(await f.collateral.balanceOf(f.addresses.spot)).to.equal(0n);
    });

    it("refuses a price below the seller's minimum, a sell listing, an expired order; changes nothing", async function () {
      const { f, id, expiration } = await ordered();
      const m = f.spotMarket.connect(f.taker);
      await f.spotMarket.connect(f.maker).createListing(AMOUNT, PRICE, expiration); // id 4
      const before = await marketState(f, [1n, 4n]);
      await expect(m.sell(id, AMOUNT, PRICE + 1n))
        .to.be.revertedWithCustomError(m, "MarketPriceMismatch")
        .withArgs(id, PRICE, PRICE + 1n);
      await expect(m.sell(4n, AMOUNT, PRICE))
        .to.be.revertedWithCustomError(m, "MarketWrongKind")
        .withArgs(4n, Kind.SellListing);
      await expect(f.spotMarket.connect(f.stranger).sell(id, AMOUNT, PRICE))
        .to.be.revertedWithCustomError(f.sstb, "ERC20InsufficientAllowance")
        .withArgs(f.addresses.spot, 0n, AMOUNT);
      await time.increaseTo(expiration);
      await expect(m.sell(id, 1n, PRICE))
        .to.be.revertedWithCustomError(m, "MarketListingExpired")
        .withArgs(id, expiration);
      expect(await marketState(f, [1n, 4n])).to.deep.equal(before);
    });
  });

  describe("cancel", function () {
    it("returns the unfilled sSTB to the seller and ends the listing as cancelled", async function () {
      const { f, id } = await listed();
      const m = f.spotMarket;
      await m.connect(f.taker).buy(id, parseEther("3"), PRICE);
      const tx = m.connect(f.maker).cancel(id);
      await expect(tx).to.emit(m, "ListingCancelled").withArgs(id, f.maker.address, parseEther("7"), 0n);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.maker, m], [parseEther("7"), -parseEther("7")]);
      const l = await m.listingOf(id);
      expect([l.status, l.remaining, l.amount]).to.deep.equal([LStatus.Cancelled, 0n, AMOUNT]);
      await expect(m.connect(f.taker).buy(id, 1n, PRICE))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Cancelled);
      await expect(m.connect(f.maker).cancel(id))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Cancelled);
      await expect(m.expire(id))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Cancelled);
    });

    it("refuses anyone but the maker and changes nothing", async function () {
      const { f, id } = await listed();
      const before = await marketState(f, [id]);
      for (const caller of [f.taker, f.stranger, f.treasury]) {
        await expect(f.spotMarket.connect(caller).cancel(id))
          .to.be.revertedWithCustomError(f.spotMarket, "MarketNotMaker")
          .withArgs(id, caller.address);
      }
      expect(await marketState(f, [id])).to.deep.equal(before);
    });
  });

  describe("expire", function () {
    it("lets anyone return the rest to the maker once the expiration has come, not before", async function () {
      const { f, id, expiration } = await listed();
      const m = f.spotMarket.connect(f.stranger);
      await f.spotMarket.connect(f.taker).buy(id, parseEther("1"), PRICE);
      await expect(m.expire(id)).to.be.revertedWithCustomError(m, "MarketNotExpired").withArgs(id, expiration);
      await time.increaseTo(expiration);
      const tx = m.expire(id);
      await expect(tx).to.emit(m, "ListingExpired").withArgs(id, f.stranger.address, parseEther("9"), 0n);
      await expect(tx).to.changeTokenBalances(
        ethers,
        f.sstb,
        [f.maker, m, f.stranger],
        [parseEther("9"), -parseEther("9"), 0n],
      );
      expect((await m.listingOf(id)).status).to.equal(LStatus.Expired);
      await expect(m.expire(id)).to.be.revertedWithCustomError(m, "MarketInvalidStatus").withArgs(id, LStatus.Expired);
    });

    it("returns a buy order's unspent payment to its maker", async function () {
      const { f, id, expiration } = await ordered();
      await f.spotMarket.connect(f.taker).sell(id, parseEther("4"), PRICE);
      await time.increaseTo(expiration);
      await expect(f.spotMarket.connect(f.stranger).expire(id))
        .to.emit(f.spotMarket, "ListingExpired")
        .withArgs(id, f.stranger.address, 0n, USDC("12"));
      expect(await f.collateral.balanceOf(f.addresses.spot)).to.equal(0n);
    });
  });

  describe("permits (EIP-2612 instead of an approval)", function () {
    async function permitFor(f: MarketFixture, token: "sstb" | "collateral", value: bigint) {
      const deadline = (await now()) + HOUR;
      const sig = await signPermit(f[token], f.stranger, f.addresses.spot, value, deadline, f.chainId);
      return { value, deadline, v: sig.v, r: sig.r, s: sig.s };
    }

    it("createListingWithPermit and buyWithPermit trade without any prior approval", async function () {
      const f = await loadFixture(scenario);
      const m = f.spotMarket.connect(f.stranger);
      const expiration = (await now()) + HOUR;
      const amount = parseEther("5");
      await expect(
        m.createListingWithPermit(amount, PRICE, expiration, await permitFor(f, "sstb", amount)),
      ).to.changeTokenBalances(ethers, f.sstb, [f.stranger, m], [-amount, amount]);
      await f.spotMarket.connect(f.maker).createListing(amount, PRICE, expiration); // id 4
      const payment = USDC("10");
      await expect(
        m.buyWithPermit(4n, amount, PRICE, await permitFor(f, "collateral", payment)),
      ).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.stranger, f.maker],
        [-payment, payment - marketFee(payment, DEFAULT_FEE_BPS)],
      );
      expect(await f.collateral.allowance(f.stranger.address, f.addresses.spot)).to.equal(0n);
    });

    it("createBuyOrderWithPermit and sellWithPermit trade without any prior approval", async function () {
      const f = await loadFixture(scenario);
      const m = f.spotMarket.connect(f.stranger);
      const expiration = (await now()) + HOUR;
      await expect(
        m.createBuyOrderWithPermit(AMOUNT, PRICE, expiration, await permitFor(f, "collateral", TOTAL)),
      ).to.changeTokenBalances(ethers, f.collateral, [f.stranger, m], [-TOTAL, TOTAL]);
      await f.spotMarket.connect(f.maker).createBuyOrder(AMOUNT, PRICE, expiration); // id 4
      await expect(m.sellWithPermit(4n, AMOUNT, PRICE, await permitFor(f, "sstb", AMOUNT))).to.changeTokenBalances(
        ethers,
        f.sstb,
        [f.stranger, f.maker],
        [-AMOUNT, AMOUNT],
      );
    });

    it("a permit used first by someone else still lets the trade through; a bad one without allowance reverts", async function () {
      const f = await loadFixture(scenario);
      const m = f.spotMarket.connect(f.stranger);
      const expiration = (await now()) + HOUR;
      const permit = await permitFor(f, "sstb", AMOUNT);
      // a front-runner submits the permit itself
      await f.sstb
        .connect(f.taker)
        .permit(f.stranger.address, f.addresses.spot, permit.value, permit.deadline, permit.v, permit.r, permit.s);
      await expect(m.createListingWithPermit(AMOUNT, PRICE, expiration, permit)).to.emit(m, "ListingCreated");

      const before = await marketState(f, [1n]);
      await expect(m.createListingWithPermit(1n, PRICE, expiration, permit))
        .to.be.revertedWithCustomError(f.sstb, "ERC20InsufficientAllowance")
        .withArgs(f.addresses.spot, 0n, 1n);
      expect(await marketState(f, [1n])).to.deep.equal(before);
    });
  });

  describe("pause", function () {
    it("stops new listings, orders and fills; cancel and expiry keep returning escrow", async function () {
      const { f, id, expiration } = await listed();
      const m = f.spotMarket;
      await m.connect(f.maker).createBuyOrder(AMOUNT, PRICE, expiration); // id 4
      await m.connect(f.maker).createListing(AMOUNT, PRICE, expiration); // id 7
      await pauseAs(m, f.guardian, "guardian");
      const before = await marketState(f, [1n, 4n, 7n]);
      await expect(m.connect(f.maker).createListing(AMOUNT, PRICE, expiration)).to.be.revertedWithCustomError(
        m,
        "EnforcedPause",
      );
      await expect(m.connect(f.maker).createBuyOrder(AMOUNT, PRICE, expiration)).to.be.revertedWithCustomError(
        m,
        "EnforcedPause",
      );
      await expect(m.connect(f.taker).buy(id, 1n, PRICE)).to.be.revertedWithCustomError(m, "EnforcedPause");
      await expect(m.connect(f.taker).sell(4n, AMOUNT, PRICE)).to.be.revertedWithCustomError(m, "EnforcedPause");
      expect(await marketState(f, [1n, 4n, 7n])).to.deep.equal(before);

      await expect(m.connect(f.maker).cancel(id)).to.emit(m, "ListingCancelled");
      await expect(m.connect(f.maker).cancel(4n)).to.emit(m, "ListingCancelled");
      await time.increaseTo(expiration);
      await expect(m.connect(f.stranger).expire(7n)).to.emit(m, "ListingExpired");
      expect(await f.sstb.balanceOf(f.addresses.spot)).to.equal(0n);
      expect(await f.collateral.balanceOf(f.addresses.spot)).to.equal(0n);

      await m.unpause();
      await expect(m.connect(f.maker).createListing(AMOUNT, PRICE, (await now()) + HOUR)).to.emit(m, "ListingCreated");
    });

    it("refuses a pause by a stranger", async function () {
      const f = await loadFixture(scenario);
      await expect(f.spotMarket.connect(f.stranger).pause())
        .to.be.revertedWithCustomError(f.spotMarket, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.GUARDIAN);
    });
  });

  describe("governance", function () {
    it("setMarketFee: bounded, emits ParameterUpdated, refuses a stranger", async function () {
      const f = await loadFixture(scenario);
      const m = f.spotMarket;
      await expect(m.setMarketFee(100n))
        .to.emit(m, "ParameterUpdated")
        .withArgs(ethers.encodeBytes32String("marketFeeBps"), 30n, 100n);
      expect(await m.feeBps()).to.equal(100n);
      await expect(m.setMarketFee(101n))
        .to.be.revertedWithCustomError(m, "ParameterOutOfBounds")
        .withArgs(ethers.encodeBytes32String("marketFeeBps"), 101n);
      await expect(m.connect(f.stranger).setMarketFee(0n))
        .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.GOVERNANCE);
      expect(await m.feeBps()).to.equal(100n);
    });

    it("setTreasury: emits TreasuryUpdated, refuses zero and a stranger; fees go to the new treasury", async function () {
      const { f, id } = await listed();
      const m = f.spotMarket;
      await expect(m.setTreasury(f.stranger.address))
        .to.emit(m, "TreasuryUpdated")
        .withArgs(f.treasury.address, f.stranger.address);
      await expect(m.setTreasury(ethers.ZeroAddress)).to.be.revertedWithCustomError(m, "ZeroAddress");
      await expect(m.connect(f.stranger).setTreasury(f.stranger.address))
        .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.GOVERNANCE);
      await expect(m.connect(f.taker).buy(id, AMOUNT, PRICE)).to.changeTokenBalance(
        ethers,
        f.collateral,
        f.stranger,
        marketFee(TOTAL, DEFAULT_FEE_BPS),
      );
    });

    it("refuses an upgrade by a stranger", async function () {
      const f = await loadFixture(scenario);
      await expect(f.spotMarket.connect(f.stranger).upgradeToAndCall(f.addresses.futures, "0x"))
        .to.be.revertedWithCustomError(f.spotMarket, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.UPGRADER);
    });
  });
});

/** Matches any listed-at time (chai matcher predicate). */
function anyTime(value: bigint): boolean {
  return value > 0n;
}
