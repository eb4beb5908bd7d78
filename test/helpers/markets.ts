import { parseEther, parseUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";

import { Roles } from "@compute-capacity/sdk";
import type { IgnitionConnection } from "../../deploy/deploy.js";
import {
  ERC1967Proxy__factory,
  FuturesMarket__factory,
  MockBlacklistStablecoin__factory,
  OptionsMarket__factory,
  SpotMarket__factory,
} from "../../typechain-types/index.js";
import type { MockBlacklistStablecoin } from "../../typechain-types/index.js";
import { deployProtocol, mintFor, registerActive } from "./protocol.js";
import type { ProtocolFixture } from "./protocol.js";

export { cost, fillPayment, marketFee } from "@compute-capacity/sdk";

export const MarketType = { None: 0n, Spot: 1n, Futures: 2n, Options: 3n } as const;
export const Kind = {
  None: 0n,
  SellListing: 1n,
  BuyOrder: 2n,
  FutureSell: 3n,
  FutureBuy: 4n,
  CoveredCall: 5n,
  CashSecuredPut: 6n,
} as const;
export const LStatus = {
  None: 0n,
  Active: 1n,
  Filled: 2n,
  Cancelled: 3n,
  Expired: 4n,
  Matched: 5n,
  Settled: 6n,
  Sold: 7n,
  Exercised: 8n,
  Reclaimed: 9n,
} as const;
export const TradeType = {
  None: 0n,
  SpotFill: 1n,
  FutureSettlement: 2n,
  OptionPremium: 3n,
  OptionExercise: 4n,
} as const;

export const HOUR = 3_600n;
export const USDC = (value: string) => parseUnits(value, 6);
export const DEFAULT_FEE_BPS = 30n;

export interface MarketFixture extends ProtocolFixture {
  /** Makes positions: the provider, holding 80 sSTB and a million USDC. */
  maker: HardhatEthersSigner;
  /** Takes them: the user, holding 20 sSTB and 10,000 USDC. */
  taker: HardhatEthersSigner;
  addresses: { spot: string; futures: string; options: string };
}

/**
 * The protocol with an active provider (the maker) that minted 100 sSTB and sold 20 to the user
 * (the taker); both approved the three markets for all their sSTB and USDC. The stranger holds
 * 10 sSTB and 10,000 USDC but approved nothing (for permits and refusals).
 */
export async function deployMarketScenario(connection: IgnitionConnection): Promise<MarketFixture> {
  const { ethers } = connection;
  const f = await deployProtocol(connection);
  await registerActive(f, f.provider);
  await mintFor(f, f.provider, parseEther("100"));
  await f.sstb.connect(f.provider).transfer(f.user.address, parseEther("20"));
  await f.sstb.connect(f.provider).transfer(f.stranger.address, parseEther("10"));
  await f.collateral.mint(f.user.address, USDC("10000"));
  await f.collateral.mint(f.stranger.address, USDC("10000"));
  const addresses = {
    spot: await f.spotMarket.getAddress(),
    futures: await f.futuresMarket.getAddress(),
    options: await f.optionsMarket.getAddress(),
  };
  for (const account of [f.provider, f.user]) {
    for (const market of Object.values(addresses)) {
      await f.sstb.connect(account).approve(market, ethers.MaxUint256);
      await f.collateral.connect(account).approve(market, ethers.MaxUint256);
    }
  }
  return { ...f, maker: f.provider, taker: f.user, addresses };
}

export interface BlacklistMarketFixture extends MarketFixture {
  /** The markets' payment token: refuses any transfer to, from or by a blacklisted account. */
  usdc: MockBlacklistStablecoin;
}

/**
 * {@link deployMarketScenario}, with the three markets deployed again (UUPS proxies, the deployer as
 * admin and governance, the same treasury, guardian and sSTB) over a payment token that blacklists as native
 * USDC does; `collateral`, `spotMarket`, `futuresMarket`, `optionsMarket` and `addresses` are
 * these. The maker holds a million of it, the taker and the stranger 10,000; the maker and the taker
 * approved the three markets for all their sSTB and of it, the stranger nothing.
 */
export async function deployBlacklistMarketScenario(connection: IgnitionConnection): Promise<BlacklistMarketFixture> {
  const { ethers } = connection;
  const f = await deployMarketScenario(connection);
  const usdc = await new MockBlacklistStablecoin__factory(f.deployer).deploy();
  const tokens = [await f.sstb.getAddress(), await usdc.getAddress()] as const;
  const init: [string, string] = [f.deployer.address, f.treasury.address];
  const proxy = async (implementation: { getAddress(): Promise<string> }, data: string) =>
    (await new ERC1967Proxy__factory(f.deployer).deploy(await implementation.getAddress(), data)).getAddress();
  const spot = await new SpotMarket__factory(f.deployer).deploy(...tokens);
  const futures = await new FuturesMarket__factory(f.deployer).deploy(...tokens);
  const options = await new OptionsMarket__factory(f.deployer).deploy(...tokens);
  const addresses = {
    spot: await proxy(spot, spot.interface.encodeFunctionData("initialize", init)),
    futures: await proxy(futures, futures.interface.encodeFunctionData("initialize", init)),
    options: await proxy(options, options.interface.encodeFunctionData("initialize", init)),
  };
  const markets = {
    spotMarket: SpotMarket__factory.connect(addresses.spot, f.deployer),
    futuresMarket: FuturesMarket__factory.connect(addresses.futures, f.deployer),
    optionsMarket: OptionsMarket__factory.connect(addresses.options, f.deployer),
  };
  for (const market of Object.values(markets)) await market.grantRole(Roles.GUARDIAN, f.guardian.address);
  await usdc.mint(f.maker.address, USDC("1000000"));
  for (const account of [f.taker, f.stranger]) await usdc.mint(account.address, USDC("10000"));
  for (const account of [f.maker, f.taker]) {
    for (const market of Object.values(addresses)) {
      await f.sstb.connect(account).approve(market, ethers.MaxUint256);
      await usdc.connect(account).approve(market, ethers.MaxUint256);
    }
  }
  return {
    ...f,
    usdc,
    collateral: usdc,
    ...markets,
    addresses,
  };
}

/**
 * Balances of every party and market, what each market holds for each party (claimable, both
 * tokens), and the markets' records of the given ids.
 */
export async function marketState(f: MarketFixture, ids: readonly bigint[] = []) {
  const accounts = [f.maker, f.taker, f.stranger, f.treasury].map((a) => a.address);
  const holders = [...accounts, ...Object.values(f.addresses)];
  const markets = [f.spotMarket, f.futuresMarket, f.optionsMarket];
  const marketOf = (id: bigint) => markets[Number((id - 1n) % 3n)];
  return {
    sstb: await Promise.all(holders.map((a) => f.sstb.balanceOf(a))),
    usdc: await Promise.all(holders.map((a) => f.collateral.balanceOf(a))),
    claimable: await Promise.all(
      markets.flatMap((m) =>
        accounts.flatMap((a) => [f.sstb, f.collateral].map(async (t) => m.claimable(a, await t.getAddress()))),
      ),
    ),
    counts: await Promise.all(markets.map((m) => m.listingCount())),
    fees: await Promise.all(markets.map((m) => m.feeBps())),
    treasuries: await Promise.all(markets.map((m) => m.treasury())),
    paused: await Promise.all(markets.map((m) => m.pausedUntil())),
    listings: await Promise.all(
      ids.map(async (id) => {
        const market = marketOf(id);
        return (await market.listingCount()) * 3n >= id ? [...(await market.listingOf(id))].map(String) : [];
      }),
    ),
  };
}
