import { erc20Abi } from "../abis/erc20.js";
import { providerRegistryAbi } from "../abis/providerRegistry.js";
import { addressOf } from "../client.js";
import type { ProtocolClient } from "../client.js";
import { contractReader, deployedReader } from "../contract-calls.js";
import { BaseError } from "../errors.js";
import type { ContractRevertedError } from "../errors.js";
import { PROVIDER_STATUSES, PROVIDER_TIERS } from "./quoteRedemption.js";

export interface GetProviderAccountParameters {
  provider: string;
}

/** A provider's account on the registry and what its collateral allows, read together. */
export interface GetProviderAccountReturnType {
  status: (typeof PROVIDER_STATUSES)[number];
  tier: (typeof PROVIDER_TIERS)[number];
  /** 0..10,000 (shown as 0..100.00). */
  reputation: number;
  registeredAt: bigint;
  /** Capacity may be retired and excess collateral withdrawn from this chain time on. */
  stakedUntil: bigint;
  /** sSTB base units. */
  availableCapacity: bigint;
  totalCapacity: bigint;
  /** Collateral base units: free (backing available capacity, plus any excess) and locked for open redemptions. */
  freeCollateral: bigint;
  lockedCollateral: bigint;
  /** Collateral withdrawable now, were the staking period over (`excessCollateral`). */
  excessCollateral: bigint;
  /** Collateral one whole sSTB of capacity needs (the ratio in force times the price per sSTB). */
  collateralPerSstb: bigint;
  /** The registry's staking period bounds, seconds. */
  stakingPeriod: { min: bigint; max: bigint };
  /** The hash an approval binds, as the registry recorded it once approved (zero before). */
  reviewedProfileHash: string;
  /** The collateral token: its address, symbol and decimals. */
  collateralToken: { address: string; symbol: string; decimals: number };
  /** The provider's own balance of the collateral token (what it can deposit). */
  collateralBalance: bigint;
}

export type GetProviderAccountErrorType = ContractRevertedError | BaseError;

/**
 * Reads a provider's account on the registry (status, tier, capacity, collateral free, locked and
 * withdrawable, the staking period's end) with the terms that decide what a deposit allows (the
 * collateral one sSTB of capacity needs, the staking period bounds) and the collateral token.
 *
 * @example
 * const account = await getProviderAccount(client, { provider });
 * const capacityBacked = (account.freeCollateral * 10n ** 18n) / account.collateralPerSstb;
 */
export async function getProviderAccount(
  client: ProtocolClient,
  { provider }: GetProviderAccountParameters,
): Promise<GetProviderAccountReturnType> {
  const registry = deployedReader(client, "ProviderRegistry", providerRegistryAbi);
  const address = addressOf(client, "CollateralToken");
  const token = contractReader(client, erc20Abi, address);
  const [account, excess, perSstb, bounds, reviewed, symbol, decimals, balance] = await Promise.all([
    registry.accountOf(provider),
    registry.excessCollateral(provider),
    registry.requiredCollateral(10n ** 18n),
    registry.stakingPeriodBounds(),
    registry.reviewedProfileHash(provider),
    token.symbol(),
    token.decimals(),
    token.balanceOf(provider),
  ]);
  const status = PROVIDER_STATUSES[Number(account.status)];
  const tier = PROVIDER_TIERS[Number(account.tier)];
  if (status === undefined || tier === undefined) {
    throw new BaseError(`the registry returned an unknown status (${account.status}) or tier (${account.tier})`);
  }
  return {
    status,
    tier,
    reputation: Number(account.reputation),
    registeredAt: account.registeredAt,
    stakedUntil: account.stakedUntil,
    availableCapacity: account.availableCU,
    totalCapacity: account.totalCU,
    freeCollateral: account.freeCollateral,
    lockedCollateral: account.lockedCollateral,
    excessCollateral: excess,
    collateralPerSstb: perSstb,
    stakingPeriod: { min: bounds[0], max: bounds[1] },
    reviewedProfileHash: reviewed,
    collateralToken: { address, symbol, decimals: Number(decimals) },
    collateralBalance: balance,
  };
}
