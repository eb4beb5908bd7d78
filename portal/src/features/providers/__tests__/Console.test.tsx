import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { gateway } from "../../../testing/api";
import { block, ethCall, jsonRpc } from "../../../testing/chain";
import { CHAIN_NOW, PROVIDER, aProvider, aRedemptionPage, anAccountRedemption } from "../../../testing/data";
import { renderPortal } from "../../../testing/render";
import { server } from "../../../testing/server";
import { installTestWallet } from "../../../testing/wallet";
import { Console } from "../Console";

let uninstall = () => {};
afterEach(() => {
  uninstall();
  vi.useRealTimers();
});

function openConsole(
  redemptions = [anAccountRedemption({ redemption_id: "7", estimated_fulfillment_time: CHAIN_NOW + 6 * 3_600 })],
) {
  const api = gateway();
  server.use(
    api.get(
      "/api/v1/providers/{providerId}",
      aProvider({ statistics: { ...aProvider().statistics, successful_redemptions: 0, total_redemptions: 0 } }),
    ),
    api.get("/api/v1/providers/{providerId}/collateral", {
      provider_id: PROVIDER,
      collateral_token: { address: "0x00000000000000000000000000000000000000a5", symbol: "mUSDC", decimals: 6 },
      free_collateral: 120,
      free_collateral_base_units: "120000000",
      locked_collateral: 1.2,
      locked_collateral_base_units: "1200000",
      status: "active",
      required_collateral: 96,
      required_collateral_base_units: "96000000",
      available_cu_value: 80,
      available_cu_value_base_units: "80000000000000000000",
      total_cu_value: 100,
      total_cu_value_base_units: "100000000000000000000",
      staked_until: CHAIN_NOW + 30 * 86_400,
      tier: "premium",
    }),
    api.get("/api/v1/redemptions", aRedemptionPage(redemptions)),
    jsonRpc({
      eth_blockNumber: () => "0x64",
      eth_getBlockByNumber: () => block(CHAIN_NOW),
      eth_call: ethCall([
        {
          abi: [
            "function leaseIdOf(uint256) view returns (uint256)",
            "function reputationUnit() view returns (uint256)",
          ],
          answers: { leaseIdOf: () => [0n], reputationUnit: () => [10n * 10n ** 18n] },
        },
      ]),
    }),
  );
  uninstall = installTestWallet({ account: PROVIDER, connected: true });
  renderPortal(<Console address={PROVIDER} />);
}

describe("Provider console", () => {
  it("counts a redemption's time left by the chain's clock, not the computer's", async () => {
    // the computer's clock is 38 days behind the chain's
    vi.useFakeTimers({ toFake: ["Date"], now: (CHAIN_NOW - 38 * 86_400) * 1000 });
    openConsole();
    const row = await screen.findByRole("row", { name: /Incoming redemption 7/ });
    expect(await within(row).findByText("6 h 0 min left")).toHaveAttribute("data-testid", "countdown");
  });

  it("gives the unit of the collateral locked for each incoming redemption", async () => {
    openConsole();
    const row = await screen.findByRole("row", { name: /Incoming redemption 7/ });
    expect(row).toHaveTextContent("1.2 mUSDC");
  });

  it("says which redemptions the statistics count, so 0 of 0 beside confirmed ones reads right", async () => {
    openConsole([anAccountRedemption({ redemption_id: "7", status: "confirmed" })]);
    expect(await screen.findByText(/counted for reputation: redemptions of at least 10 sSTB/)).toBeInTheDocument();
  });
});
