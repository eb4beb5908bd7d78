import { expect } from "chai";
import { network } from "hardhat";
import { parseEther } from "ethers";

import {
  DEFAULT_FEE_BPS,
  HOUR,
  LStatus,
  USDC,
  cost,
  deployBlacklistMarketScenario,
  fillPayment,
  marketFee,
  marketState,
} from "../../helpers/markets.js";
import type { BlacklistMarketFixture } from "../../helpers/markets.js";
import { pauseAs } from "../../helpers/pause.js";

/**
 * Issue 17, property 1: the payment token on arbitrum is native USDC, which refuses any transfer to
 * or from a blacklisted account. Every market path that pays someone other than its caller is
 * driven here with such a token (MockBlacklistStablecoin) and the other party, or the treasury,
 * blacklisted after the position was made: the caller's side must complete, and what the refused
 * party is owed waits in the market as a claimable balance it withdraws to an address of its choice.
 */

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const AMOUNT = parseEther("10");
const PRICE = 1_500_001n; // a price that does not divide evenly
const PAYMENT = cost(AMOUNT, PRICE);
const FEE = marketFee(PAYMENT, DEFAULT_FEE_BPS);
const STRIKE = 1_100_003n;
const PREMIUM = USDC("0.1");
const PREMIUM_TOTAL = cost(AMOUNT, PREMIUM);
const PREMIUM_FEE = marketFee(PREMIUM_TOTAL, DEFAULT_FEE_BPS);

async function scenario(): Promise<BlacklistMarketFixture> {
  return deployBlacklistMarketScenario(connection);
}

async function now(): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
}

/** What the market holds for `account` in the payment token. */
async function owed(f: BlacklistMarketFixture, market: "spot" | "futures" | "options", account: string) {
  const m = { spot: f.spotMarket, futures: f.futuresMarket, options: f.optionsMarket }[market];
  return m.claimable(account, await f.usdc.getAddress());
}

/** A future (id 2) the maker offered to sell and the taker took, settling in a week. */
async function matchedSale() {
  const f = await loadFixture(scenario);
  const settlement = (await now()) + 7n * 24n * HOUR;
  await f.futuresMarket.connect(f.maker).offerToSell(AMOUNT, PRICE, settlement);
  await f.futuresMarket.connect(f.taker).take(2n, PRICE);
  return { f, id: 2n, settlement };
}

/** A covered call (id 3) written by the maker, expiring in 30 days; bought by the taker if `sold`. */
async function call(sold: boolean) {
  const f = await loadFixture(scenario);
  const expiry = (await now()) + 30n * 24n * HOUR;
  await f.optionsMarket.connect(f.maker).writeCall(AMOUNT, STRIKE, PREMIUM, expiry);
  if (sold) await f.optionsMarket.connect(f.taker).buyOption(3n, PREMIUM);
  return { f, id: 3n, expiry };
}

describe("property: what a buyer or option holder is owed never depends on a transfer to the other party", function () {
  it("a future settles when its seller is blacklisted after the match: the buyer receives its sSTB, the payment waits for the seller", async function () {
    const { f, id, settlement } = await matchedSale();
    const m = f.futuresMarket;
    await f.usdc.blacklist(f.maker.address);
    await time.increaseTo(settlement);
    const tx = m.connect(f.stranger).settle(id);
    await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.taker, m], [AMOUNT, -AMOUNT]);
    await expect(tx)
      .to.emit(m, "ClaimableCredited")
      .withArgs(f.maker.address, await f.usdc.getAddress(), PAYMENT - FEE);
    await expect(tx).to.changeTokenBalances(ethers, f.usdc, [f.maker, f.treasury, m], [0n, FEE, -FEE]);
    expect((await m.listingOf(id)).status).to.equal(LStatus.Settled);
    expect(await owed(f, "futures", f.maker.address)).to.equal(PAYMENT - FEE);
    expect(await f.usdc.balanceOf(f.addresses.futures)).to.equal(PAYMENT - FEE);
  });

  it("a future settles when the seller that took an offer to buy is blacklisted: the maker receives its sSTB", async function () {
    const f = await loadFixture(scenario);
    const m = f.futuresMarket;
    const settlement = (await now()) + 24n * HOUR;
    await m.connect(f.maker).offerToBuy(AMOUNT, PRICE, settlement);
    await m.connect(f.taker).take(2n, PRICE);
    await f.usdc.blacklist(f.taker.address);
    await time.increaseTo(settlement);
    await expect(m.connect(f.maker).settle(2n)).to.changeTokenBalances(ethers, f.sstb, [f.maker, m], [AMOUNT, -AMOUNT]);
    expect(await owed(f, "futures", f.taker.address)).to.equal(PAYMENT - FEE);
  });

  it("a call's holder exercises when the writer is blacklisted: it receives the sSTB, the strike waits for the writer", async function () {
    const { f, id } = await call(true);
    const m = f.optionsMarket;
    await f.usdc.blacklist(f.maker.address);
    const part = parseEther("4");
    const payment = fillPayment(0n, part, STRIKE);
    const fee = marketFee(payment, DEFAULT_FEE_BPS);
    const tx = m.connect(f.taker).exercise(id, part);
    await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.taker, m], [part, -part]);
    await expect(tx).to.changeTokenBalances(
      ethers,
      f.usdc,
      [f.taker, f.maker, f.treasury, m],
      [-payment, 0n, fee, payment - fee],
    );
    expect(await owed(f, "options", f.maker.address)).to.equal(payment - fee);
    await m.connect(f.taker).exercise(id, AMOUNT - part);
    expect((await m.listingOf(id)).status).to.equal(LStatus.Exercised);
    expect(await owed(f, "options", f.maker.address)).to.equal(
      cost(AMOUNT, STRIKE) - fee - marketFee(fillPayment(part, AMOUNT - part, STRIKE), DEFAULT_FEE_BPS),
    );
  });

  it("an option whose writer is blacklisted can still be bought: the buyer holds it, the premium waits for the writer", async function () {
    const { f, id } = await call(false);
    const m = f.optionsMarket;
    await f.usdc.blacklist(f.maker.address);
    await expect(m.connect(f.taker).buyOption(id, PREMIUM)).to.changeTokenBalances(
      ethers,
      f.usdc,
      [f.taker, f.treasury, m],
      [-PREMIUM_TOTAL, PREMIUM_FEE, PREMIUM_TOTAL - PREMIUM_FEE],
    );
    const l = await m.listingOf(id);
    expect([l.status, l.counterparty]).to.deep.equal([LStatus.Sold, f.taker.address]);
    expect(await owed(f, "options", f.maker.address)).to.equal(PREMIUM_TOTAL - PREMIUM_FEE);
  });

  it("a spot buyer buys from a listing whose seller is blacklisted: it receives the sSTB, the payment waits for the seller", async function () {
    const f = await loadFixture(scenario);
    const m = f.spotMarket;
    await m.connect(f.maker).createListing(AMOUNT, PRICE, (await now()) + HOUR);
    await f.usdc.blacklist(f.maker.address);
    const part = parseEther("4") + 1n;
    const payment = fillPayment(0n, part, PRICE);
    const fee = marketFee(payment, DEFAULT_FEE_BPS);
    const tx = m.connect(f.taker).buy(1n, part, PRICE);
    await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.taker, m], [part, -part]);
    await expect(tx).to.changeTokenBalances(ethers, f.usdc, [f.taker, f.treasury, m], [-payment, fee, payment - fee]);
    expect(await owed(f, "spot", f.maker.address)).to.equal(payment - fee);
  });

  it("a spot seller fills a buy order whose maker is blacklisted: the maker receives the sSTB from the seller", async function () {
    const f = await loadFixture(scenario);
    const m = f.spotMarket;
    await m.connect(f.maker).createBuyOrder(AMOUNT, PRICE, (await now()) + HOUR);
    await f.usdc.blacklist(f.maker.address);
    const tx = m.connect(f.taker).sell(1n, AMOUNT, PRICE);
    await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.taker, f.maker], [-AMOUNT, AMOUNT]);
    await expect(tx).to.changeTokenBalances(ethers, f.usdc, [f.taker, f.treasury, m], [PAYMENT - FEE, FEE, -PAYMENT]);
  });

  it("a blacklisted treasury never blocks a trade: every trade completes and every fee waits for the treasury", async function () {
    const f = await loadFixture(scenario);
    const [spot, futures, options] = [f.spotMarket, f.futuresMarket, f.optionsMarket];
    const t = await now();
    await spot.connect(f.maker).createListing(AMOUNT, PRICE, t + HOUR); // 1
    await spot.connect(f.maker).createBuyOrder(AMOUNT, PRICE, t + HOUR); // 4
    await futures.connect(f.maker).offerToSell(AMOUNT, PRICE, t + HOUR); // 2
    await futures.connect(f.taker).take(2n, PRICE);
    await options.connect(f.maker).writeCall(AMOUNT, STRIKE, PREMIUM, t + HOUR); // 3
    await options.connect(f.maker).writePut(AMOUNT, STRIKE, PREMIUM, t + HOUR); // 6
    await f.usdc.blacklist(f.treasury.address);

    await expect(spot.connect(f.taker).buy(1n, AMOUNT, PRICE)).to.changeTokenBalance(ethers, f.sstb, f.taker, AMOUNT);
    await expect(spot.connect(f.taker).sell(4n, AMOUNT, PRICE)).to.changeTokenBalance(
      ethers,
      f.usdc,
      f.taker,
      PAYMENT - FEE,
    );
    expect(await owed(f, "spot", f.treasury.address)).to.equal(2n * FEE);

    await options.connect(f.taker).buyOption(3n, PREMIUM);
    await options.connect(f.taker).buyOption(6n, PREMIUM);
    const callPayment = cost(AMOUNT, STRIKE);
    const callFee = marketFee(callPayment, DEFAULT_FEE_BPS);
    await expect(options.connect(f.taker).exercise(3n, AMOUNT)).to.changeTokenBalance(ethers, f.sstb, f.taker, AMOUNT);
    await expect(options.connect(f.taker).exercise(6n, AMOUNT)).to.changeTokenBalance(
      ethers,
      f.usdc,
      f.taker,
      callPayment - callFee,
    );
    expect(await owed(f, "options", f.treasury.address)).to.equal(2n * PREMIUM_FEE + 2n * callFee);

    await time.increaseTo(t + HOUR);
    await expect(futures.settle(2n)).to.changeTokenBalance(ethers, f.sstb, f.taker, AMOUNT);
    expect(await owed(f, "futures", f.treasury.address)).to.equal(FEE);
    expect(await f.usdc.balanceOf(f.treasury.address)).to.equal(0n);
  });

  it("anyone ends a blacklisted maker's expired position: the refund waits for the maker", async function () {
    const f = await loadFixture(scenario);
    const [spot, futures, options] = [f.spotMarket, f.futuresMarket, f.optionsMarket];
    const t = await now();
    await spot.connect(f.maker).createBuyOrder(AMOUNT, PRICE, t + HOUR); // 1
    await futures.connect(f.maker).offerToBuy(AMOUNT, PRICE, t + HOUR); // 2
    await options.connect(f.maker).writePut(AMOUNT, STRIKE, PREMIUM, t + HOUR); // 3
    await f.usdc.blacklist(f.maker.address);
    await time.increaseTo(t + HOUR);
    await expect(spot.connect(f.stranger).expire(1n))
      .to.emit(spot, "ListingExpired")
      .withArgs(1n, f.stranger.address, 0n, PAYMENT);
    await expect(futures.connect(f.stranger).expire(2n))
      .to.emit(futures, "ListingExpired")
      .withArgs(2n, f.stranger.address, 0n, PAYMENT);
    await expect(options.connect(f.stranger).reclaim(3n))
      .to.emit(options, "OptionReclaimed")
      .withArgs(3n, f.stranger.address, 0n, cost(AMOUNT, STRIKE));
    expect(await owed(f, "spot", f.maker.address)).to.equal(PAYMENT);
    expect(await owed(f, "futures", f.maker.address)).to.equal(PAYMENT);
    expect(await owed(f, "options", f.maker.address)).to.equal(cost(AMOUNT, STRIKE));
  });
});

describe("a refusal the caller causes itself still reverts its own call", function () {
  it("a blacklisted buyer, holder or seller cannot trade, and nothing changes", async function () {
    const f = await loadFixture(scenario);
    const t = await now();
    await f.spotMarket.connect(f.maker).createListing(AMOUNT, PRICE, t + HOUR); // 1
    await f.spotMarket.connect(f.maker).createBuyOrder(AMOUNT, PRICE, t + HOUR); // 4
    await f.optionsMarket.connect(f.maker).writeCall(AMOUNT, STRIKE, PREMIUM, t + HOUR); // 3
    await f.optionsMarket.connect(f.maker).writePut(AMOUNT, STRIKE, PREMIUM, t + HOUR); // 6
    await f.optionsMarket.connect(f.taker).buyOption(3n, PREMIUM);
    await f.optionsMarket.connect(f.taker).buyOption(6n, PREMIUM);
    await f.futuresMarket.connect(f.maker).offerToSell(AMOUNT, PRICE, t + HOUR); // 2
    await f.usdc.blacklist(f.taker.address);
    const before = await marketState(f, [1n, 2n, 3n, 4n, 6n]);
    const refused = (tx: Promise<unknown>) =>
      expect(tx).to.be.revertedWithCustomError(f.usdc, "AccountBlacklisted").withArgs(f.taker.address);
    await refused(f.spotMarket.connect(f.taker).buy(1n, AMOUNT, PRICE));
    await refused(f.spotMarket.connect(f.taker).sell(4n, AMOUNT, PRICE));
    await refused(f.futuresMarket.connect(f.taker).take(2n, PRICE));
    await refused(f.optionsMarket.connect(f.taker).exercise(3n, AMOUNT));
    await refused(f.optionsMarket.connect(f.taker).exercise(6n, AMOUNT));
    expect(await marketState(f, [1n, 2n, 3n, 4n, 6n])).to.deep.equal(before);
  });

  it("a blacklisted maker cannot cancel into its own address; once expired, anyone ends the position and credits it", async function () {
    const f = await loadFixture(scenario);
    const m = f.futuresMarket;
    const settlement = (await now()) + HOUR;
    await m.connect(f.maker).offerToBuy(AMOUNT, PRICE, settlement);
    await f.usdc.blacklist(f.maker.address);
    const before = await marketState(f, [2n]);
    await expect(m.connect(f.maker).cancel(2n))
      .to.be.revertedWithCustomError(f.usdc, "AccountBlacklisted")
      .withArgs(f.maker.address);
    expect(await marketState(f, [2n])).to.deep.equal(before);
    await time.increaseTo(settlement);
    await expect(m.connect(f.stranger).expire(2n))
      .to.emit(m, "ClaimableCredited")
      .withArgs(f.maker.address, await f.usdc.getAddress(), PAYMENT);
    expect((await m.listingOf(2n)).status).to.equal(LStatus.Expired);
  });
});

describe("claimable balances (withdrawClaimable)", function () {
  /** The maker blacklisted after a future was matched and settled: its payment waits in the market. */
  async function credited() {
    const { f, id, settlement } = await matchedSale();
    await f.usdc.blacklist(f.maker.address);
    await time.increaseTo(settlement);
    await f.futuresMarket.settle(id);
    return { f, token: await f.usdc.getAddress() };
  }

  it("the owner withdraws all of it to an address of its choice, once", async function () {
    const { f, token } = await credited();
    const m = f.futuresMarket;
    expect(await m.connect(f.maker).withdrawClaimable.staticCall(token, f.stranger.address)).to.equal(PAYMENT - FEE);
    const tx = m.connect(f.maker).withdrawClaimable(token, f.stranger.address);
    await expect(tx)
      .to.emit(m, "ClaimableWithdrawn")
      .withArgs(f.maker.address, token, f.stranger.address, PAYMENT - FEE);
    await expect(tx).to.changeTokenBalances(
      ethers,
      f.usdc,
      [f.stranger, m, f.maker],
      [PAYMENT - FEE, -(PAYMENT - FEE), 0n],
    );
    expect(await m.claimable(f.maker.address, token)).to.equal(0n);
    await expect(m.connect(f.maker).withdrawClaimable(token, f.stranger.address))
      .to.be.revertedWithCustomError(m, "MarketNothingToWithdraw")
      .withArgs(f.maker.address, token);
  });

  it("once the token lets the owner receive again, it withdraws to itself", async function () {
    const { f, token } = await credited();
    await f.usdc.unBlacklist(f.maker.address);
    await expect(f.futuresMarket.connect(f.maker).withdrawClaimable(token, f.maker.address)).to.changeTokenBalance(
      ethers,
      f.usdc,
      f.maker,
      PAYMENT - FEE,
    );
  });

  it("refuses the zero address, an address the token refuses, anyone but the owner; changes nothing", async function () {
    const { f, token } = await credited();
    const m = f.futuresMarket;
    const before = [await marketState(f, [2n]), await m.claimable(f.maker.address, token)];
    await expect(m.connect(f.maker).withdrawClaimable(token, ethers.ZeroAddress)).to.be.revertedWithCustomError(
      m,
      "ZeroAddress",
    );
    await expect(m.connect(f.maker).withdrawClaimable(token, f.maker.address))
      .to.be.revertedWithCustomError(f.usdc, "AccountBlacklisted")
      .withArgs(f.maker.address);
    for (const caller of [f.taker, f.stranger, f.treasury]) {
      await expect(m.connect(caller).withdrawClaimable(token, caller.address))
        .to.be.revertedWithCustomError(m, "MarketNothingToWithdraw")
        .withArgs(caller.address, token);
    }
    await expect(m.connect(f.maker).withdrawClaimable(await f.sstb.getAddress(), f.stranger.address))
      .to.be.revertedWithCustomError(m, "MarketNothingToWithdraw")
      .withArgs(f.maker.address, await f.sstb.getAddress());
    expect([await marketState(f, [2n]), await m.claimable(f.maker.address, token)]).to.deep.equal(before);
  });

  it("works while the market is paused: a pause never keeps what is owed", async function () {
    const { f, token } = await credited();
    await pauseAs(f.futuresMarket, f.guardian, "guardian");
    await expect(f.futuresMarket.connect(f.maker).withdrawClaimable(token, f.stranger.address)).to.emit(
      f.futuresMarket,
      "ClaimableWithdrawn",
    );
  });

  it("every market keeps its own claimable balances, withdrawn from that market", async function () {
    const f = await loadFixture(scenario);
    const token = await f.usdc.getAddress();
    await f.spotMarket.connect(f.maker).createListing(AMOUNT, PRICE, (await now()) + HOUR);
    await f.optionsMarket.connect(f.maker).writeCall(AMOUNT, STRIKE, PREMIUM, (await now()) + HOUR);
    await f.usdc.blacklist(f.maker.address);
    await f.spotMarket.connect(f.taker).buy(1n, AMOUNT, PRICE);
    await f.optionsMarket.connect(f.taker).buyOption(3n, PREMIUM);
    expect(await f.futuresMarket.claimable(f.maker.address, token)).to.equal(0n);
    await expect(f.spotMarket.connect(f.maker).withdrawClaimable(token, f.stranger.address))
      .to.emit(f.spotMarket, "ClaimableWithdrawn")
      .withArgs(f.maker.address, token, f.stranger.address, PAYMENT - FEE);
    await expect(f.optionsMarket.connect(f.maker).withdrawClaimable(token, f.stranger.address))
      .to.emit(f.optionsMarket, "ClaimableWithdrawn")
      .withArgs(f.maker.address, token, f.stranger.address, PREMIUM_TOTAL - PREMIUM_FEE);
    expect(await f.usdc.balanceOf(f.addresses.spot)).to.equal(0n);
    expect(await f.usdc.balanceOf(f.addresses.options)).to.equal(0n);
  });
});
