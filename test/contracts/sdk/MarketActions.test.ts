import { expect } from "chai";
import { network } from "hardhat";
import { parseEther } from "ethers";
import type { Signer } from "ethers";

import {
  buySpotListingSync,
  cancelListingSync,
  ContractRevertedError,
  createProtocolClient,
  createSpotBuyOrderSync,
  createSpotListing,
  createSpotListingSync,
  ensureAllowance,
  exerciseOptionSync,
  expireListingSync,
  getAllowance,
  getClaimable,
  getListing,
  InvalidParameterError,
  offerFutureSync,
  prepareBuyOption,
  prepareBuySpotListing,
  prepareCreateSpotListing,
  prepareExerciseOption,
  prepareOfferFuture,
  prepareSellToSpotOrder,
  prepareTakeFuture,
  prepareWriteOption,
  sellToSpotOrderSync,
  settleFutureSync,
  takeFutureSync,
  transferOptionSync,
  withdrawClaimableSync,
  writeOptionSync,
  buyOptionSync,
} from "@compute-capacity/sdk";
import type { ProtocolClient } from "@compute-capacity/sdk";
import {
  DEFAULT_FEE_BPS,
  HOUR,
  USDC,
  cost,
  deployBlacklistMarketScenario,
  deployMarketScenario,
  fillPayment,
  marketFee,
  marketState,
} from "../../helpers/markets.js";
import type { MarketFixture } from "../../helpers/markets.js";

const connection = await network.create();
const { networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const PRICE = USDC("2.5");

/** A client of the fixture's markets and tokens for `runner`. */
async function clientOf(f: MarketFixture, runner: Signer): Promise<ProtocolClient> {
  return createProtocolClient({
    runner,
    deployment: {
      SpotMarket: f.addresses.spot,
      FuturesMarket: f.addresses.futures,
      OptionsMarket: f.addresses.options,
      SSTB: await f.sstb.getAddress(),
    },
  });
}

async function later(seconds: bigint): Promise<bigint> {
  return BigInt(await time.latest()) + seconds;
}

async function scenario() {
  const f = await loadFixture(deployMarketScenario);
  return {
    ...f,
    maker: await clientOf(f, f.maker),
    taker: await clientOf(f, f.taker),
    stranger: await clientOf(f, f.stranger),
    f,
  };
}

describe("SDK market actions (spot, futures, options, claimable balances)", function () {
  describe("spot: list, buy, order, sell", function () {
    it("lists after the approval it names, and a buyer pays the quoted payment and fee", async function () {
      const { f, stranger, taker } = await scenario();
      const terms = { amount: parseEther("4"), price: PRICE, expiration: await later(HOUR) };
      const { approval } = await prepareCreateSpotListing(stranger, terms);
      expect(approval).to.deep.equal({
        token: await f.sstb.getAddress(),
        spender: f.addresses.spot,
        amount: terms.amount,
      });
      expect(await ensureAllowance(stranger, approval)).to.have.property("receipt");
      expect(await getAllowance(stranger, { ...approval, owner: f.stranger.address })).to.equal(terms.amount);
      expect(await ensureAllowance(stranger, approval)).to.equal(undefined); // already covered: nothing sent
      const { listingId } = await createSpotListingSync(stranger, terms);
      expect(await getListing(stranger, { listingId })).to.deep.include({
        listingId,
        market: "spot",
        kind: "sell_listing",
        status: "active",
        seller: f.stranger.address,
        amount: terms.amount,
        remaining: terms.amount,
        pricePerToken: PRICE,
        totalPrice: cost(terms.amount, PRICE),
      });

      const amount = parseEther("1.5");
      const buy = await prepareBuySpotListing(taker, { listingId, amount, maxPrice: PRICE });
      const payment = fillPayment(0n, amount, PRICE);
      expect(buy.approval).to.deep.equal({
        token: await f.collateral.getAddress(),
        spender: f.addresses.spot,
        amount: payment,
      });
      expect(buy.fee).to.equal(marketFee(payment, DEFAULT_FEE_BPS));
      const [sstbBefore, usdcBefore] = [
        await f.sstb.balanceOf(f.taker.address),
        await f.collateral.balanceOf(f.stranger.address),
      ];
      await buySpotListingSync(taker, { listingId, amount, maxPrice: PRICE });
      expect(await f.sstb.balanceOf(f.taker.address)).to.equal(sstbBefore + amount);
      expect(await f.collateral.balanceOf(f.stranger.address)).to.equal(usdcBefore + payment - buy.fee);
      expect((await getListing(taker, { listingId })).remaining).to.equal(terms.amount - amount);
    });

    it("refuses a price above the buyer's maximum with the market's error, changing nothing", async function () {
      const { f, maker, taker } = await scenario();
      const { listingId } = await createSpotListingSync(maker, {
        amount: parseEther("2"),
        price: PRICE,
        expiration: await later(HOUR),
      });
      const before = await marketState(f, [listingId]);
      const error = await buySpotListingSync(taker, { listingId, amount: parseEther("1"), maxPrice: PRICE - 1n }).catch(
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ContractRevertedError);
      expect((error as ContractRevertedError).errorName).to.equal("MarketPriceMismatch");
      expect((error as ContractRevertedError).args).to.deep.equal({ listingId, price: PRICE, expected: PRICE - 1n });
      expect(await marketState(f, [listingId])).to.deep.equal(before);
    });

    it("places a buy order escrowing its whole payment, and a seller is paid from it less the fee", async function () {
      const { f, maker, taker } = await scenario();
      const amount = parseEther("3");
      const escrowBefore = await f.collateral.balanceOf(f.addresses.spot);
      const { listingId } = await createSpotBuyOrderSync(taker, {
        amount,
        price: PRICE,
        expiration: await later(HOUR),
      });
      expect(await f.collateral.balanceOf(f.addresses.spot)).to.equal(escrowBefore + cost(amount, PRICE));
      expect((await getListing(taker, { listingId })).kind).to.equal("buy_order");
      const sell = await prepareSellToSpotOrder(maker, { listingId, amount, minPrice: PRICE });
      expect(sell.approval).to.deep.equal({ token: await f.sstb.getAddress(), spender: f.addresses.spot, amount });
      expect(sell.payment).to.equal(cost(amount, PRICE));
      const before = await f.collateral.balanceOf(f.maker.address);
      await sellToSpotOrderSync(maker, { listingId, amount, minPrice: PRICE });
      expect(await f.collateral.balanceOf(f.maker.address)).to.equal(before + sell.payment - sell.fee);
      expect((await getListing(maker, { listingId })).status).to.equal("filled");
    });

    it("refuses bad terms and an id of another market before any call", async function () {
      const { maker } = await scenario();
      const expiration = await later(HOUR);
      await expect(prepareCreateSpotListing(maker, { amount: 0n, price: PRICE, expiration })).to.be.rejectedWith(
        InvalidParameterError,
        "Invalid amount: must be positive.",
      );
      await expect(prepareCreateSpotListing(maker, { amount: 1n, price: 2n ** 64n, expiration })).to.be.rejectedWith(
        InvalidParameterError,
        "Invalid price: must be positive and below 2^64.",
      );
      await expect(prepareBuySpotListing(maker, { listingId: 2n, amount: 1n, maxPrice: PRICE })).to.be.rejectedWith(
        InvalidParameterError,
        "Invalid listingId: is not a spot listing.",
      );
    });
  });

  describe("cancelListing and expireListing", function () {
    it("lets only the maker cancel; the escrow goes back", async function () {
      const { f, maker, stranger } = await scenario();
      const amount = parseEther("5");
      const { listingId } = await createSpotListingSync(maker, { amount, price: PRICE, expiration: await later(HOUR) });
      const refused = await cancelListingSync(stranger, { listingId }).catch((e: unknown) => e);
      expect((refused as ContractRevertedError).errorName).to.equal("MarketNotMaker");
      const before = await f.sstb.balanceOf(f.maker.address);
      await cancelListingSync(maker, { listingId });
      expect(await f.sstb.balanceOf(f.maker.address)).to.equal(before + amount);
      expect((await getListing(maker, { listingId })).status).to.equal("cancelled");
    });

    it("expires a spot listing once its time has come (anyone), and reclaims an expired option", async function () {
      const { f, maker, stranger } = await scenario();
      const spot = await createSpotListingSync(maker, {
        amount: parseEther("1"),
        price: PRICE,
        expiration: await later(HOUR),
      });
      const call = await writeOptionSync(maker, {
        kind: "call",
        amount: parseEther("1"),
        strike: PRICE,
        premium: USDC("0.1"),
        expiry: await later(HOUR),
      });
      const early = await expireListingSync(stranger, { listingId: spot.listingId }).catch((e: unknown) => e);
      expect((early as ContractRevertedError).errorName).to.equal("MarketNotExpired");
      await time.increase(HOUR);
      await expireListingSync(stranger, { listingId: spot.listingId });
      await expireListingSync(stranger, { listingId: call.listingId });
      expect((await getListing(maker, { listingId: spot.listingId })).status).to.equal("expired");
      expect((await getListing(maker, { listingId: call.listingId })).status).to.equal("reclaimed");
      expect(await f.sstb.balanceOf(f.addresses.options)).to.equal(0n);
    });
  });

  describe("futures: offer, take, settle", function () {
    it("escrows each side as the offer says, and settles for the buyer and the seller at the settlement time", async function () {
      const { f, maker, taker, stranger } = await scenario();
      const amount = parseEther("2");
      const settlementTime = await later(24n * HOUR);
      const offer = await prepareOfferFuture(maker, { side: "sell", amount, price: PRICE, settlementTime });
      expect(offer.approval).to.deep.equal({ token: await f.sstb.getAddress(), spender: f.addresses.futures, amount });
      const buyOffer = await prepareOfferFuture(taker, { side: "buy", amount, price: PRICE, settlementTime });
      expect(buyOffer.approval.amount).to.equal(cost(amount, PRICE));
      const { listingId } = await offerFutureSync(maker, { side: "sell", amount, price: PRICE, settlementTime });
      expect(listingId % 3n).to.equal(2n); // a futures id

      const take = await prepareTakeFuture(taker, { listingId, limitPrice: PRICE });
      expect(take).to.deep.include({ side: "buy", amount, payment: cost(amount, PRICE) });
      expect(take.approval).to.deep.equal({
        token: await f.collateral.getAddress(),
        spender: f.addresses.futures,
        amount: cost(amount, PRICE),
      });
      await takeFutureSync(taker, { listingId, limitPrice: PRICE });
      expect(await getListing(taker, { listingId })).to.deep.include({
        status: "matched",
        counterparty: f.taker.address,
      });

      const early = await settleFutureSync(stranger, { listingId }).catch((e: unknown) => e);
      expect((early as ContractRevertedError).errorName).to.equal("MarketNotExpired");
      await time.increaseTo(settlementTime);
      const [sstbBefore, usdcBefore] = [
        await f.sstb.balanceOf(f.taker.address),
        await f.collateral.balanceOf(f.maker.address),
      ];
      const settled = await settleFutureSync(stranger, { listingId });
      const payment = cost(amount, PRICE);
      expect(settled).to.deep.include({
        buyer: f.taker.address,
        seller: f.maker.address,
        amount,
        payment,
        fee: marketFee(payment, DEFAULT_FEE_BPS),
      });
      expect(await f.sstb.balanceOf(f.taker.address)).to.equal(sstbBefore + amount);
      expect(await f.collateral.balanceOf(f.maker.address)).to.equal(usdcBefore + payment - settled.fee);
    });
  });

  describe("options: write, buy, exercise, transfer", function () {
    it("a covered call: the buyer pays the premium, then exercises part by paying the strike", async function () {
      const { f, maker, taker } = await scenario();
      const amount = parseEther("4");
      const terms = { kind: "call", amount, strike: PRICE, premium: USDC("0.2"), expiry: await later(HOUR) } as const;
      expect((await prepareWriteOption(maker, terms)).approval).to.deep.equal({
        token: await f.sstb.getAddress(),
        spender: f.addresses.options,
        amount,
      });
      const { listingId } = await writeOptionSync(maker, terms);
      const buy = await prepareBuyOption(taker, { listingId, maxPremium: terms.premium });
      expect(buy.approval.amount).to.equal(cost(amount, terms.premium));
      expect(buy.fee).to.equal(marketFee(cost(amount, terms.premium), DEFAULT_FEE_BPS));
      await buyOptionSync(taker, { listingId, maxPremium: terms.premium });
      expect(await getListing(taker, { listingId })).to.deep.include({ status: "sold", counterparty: f.taker.address });

      const part = parseEther("1.5");
      const exercise = await prepareExerciseOption(taker, { listingId, amount: part });
      expect(exercise).to.deep.include({ kind: "call", payment: fillPayment(0n, part, PRICE) });
      expect(exercise.approval.token).to.equal(await f.collateral.getAddress());
      const sstbBefore = await f.sstb.balanceOf(f.taker.address);
      const done = await exerciseOptionSync(taker, { listingId, amount: part });
      expect(done).to.deep.include({ payment: exercise.payment, fee: exercise.fee, remaining: amount - part });
      expect(await f.sstb.balanceOf(f.taker.address)).to.equal(sstbBefore + part);
      // the next part pays what the rounding leaves, so that the parts add up to the whole strike
      expect((await prepareExerciseOption(taker, { listingId, amount: amount - part })).payment).to.equal(
        fillPayment(part, amount - part, PRICE),
      );
    });

    it("a put: exercising delivers sSTB; only the holder may, and a transfer moves that right", async function () {
      const { f, maker, taker, stranger } = await scenario();
      const amount = parseEther("2");
      const terms = { kind: "put", amount, strike: PRICE, premium: USDC("0.1"), expiry: await later(HOUR) } as const;
      expect((await prepareWriteOption(maker, terms)).approval).to.deep.equal({
        token: await f.collateral.getAddress(),
        spender: f.addresses.options,
        amount: cost(amount, PRICE),
      });
      const { listingId } = await writeOptionSync(maker, terms);
      await buyOptionSync(taker, { listingId, maxPremium: terms.premium });
      const notHolder = await exerciseOptionSync(stranger, { listingId, amount }).catch((e: unknown) => e);
      expect((notHolder as ContractRevertedError).errorName).to.equal("OptionsMarketNotHolder");
      await transferOptionSync(taker, { listingId, to: f.stranger.address });
      const exercise = await prepareExerciseOption(stranger, { listingId, amount });
      expect(exercise.kind).to.equal("put");
      expect(exercise.approval).to.deep.equal({
        token: await f.sstb.getAddress(),
        spender: f.addresses.options,
        amount,
      });
      await ensureAllowance(stranger, exercise.approval);
      const usdcBefore = await f.collateral.balanceOf(f.stranger.address);
      await exerciseOptionSync(stranger, { listingId, amount });
      expect(await f.collateral.balanceOf(f.stranger.address)).to.equal(usdcBefore + exercise.payment - exercise.fee);
      expect((await getListing(maker, { listingId })).status).to.equal("exercised");
    });
  });

  describe("claimable balances", function () {
    it("shows what a market holds for a blacklisted seller and withdraws it to another address", async function () {
      const f = await loadFixture(deployBlacklistMarketScenario);
      const [maker, taker] = await Promise.all([clientOf(f, f.maker), clientOf(f, f.taker)]);
      const { listingId } = await createSpotListingSync(maker, {
        amount: parseEther("2"),
        price: PRICE,
        expiration: await later(HOUR),
      });
      await f.usdc.blacklist(f.maker.address);
      const { fee } = await prepareBuySpotListing(taker, { listingId, amount: parseEther("2"), maxPrice: PRICE });
      await buySpotListingSync(taker, { listingId, amount: parseEther("2"), maxPrice: PRICE });
      const token = await f.usdc.getAddress();
      const held = await getClaimable(maker, { market: "spot", account: f.maker.address, token });
      expect(held).to.equal(cost(parseEther("2"), PRICE) - fee);
      const before = await f.usdc.balanceOf(f.stranger.address);
      await withdrawClaimableSync(maker, { market: "spot", token, to: f.stranger.address });
      expect(await f.usdc.balanceOf(f.stranger.address)).to.equal(before + held);
      expect(await getClaimable(maker, { market: "spot", account: f.maker.address, token })).to.equal(0n);
      const again = await withdrawClaimableSync(maker, { market: "spot", token, to: f.stranger.address }).catch(
        (e: unknown) => e,
      );
      expect((again as ContractRevertedError).errorName).to.equal("MarketNothingToWithdraw");
    });
  });

  it("sends the transaction prepare builds (the hash is of that call)", async function () {
    const { f, maker } = await scenario();
    const terms = { amount: parseEther("1"), price: PRICE, expiration: await later(HOUR) };
    const hash = await createSpotListing(maker, terms);
    const tx = await f.maker.provider!.getTransaction(hash);
    const prepared = await prepareCreateSpotListing(maker, terms);
    expect([tx!.to, tx!.data, tx!.value]).to.deep.equal([prepared.to, prepared.data, prepared.value]);
  });
});
