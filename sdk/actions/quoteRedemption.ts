import { isAddress } from "ethers";

import { erc20Abi } from "../abis/erc20.js";
import { providerRegistryAbi } from "../abis/providerRegistry.js";
import { redemptionViewsAbi } from "../abis/redemptionViews.js";
import type { ProtocolClient } from "../client.js";
import { contractReader, deployedReader } from "../contract-calls.js";
import { BaseError, InvalidParameterError } from "../errors.js";
import { getContractError } from "../revert-decoding.js";
import type { ContractRevertedError } from "../errors.js";

export interface QuoteRedemptionParameters {
  /** sSTB base units to redeem. */
  amount: bigint;
  /** The provider's address. */
  provider: string;
  /** The time the redemption would be made, Unix seconds (default: the latest block's). */
  at?: bigint;
}

/** The provider's tier names, in the registry's order. */
export const PROVIDER_TIERS = ["standard", "premium", "enterprise"] as const;
/** The registry's provider statuses, in its order. */
export const PROVIDER_STATUSES = ["none", "pending", "active", "suspended"] as const;

/** What a redemption of `amount` with `provider` would cost, lock and promise, before it is signed. */
export interface QuoteRedemptionReturnType {
  amount: bigint;
  /** The redemption fee (sSTB, on top of `amount`) and what the holder approves: amount plus fee. */
  fee: bigint;
  total: bigint;
  /** The manager's smallest redemption (sSTB base units). */
  minimum: bigint;
  /** The provider's tier, fulfilment time (seconds) and the deadline a redemption made at `at` gets. */
  tier: (typeof PROVIDER_TIERS)[number];
  fulfilmentSeconds: bigint;
  deadline: bigint;
  /** Collateral (its token's base units) the redemption locks, at the ratio in force (bps). */
  lock: bigint;
  ratioBps: bigint;
  collateral: { token: string; symbol: string; decimals: number };
  /** The provider's state now: status, capacity left (sSTB base units), free collateral, end of its stake. */
  provider: {
    status: (typeof PROVIDER_STATUSES)[number];
    availableCU: bigint;
    freeCollateral: bigint;
    lockedCollateral: bigint;
    stakedUntil: bigint;
  };
  /**
   * What the holder is paid from the lock if the provider fails (the redemption expires unfulfilled):
   * while the provider's staking period runs, the lock's value at 100% (lock x 10,000 / ratio, rounded
   * up) and the rest goes to the treasury; after it, the whole lock. A dispute the holder wins pays the
   * whole lock either way (docs/decisions/0035-the-staking-period-binds.md).
   */
  compensation: { ifExpiredDuringStake: bigint; ifExpiredAfterStake: bigint; ifDisputeWon: bigint };
  /** Why the manager would refuse it now, if it would ("" when it would accept). */
  refusal: string;
}

export type QuoteRedemptionErrorType = ContractRevertedError | InvalidParameterError | BaseError;

const BPS = 10_000n;

/**
 * Quotes a redemption before anything is signed: the fee, the deadline, the collateral the provider
 * locks for it and what the holder gets back if the provider fails, from the contracts' own views
 * (`quoteFee`, `requiredCollateral`, `tierDeadline`, the provider's account) with the lock computed
 * as the registry does (the difference of the requirements before and after).
 *
 * @example
 * const quote = await quoteRedemption(client, { amount: parseEther("5"), provider });
 * console.log(quote.fee, quote.deadline, quote.lock, quote.compensation.ifExpiredDuringStake);
 */
export async function quoteRedemption(
  client: ProtocolClient,
  { amount, provider, at }: QuoteRedemptionParameters,
): Promise<QuoteRedemptionReturnType> {
  if (amount <= 0n) throw new InvalidParameterError("amount", "must be positive");
  if (!isAddress(provider)) throw new InvalidParameterError("provider", "must be an address");
  const views = deployedReader(client, "RedemptionViews", redemptionViewsAbi);
  const registry = deployedReader(client, "ProviderRegistry", providerRegistryAbi);
  try {
    const [[fee, total], minimum, account, ratioBps, token, now] = await Promise.all([
      views.quoteFee(amount),
      views.minRedemptionAmount(),
      registry.accountOf(provider),
      registry.collateralRatioBps(),
      registry.collateralToken(),
      at === undefined ? latestTime(client) : Promise.resolve(at),
    ]);
    const metadata = contractReader(client, erc20Abi, token);
    const available = account.availableCU;
    const covered = amount <= available;
    const [fulfilmentSeconds, requiredNow, requiredAfter, symbol, decimals] = await Promise.all([
      views.tierDeadline(account.tier),
      registry.requiredCollateral(available),
      covered ? registry.requiredCollateral(available - amount) : Promise.resolve(0n),
      metadata.symbol(),
      metadata.decimals(),
    ]);
    const lock = covered ? requiredNow - requiredAfter : 0n;
    const duringStake = ratioBps === 0n ? lock : (lock * BPS + ratioBps - 1n) / ratioBps;
    const status = PROVIDER_STATUSES[Number(account.status)] ?? "none";
    const refusal =
      status === "none"
        ? "the provider is not registered"
        : amount < minimum
          ? "the amount is below the minimum redemption"
          : !covered
            ? "the provider has less capacity available than the amount"
            : lock > account.freeCollateral
              ? "the provider's free collateral does not cover the lock"
              : "";
    return {
      amount,
      fee,
      total,
      minimum,
      tier: PROVIDER_TIERS[Number(account.tier)] ?? "standard",
      fulfilmentSeconds,
      deadline: now + fulfilmentSeconds,
      lock,
      ratioBps,
      collateral: { token, symbol, decimals: Number(decimals) },
      provider: {
        status,
        availableCU: available,
        freeCollateral: account.freeCollateral,
        lockedCollateral: account.lockedCollateral,
        stakedUntil: account.stakedUntil,
      },
      compensation: {
        ifExpiredDuringStake: duringStake > lock ? lock : duringStake,
        ifExpiredAfterStake: lock,
        ifDisputeWon: lock,
      },
      refusal,
    };
  } catch (error) {
    throw getContractError(error, { functionName: "quoteRedemption" });
  }
}

async function latestTime(client: ProtocolClient): Promise<bigint> {
  const provider = client.runner.provider;
  if (provider === null)
    throw new InvalidParameterError("runner", "a runner with a provider is needed to read the time");
  const block = await provider.getBlock("latest");
  if (block === null) throw new BaseError("The chain has no latest block.");
  return BigInt(block.timestamp);
}
