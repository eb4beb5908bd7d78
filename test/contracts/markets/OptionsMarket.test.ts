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
const STRIKE = 1_100_003n; // 1.100003 USDC per sSTB
const PREMIUM = USDC("0.1");
const PREMIUM_TOTAL = cost(AMOUNT, PREMIUM); // 1 USDC
const PREMIUM_FEE = marketFee(PREMIUM_TOTAL, DEFAULT_FEE_BPS);
const ESCROW = cost(AMOUNT, STRIKE); // a put's escrow

async function scenario(): Promise<MarketFixture> {
  return deployMarketScenario(connection);
}

async function now(): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
}

/** A covered call (id 3) written by the maker, expiring in 30 days; bought by the taker if `sold`. */
async function call(sold = true) {
  const f = await loadFixture(scenario);
  const expiry = (await now()) + 30n * 24n * HOUR;
  await f.optionsMarket.connect(f.maker).writeCall(AMOUNT, STRIKE, PREMIUM, expiry);
  if (sold) await f.optionsMarket.connect(f.taker).buyOption(3n, PREMIUM);
  return { f, id: 3n, expiry };
}

/** A cash-secured put (id 3) written by the maker, bought by the taker. */
async function put() {
  const f = await loadFixture(scenario);
  const expiry = (await now()) + 30n * 24n * HOUR;
  await f.optionsMarket.connect(f.maker).writePut(AMOUNT, STRIKE, PREMIUM, expiry);
  await f.optionsMarket.connect(f.taker).buyOption(3n, PREMIUM);
  return { f, id: 3n, expiry };
}

describe("OptionsMarket", function () {
  describe("writeCall / writePut", function () {
    it("a covered call escrows the sSTB and lists the option at its premium with its strike", async function () {
      const f = await loadFixture(scenario);
      const m = f.optionsMarket;
      const expiry = (await now()) + 24n * HOUR;
      const tx = m.connect(f.maker).writeCall(AMOUNT, STRIKE, PREMIUM, expiry);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.maker, m], [-AMOUNT, AMOUNT]);
      await expect(tx)
        .to.emit(m, "ListingCreated")
        .withArgs(
          3n,
          MarketType.Options,
          Kind.CoveredCall,
          f.maker.address,
          AMOUNT,
          PREMIUM,
          STRIKE,
          expiry,
          await now(),
        );
      const l = await m.listingOf(3n);
      expect([l.marketType, l.kind, l.status, l.pricePerToken, l.totalPrice, l.strikePrice, l.remaining]).to.deep.equal(
        [MarketType.Options, Kind.CoveredCall, LStatus.Active, PREMIUM, PREMIUM_TOTAL, STRIKE, AMOUNT],
      );
      expect(await m.marketType()).to.equal(MarketType.Options);
    });

    it("a cash-secured put escrows strike x amount, rounded up", async function () {
      const f = await loadFixture(scenario);
      const m = f.optionsMarket;
      const expiry = (await now()) + 24n * HOUR;
      await expect(m.connect(f.maker).writePut(AMOUNT, STRIKE, PREMIUM, expiry)).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.maker, m],
        [-ESCROW, ESCROW],
      );
      expect((await m.optionOf(3n)).kind).to.equal(Kind.CashSecuredPut);
    });

    it("refuses a zero or too large strike and bad terms, and changes nothing", async function () {
      const f = await loadFixture(scenario);
      const m = f.optionsMarket.connect(f.maker);
      const expiry = (await now()) + HOUR;
      const before = await marketState(f);
      await expect(m.writeCall(AMOUNT, 0n, PREMIUM, expiry))
        .to.be.revertedWithCustomError(m, "MarketPriceOutOfRange")
        .withArgs(0n);
      await expect(m.writePut(AMOUNT, 2n ** 64n, PREMIUM, expiry))
        .to.be.revertedWithCustomError(m, "MarketPriceOutOfRange")
        .withArgs(2n ** 64n);
      await expect(m.writeCall(AMOUNT, STRIKE, 0n, expiry)).to.be.revertedWithCustomError(m, "MarketPriceOutOfRange");
      await expect(m.writeCall(0n, STRIKE, PREMIUM, expiry)).to.be.revertedWithCustomError(m, "MarketZeroAmount");
      await expect(m.writePut(AMOUNT, STRIKE, PREMIUM, await now())).to.be.revertedWithCustomError(
        m,
        "MarketInvalidExpiration",
      );
      expect(await marketState(f)).to.deep.equal(before);
    });
  });

  describe("buyOption", function () {
    it("pays the premium to the writer less the fee and makes the buyer the holder", async function () {
      const { f, id } = await call(false);
      const m = f.optionsMarket;
      const tx = m.connect(f.taker).buyOption(id, PREMIUM);
      await expect(tx).to.emit(m, "ListingPurchased").withArgs(id, f.taker.address, AMOUNT, 0n);
      await expect(tx)
        .to.emit(m, "TradeExecuted")
        .withArgs(
          id,
          TradeType.OptionPremium,
          f.taker.address,
          f.maker.address,
          AMOUNT,
          PREMIUM,
          PREMIUM_TOTAL,
          PREMIUM_FEE,
        );
      await expect(tx).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.taker, f.maker, f.treasury, m],
        [-PREMIUM_TOTAL, PREMIUM_TOTAL - PREMIUM_FEE, PREMIUM_FEE, 0n],
      );
      const l = await m.listingOf(id);
      expect([l.status, l.counterparty, l.remaining]).to.deep.equal([LStatus.Sold, f.taker.address, AMOUNT]);
    });

    it("refuses a premium above the buyer's maximum, a sold option, an expired one; changes nothing", async function () {
      const { f, id, expiry } = await call(false);
      const m = f.optionsMarket;
      const before = await marketState(f, [id]);
      await expect(m.connect(f.taker).buyOption(id, PREMIUM - 1n))
        .to.be.revertedWithCustomError(m, "MarketPriceMismatch")
        .withArgs(id, PREMIUM, PREMIUM - 1n);
      await expect(m.connect(f.stranger).buyOption(id, PREMIUM))
        .to.be.revertedWithCustomError(f.collateral, "ERC20InsufficientAllowance")
        .withArgs(f.addresses.options, 0n, PREMIUM_TOTAL - PREMIUM_FEE);
      expect(await marketState(f, [id])).to.deep.equal(before);
      await m.connect(f.taker).buyOption(id, PREMIUM);
      await expect(m.connect(f.maker).buyOption(id, PREMIUM))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Sold);
      await m.connect(f.maker).writeCall(AMOUNT, STRIKE, PREMIUM, expiry); // id 6
      await time.increaseTo(expiry);
      await expect(m.connect(f.taker).buyOption(6n, PREMIUM))
        .to.be.revertedWithCustomError(m, "MarketListingExpired")
        .withArgs(6n, expiry);
    });
  });

  describe("exercise", function () {
    it("a call: the holder pays the strike (less fee to the writer) for sSTB out of escrow, in parts", async function () {
      const { f, id } = await call();
      const m = f.optionsMarket;
      const part = parseEther("3") + 1n;
      const payment = fillPayment(0n, part, STRIKE);
      const fee = marketFee(payment, DEFAULT_FEE_BPS);
      const tx = m.connect(f.taker).exercise(id, part);
      await expect(tx)
        .to.emit(m, "OptionExercised")
        .withArgs(id, f.taker.address, part, payment, fee, AMOUNT - part);
      await expect(tx)
        .to.emit(m, "TradeExecuted")
        .withArgs(id, TradeType.OptionExercise, f.taker.address, f.maker.address, part, STRIKE, payment, fee);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.taker, m], [part, -part]);
      await expect(tx).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.taker, f.maker, f.treasury],
        [-payment, payment - fee, fee],
      );
      await m.connect(f.taker).exercise(id, AMOUNT - part);
      expect((await m.listingOf(id)).status).to.equal(LStatus.Exercised);
      expect(await f.sstb.balanceOf(f.addresses.options)).to.equal(0n);
      await expect(m.connect(f.taker).exercise(id, 1n))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Exercised);
      await expect(m.reclaim(id))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Exercised);
    });

    it("a put: the holder delivers sSTB to the writer and the strike leaves escrow exactly, to the unit", async function () {
      const { f, id } = await put();
      const m = f.optionsMarket;
      const pieces = [parseEther("1") + 7n, parseEther("4.2"), AMOUNT - parseEther("5.2") - 7n];
      let exercised = 0n;
      for (const piece of pieces) {
        const payment = fillPayment(exercised, piece, STRIKE);
        const fee = marketFee(payment, DEFAULT_FEE_BPS);
        const tx = m.connect(f.taker).exercise(id, piece);
        await expect(tx)
          .to.emit(m, "TradeExecuted")
          .withArgs(id, TradeType.OptionExercise, f.maker.address, f.taker.address, piece, STRIKE, payment, fee);
        await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.taker, f.maker], [-piece, piece]);
        await expect(tx).to.changeTokenBalances(
          ethers,
          f.collateral,
          [f.taker, f.treasury, m],
          [payment - fee, fee, -payment],
        );
        exercised += piece;
      }
      expect((await m.listingOf(id)).status).to.equal(LStatus.Exercised);
      expect(await f.collateral.balanceOf(f.addresses.options)).to.equal(0n);
    });

    it("refuses anyone but the holder, too much, zero, after expiry; changes nothing", async function () {
      const { f, id, expiry } = await call();
      const m = f.optionsMarket;
      const before = await marketState(f, [id]);
      for (const caller of [f.maker, f.stranger]) {
        await expect(m.connect(caller).exercise(id, 1n))
          .to.be.revertedWithCustomError(m, "OptionsMarketNotHolder")
          .withArgs(id, caller.address);
      }
      await expect(m.connect(f.taker).exercise(id, AMOUNT + 1n))
        .to.be.revertedWithCustomError(m, "MarketExceedsRemaining")
        .withArgs(id, AMOUNT + 1n, AMOUNT);
      await expect(m.connect(f.taker).exercise(id, 0n)).to.be.revertedWithCustomError(m, "MarketZeroAmount");
      await m.connect(f.taker).exercise(id, 1n); // pays 1 unit (rounded up)
      const after = await marketState(f, [id]);
      await expect(m.connect(f.taker).exercise(id, 1n))
        .to.be.revertedWithCustomError(m, "MarketZeroPayment")
        .withArgs(id, 1n);
      expect(await marketState(f, [id])).to.deep.equal(after);
      expect(after).to.not.deep.equal(before);
      await time.increaseTo(expiry);
      await expect(m.connect(f.taker).exercise(id, parseEther("1")))
        .to.be.revertedWithCustomError(m, "MarketListingExpired")
        .withArgs(id, expiry);
    });

    it("works while paused: the holder paid for the right", async function () {
      const { f, id } = await call();
      await pauseAs(f.optionsMarket, f.guardian, "guardian");
      await expect(f.optionsMarket.connect(f.taker).exercise(id, AMOUNT)).to.emit(f.optionsMarket, "OptionExercised");
    });
  });

  describe("transferOption", function () {
    it("moves the option to a new holder, who alone may exercise it", async function () {
      const { f, id } = await call();
      const m = f.optionsMarket;
      await expect(m.connect(f.taker).transferOption(id, f.stranger.address))
        .to.emit(m, "OptionTransferred")
        .withArgs(id, f.taker.address, f.stranger.address);
      expect((await m.listingOf(id)).counterparty).to.equal(f.stranger.address);
      await expect(m.connect(f.taker).exercise(id, AMOUNT))
        .to.be.revertedWithCustomError(m, "OptionsMarketNotHolder")
        .withArgs(id, f.taker.address);
      await f.collateral.connect(f.stranger).approve(f.addresses.options, ethers.MaxUint256);
      await expect(m.connect(f.stranger).exercise(id, AMOUNT)).to.changeTokenBalance(
        ethers,
        f.sstb,
        f.stranger,
        AMOUNT,
      );
    });

    it("refuses a non-holder, the zero address, an unsold option", async function () {
      const { f, id } = await call(false);
      const m = f.optionsMarket;
      await expect(m.connect(f.maker).transferOption(id, f.stranger.address))
        .to.be.revertedWithCustomError(m, "OptionsMarketNotHolder")
        .withArgs(id, f.maker.address);
      await m.connect(f.taker).buyOption(id, PREMIUM);
      await expect(m.connect(f.stranger).transferOption(id, f.stranger.address))
        .to.be.revertedWithCustomError(m, "OptionsMarketNotHolder")
        .withArgs(id, f.stranger.address);
      await expect(m.connect(f.taker).transferOption(id, ethers.ZeroAddress)).to.be.revertedWithCustomError(
        m,
        "ZeroAddress",
      );
    });
  });

  describe("reclaim / cancel", function () {
    it("after expiry anyone returns the unexercised sSTB of a call to the writer", async function () {
      const { f, id, expiry } = await call();
      const m = f.optionsMarket;
      await m.connect(f.taker).exercise(id, parseEther("4"));
      await expect(m.connect(f.stranger).reclaim(id))
        .to.be.revertedWithCustomError(m, "MarketNotExpired")
        .withArgs(id, expiry);
      await time.increaseTo(expiry);
      const tx = m.connect(f.stranger).reclaim(id);
      await expect(tx).to.emit(m, "OptionReclaimed").withArgs(id, f.stranger.address, parseEther("6"), 0n);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.maker, m], [parseEther("6"), -parseEther("6")]);
      expect((await m.listingOf(id)).status).to.equal(LStatus.Reclaimed);
      await expect(m.reclaim(id))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Reclaimed);
      await expect(m.connect(f.taker).transferOption(id, f.stranger.address))
        .to.be.revertedWithCustomError(m, "MarketInvalidStatus")
        .withArgs(id, LStatus.Reclaimed);
    });

    it("returns exactly the unspent strike of a partly exercised put: no dust stays", async function () {
      const { f, id, expiry } = await put();
      const m = f.optionsMarket;
      const part = parseEther("2.718281828459045235");
      await m.connect(f.taker).exercise(id, part);
      await time.increaseTo(expiry);
      const rest = ESCROW - cost(part, STRIKE);
      await expect(m.reclaim(id)).to.changeTokenBalances(ethers, f.collateral, [f.maker, m], [rest, -rest]);
      expect(await f.collateral.balanceOf(f.addresses.options)).to.equal(0n);
    });

    it("an unsold option: the writer cancels it any time, or anyone reclaims it after expiry", async function () {
      const { f, id, expiry } = await call(false);
      const m = f.optionsMarket;
      await m.connect(f.maker).writePut(AMOUNT, STRIKE, PREMIUM, expiry); // id 6
      await expect(m.connect(f.taker).cancel(id))
        .to.be.revertedWithCustomError(m, "MarketNotMaker")
        .withArgs(id, f.taker.address);
      await expect(m.connect(f.maker).cancel(id))
        .to.emit(m, "ListingCancelled")
        .withArgs(id, f.maker.address, AMOUNT, 0n);
      await time.increaseTo(expiry);
      await expect(m.connect(f.stranger).reclaim(6n))
        .to.emit(m, "OptionReclaimed")
        .withArgs(6n, f.stranger.address, 0n, ESCROW);
      expect(await f.sstb.balanceOf(f.addresses.options)).to.equal(0n);
      expect(await f.collateral.balanceOf(f.addresses.options)).to.equal(0n);
    });

    it("refuses an id this market never issued, in every operation and view", async function () {
      const { f } = await call(true);
      const m = f.optionsMarket;
      for (const id of [6n, 1n, 2n]) {
        for (const op of [
          () => m.optionOf(id),
          () => m.listingOf(id),
          () => m.connect(f.taker).buyOption(id, PREMIUM),
          () => m.connect(f.taker).exercise(id, 1n),
          () => m.reclaim(id),
          () => m.connect(f.maker).cancel(id),
          () => m.connect(f.taker).transferOption(id, f.stranger.address),
        ]) {
          await expect(op()).to.be.revertedWithCustomError(m, "MarketListingNotFound").withArgs(id);
        }
      }
    });

    it("a sold option cannot be cancelled", async function () {
      const { f, id } = await call();
      await expect(f.optionsMarket.connect(f.maker).cancel(id))
        .to.be.revertedWithCustomError(f.optionsMarket, "MarketInvalidStatus")
        .withArgs(id, LStatus.Sold);
    });
  });

  describe("pause and governance", function () {
    it("a pause stops writing and buying; reclaim, cancel and transfers keep working", async function () {
      const { f, id, expiry } = await call(false);
      const m = f.optionsMarket;
      await m.connect(f.maker).writeCall(AMOUNT, STRIKE, PREMIUM, expiry); // 6
      await m.connect(f.taker).buyOption(6n, PREMIUM);
      await pauseAs(m, f.guardian, "guardian");
      const before = await marketState(f, [id, 6n]);
      await expect(m.connect(f.maker).writeCall(AMOUNT, STRIKE, PREMIUM, expiry)).to.be.revertedWithCustomError(
        m,
        "EnforcedPause",
      );
      await expect(m.connect(f.maker).writePut(AMOUNT, STRIKE, PREMIUM, expiry)).to.be.revertedWithCustomError(
        m,
        "EnforcedPause",
      );
      await expect(m.connect(f.taker).buyOption(id, PREMIUM)).to.be.revertedWithCustomError(m, "EnforcedPause");
      expect(await marketState(f, [id, 6n])).to.deep.equal(before);
      await expect(m.connect(f.taker).transferOption(6n, f.stranger.address)).to.emit(m, "OptionTransferred");
      await expect(m.connect(f.maker).cancel(id)).to.emit(m, "ListingCancelled");
      await time.increaseTo(expiry);
      await expect(m.reclaim(6n)).to.emit(m, "OptionReclaimed");
    });

    it("every governed setter refuses a stranger", async function () {
      const f = await loadFixture(scenario);
      const m = f.optionsMarket.connect(f.stranger);
      for (const call of [
        () => m.setMarketFee(0n),
        () => m.setTreasury(f.stranger.address),
        () => m.unpause(),
        () => m.rearmGuardian(),
        () => m.setGuardianPauseDuration(HOUR),
      ]) {
        await expect(call())
          .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
          .withArgs(f.stranger.address, Roles.GOVERNANCE);
      }
      await expect(m.upgradeToAndCall(f.addresses.spot, "0x"))
        .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.UPGRADER);
    });
  });
});
