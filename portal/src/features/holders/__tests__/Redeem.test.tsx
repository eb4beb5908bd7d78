import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { parseEther } from "ethers";
import { afterEach, describe, expect, it } from "vitest";

import { gateway } from "../../../testing/api";
import { block, ethCall, jsonRpc } from "../../../testing/chain";
import { CHAIN_NOW, HOLDER, PROVIDER, aBalance, aProvider, aQuote } from "../../../testing/data";
import { renderPortal } from "../../../testing/render";
import { server } from "../../../testing/server";
import { installTestWallet } from "../../../testing/wallet";
import { ProviderPage } from "../ProviderPage";

const ACCESS_KEY = `0x${"ab".repeat(32)}`;
let uninstall = () => {};
afterEach(() => uninstall());

/**
 * The provider page with its redemption form: the holder's wallet connected on the deployment's
 * chain with a registered access key; the quote answers for the amount asked (fee 0.1%).
 */
function openProviderPage(
  options: { balance?: number; allowance?: bigint; quote?: Partial<ReturnType<typeof aQuote>> } = {},
) {
  const api = gateway();
  const rpc: string[] = [];
  server.use(
    api.get("/api/v1/providers/{providerId}", aProvider()),
    api.get("/api/v1/sstb/balance", aBalance(options.balance ?? 12.5)),
    api.get("/api/v1/redemptions/quote", ({ request }) => {
      const amount = Number(new URL(request.url).searchParams.get("sstb_amount"));
      const fee = amount / 1000;
      return aQuote({
        sstb_amount: amount,
        fee,
        total: amount + fee,
        total_base_units: (parseEther(String(amount)) + parseEther(String(amount)) / 1000n).toString(),
        ...options.quote,
      });
    }),
    jsonRpc(
      {
        eth_blockNumber: () => "0x64",
        eth_getBlockByNumber: () => block(CHAIN_NOW),
        eth_call: ethCall([
          {
            abi: [
              "function accessKeyOf(address) view returns (bytes32)",
              "function quoteFee(uint256 amount) view returns (uint256 fee, uint256 total)",
            ],
            answers: {
              accessKeyOf: () => [ACCESS_KEY],
              quoteFee: ([amount]) => [(amount as bigint) / 1000n, (amount as bigint) + (amount as bigint) / 1000n],
            },
          },
          {
            abi: [
              "function allowance(address owner, address spender) view returns (uint256)",
              "function balanceOf(address) view returns (uint256)",
              "function name() view returns (string)",
              "function nonces(address) view returns (uint256)",
            ],
            answers: {
              allowance: () => [options.allowance ?? 0n],
              balanceOf: () => [parseEther(String(options.balance ?? 12.5))],
              name: () => ["Staked Compute"],
              nonces: () => [0n],
            },
          },
        ]),
        // the wallet is asked and the person has not answered yet
        eth_signTypedData_v4: () => new Promise(() => {}),
        eth_sendTransaction: () => new Promise(() => {}),
      },
      rpc,
    ),
  );
  uninstall = installTestWallet({ account: HOLDER, connected: true });
  renderPortal(<ProviderPage id={PROVIDER} />);
  return { api, rpc };
}

const amountField = () => screen.findByLabelText("Amount (sSTB)");
const redeemButton = () => screen.getByRole("button", { name: /^Redeem/ });
const signed = (rpc: string[]) => rpc.filter((m) => m === "eth_signTypedData_v4" || m === "eth_sendTransaction");

describe("Redeeming with a provider: checks before anything is signed", () => {
  it("tells a holder who asks for more than their balance so, and asks the wallet for nothing", async () => {
    const { rpc } = openProviderPage({ balance: 0.5 });
    const user = userEvent.setup();
    await user.clear(await amountField());
    await user.type(await amountField(), "1");
    expect(await screen.findByText(/Your balance on Arbitrum \(devnet\) is 0\.5 sSTB/)).toBeInTheDocument();
    expect(screen.getByText(/less than the 1\.001 sSTB this redemption takes \(amount plus fee\)/)).toBeInTheDocument();
    expect(redeemButton()).toBeDisabled();
    await user.click(redeemButton());
    expect(signed(rpc)).toEqual([]);
  });

  it.each([
    ["0", "Enter an amount above 0."],
    ["-1", "Enter an amount above 0."],
    ["abc", "Enter the amount as a number of sSTB, such as 1 or 0.5."],
    ["1,5", "Use a point for the decimals: 1.5, not 1,5."],
    ["0.1234567890123456789", "sSTB has at most 18 decimal places."],
  ])("tells a holder who types %s why it cannot be redeemed, without asking the gateway", async (typed, reason) => {
    const { api } = openProviderPage();
    const user = userEvent.setup();
    const field = await amountField();
    await user.clear(field);
    // pasted at once: no keystroke in between is a valid amount of its own
    await user.click(field);
    await user.paste(typed);
    expect(await screen.findByText(reason)).toBeInTheDocument();
    expect(field).toHaveAccessibleDescription(expect.stringContaining(reason));
    expect(redeemButton()).toBeDisabled();
    await new Promise((r) => setTimeout(r, 300));
    const asked = api.seen.filter((r) => r.path === "/api/v1/redemptions/quote").map((r) => r.query.get("sstb_amount"));
    expect(asked, "only the form's first amount is quoted").toEqual(asked.length === 0 ? [] : ["1"]);
  });

  it("tells a holder who asks for more than the provider's capacity what it has, without a zero lock beside it", async () => {
    openProviderPage({
      quote: {
        provider_available_cu_value: 0.5,
        collateral_locked: 0,
        refusal: "the provider's available capacity is too small",
      },
    });
    const user = userEvent.setup();
    await user.clear(await amountField());
    await user.type(await amountField(), "1");
    expect(
      await screen.findByText("This provider has 0.5 sSTB of capacity available now: redeem at most that."),
    ).toBeInTheDocument();
    expect(screen.queryByText("Collateral locked for you")).not.toBeInTheDocument();
    expect(redeemButton()).toBeDisabled();
  });

  it("tells a holder whose allowance already covers amount plus fee that only the redemption is signed", async () => {
    openProviderPage({ allowance: parseEther("5") });
    expect(
      await screen.findByText("Your allowance already covers 1.001 sSTB: you confirm one transaction, the redemption."),
    ).toBeInTheDocument();
  });

  it("tells a holder without an allowance that the wallet asks for a permit first", async () => {
    openProviderPage({ allowance: 0n });
    expect(
      await screen.findByText(
        "Your wallet asks you to sign a permit for 1.001 sSTB (a signature, no gas), then to confirm the redemption.",
      ),
    ).toBeInTheDocument();
  });
});

describe("Redeeming with a provider: one redemption per click", () => {
  it("keeps Redeem disabled while the wallet step is pending, so a double-click asks the wallet once", async () => {
    const { rpc } = openProviderPage({ allowance: 0n });
    const user = userEvent.setup();
    await screen.findByText(/Your wallet asks you to sign a permit/);
    await waitFor(() => expect(redeemButton()).toBeEnabled());
    await user.dblClick(redeemButton());
    expect(await screen.findByText("Sign the permit for amount plus fee in your wallet…")).toBeInTheDocument();
    await waitFor(() => expect(rpc).toContain("eth_signTypedData_v4"));
    await new Promise((r) => setTimeout(r, 300));
    expect(redeemButton()).toBeDisabled();
    await user.click(redeemButton());
    expect(signed(rpc)).toEqual(["eth_signTypedData_v4"]);
  });
});
