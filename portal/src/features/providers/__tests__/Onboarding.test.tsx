import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";

import { hashReviewedProfile } from "@compute-capacity/sdk";

import { HttpResponse, http } from "msw";

import { GATEWAY, gateway } from "../../../testing/api";
import { block, ethCall, jsonRpc } from "../../../testing/chain";
import { CHAIN_NOW, PROVIDER, aBalance, aProvider, aRedemptionPage } from "../../../testing/data";
import { renderPortal } from "../../../testing/render";
import { server } from "../../../testing/server";
import { installTestWallet } from "../../../testing/wallet";
import { Console } from "../Console";

let uninstall = () => {};
afterEach(() => uninstall());

const ACCOUNT_ABI = [
  "function accountOf(address) view returns (tuple(uint8 status, uint8 tier, uint16 reputation, uint40 registeredAt, uint40 stakedUntil, uint32 totalRedemptions, uint32 successfulRedemptions, uint64 totalResponseTime, uint128 availableCU, uint128 totalCU, uint128 freeCollateral, uint128 lockedCollateral))",
  "function excessCollateral(address) view returns (uint256)",
  "function requiredCollateral(uint256) view returns (uint256)",
  "function stakingPeriodBounds() view returns (uint256, uint256)",
  "function reviewedProfileHash(address) view returns (bytes32)",
];
const TOKEN_ABI = [
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function balanceOf(address) view returns (uint256)",
];

interface ChainAccount {
  status: number;
  tier?: number;
  stakedUntil?: number;
  free?: bigint;
  excess?: bigint;
  wallet?: bigint;
}

/**
 * The console of a provider whose registry account is `chain`; the gateway knows it when `indexed`
 * (or from its `afterCalls`-th request on: an index that lags the chain).
 */
function openConsole(chain: ChainAccount, indexed: ReturnType<typeof aProvider> | null, afterCalls = 0) {
  const api = gateway();
  let calls = 0;
  server.use(
    indexed === null
      ? api.error("get", "/api/v1/providers/{providerId}", 404, "resource_not_found", "no provider")
      : http.get(`${GATEWAY}/api/v1/providers/:providerId`, () =>
          ++calls <= afterCalls
            ? HttpResponse.json(
                { success: false, error: { code: "resource_not_found", message: "no provider", details: {} } },
                { status: 404 },
              )
            : HttpResponse.json({ success: true, data: indexed }),
        ),
    api.get("/api/v1/sstb/balance", aBalance(0)),
    api.get("/api/v1/redemptions", aRedemptionPage()),
    jsonRpc({
      eth_blockNumber: () => "0x64",
      eth_getBlockByNumber: () => block(CHAIN_NOW),
      eth_call: ethCall([
        {
          abi: ACCOUNT_ABI,
          answers: {
            accountOf: () => [
              [
                chain.status,
                chain.tier ?? 0,
                5_000,
                CHAIN_NOW - 600,
                chain.stakedUntil ?? 0,
                0,
                0,
                0,
                0n,
                0n,
                chain.free ?? 0n,
                0n,
              ],
            ],
            excessCollateral: () => [chain.excess ?? chain.free ?? 0n],
            requiredCollateral: () => [1_200_000n],
            stakingPeriodBounds: () => [7n * 86_400n, 365n * 86_400n],
            reviewedProfileHash: () => [`0x${"00".repeat(32)}`],
          },
        },
        {
          abi: TOKEN_ABI,
          answers: { symbol: () => ["mUSDC"], decimals: () => [6], balanceOf: () => [chain.wallet ?? 0n] },
        },
        { abi: ["function reputationUnit() view returns (uint256)"], answers: { reputationUnit: () => [10n ** 19n] } },
      ]),
    }),
  );
  uninstall = installTestWallet({ account: PROVIDER, connected: true });
  renderPortal(<Console address={PROVIDER} />);
}

describe("A provider's first day: the console", () => {
  it("offers a new account to register, with the tiers and the staking period's bounds", async () => {
    openConsole({ status: 0 }, null);
    expect(await screen.findByRole("heading", { name: "Register as a provider" })).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: /Premium: fulfil within 6 h/ })).toBeInTheDocument();
    expect(await screen.findByLabelText("Staking period (days, 7 to 365)")).toHaveValue(30);
  });

  it("shows a provider in review what governance approves, by its hash", async () => {
    const pending = aProvider({ status: "pending" });
    openConsole({ status: 1, tier: 1 }, pending);
    const review = await screen.findByTestId("review-state");
    expect(review).toHaveTextContent("Under review");
    const hash = hashReviewedProfile(
      {
        name: pending.name,
        country: pending.location.country,
        region: pending.location.region,
        cpuType: pending.hardware_specifications.cpu_type,
        totalCpuCores: pending.hardware_specifications.total_cpu_cores,
        totalRamGb: pending.hardware_specifications.total_ram_gb,
        totalStorageGb: pending.hardware_specifications.total_storage_gb,
        networkCapacityMbps: pending.hardware_specifications.network_capacity_mbps,
      },
      1,
    );
    expect(review).toHaveTextContent(hash);
    expect(
      screen.getByText(/Verification and minting open once governance has approved your profile/),
    ).toBeInTheDocument();
  });

  it("shows a registration the gateway had not indexed yet without a reload", async () => {
    // the console's own clock, not the test's, waits for the next refresh (every 5 s)
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      openConsole({ status: 1, tier: 1 }, aProvider({ status: "pending" }), 2);
      expect(await screen.findByText(/the gateway is indexing it/)).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await screen.findByTestId("review-state")).toHaveTextContent("Under review");
    } finally {
      vi.useRealTimers();
    }
  });

  it("tells a provider what a deposit allows, and refuses more than the wallet holds before asking the wallet", async () => {
    openConsole({ status: 2, wallet: 100_000_000n }, aProvider());
    const user = userEvent.setup();
    const field = await screen.findByLabelText("Deposit (mUSDC)");
    await user.clear(field);
    await user.type(field, "60");
    expect(await screen.findByText(/Backs 50 sSTB of capacity/)).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, "120");
    expect(await screen.findByText("Your wallet holds 100 mUSDC: less than 120 mUSDC.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Deposit" })).toBeDisabled();
  });

  it("refuses a withdrawal during the staking period, and above the excess with the figure", async () => {
    openConsole({ status: 2, stakedUntil: CHAIN_NOW + 86_400, free: 120_000_000n, excess: 20_000_000n }, aProvider());
    const user = userEvent.setup();
    const field = await screen.findByLabelText("Withdraw (mUSDC)");
    await user.type(field, "10");
    expect(await screen.findByText(/Your capacity is staked until the chain reaches/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Withdraw" })).toBeDisabled();
  });

  it("lets a provider withdraw up to the excess once the staking period is over", async () => {
    openConsole({ status: 2, stakedUntil: CHAIN_NOW - 60, free: 120_000_000n, excess: 20_000_000n }, aProvider());
    const user = userEvent.setup();
    expect(await screen.findByTestId("withdrawable")).toHaveTextContent("20 mUSDC");
    const field = await screen.findByLabelText("Withdraw (mUSDC)");
    await user.type(field, "25");
    expect(
      await screen.findByText(/At most 20 mUSDC is withdrawable: the rest backs your available capacity/),
    ).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, "20");
    expect(screen.getByRole("button", { name: "Withdraw" })).toBeEnabled();
  });
});
