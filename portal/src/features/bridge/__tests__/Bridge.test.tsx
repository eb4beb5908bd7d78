import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";

import { jsonRpc } from "../../../testing/chain";
import { HOLDER } from "../../../testing/data";
import { renderPortal, testDeployment } from "../../../testing/render";
import { server } from "../../../testing/server";
import { installTestWallet } from "../../../testing/wallet";
import { Bridge } from "../Bridge";

let uninstall = () => {};
afterEach(() => uninstall());

/** The bridge page with a wallet connected on `chainId`; every JSON-RPC method the page calls is recorded. */
function openBridge(chainId: number, methods: Parameters<typeof jsonRpc>[0] = {}) {
  const rpc: string[] = [];
  server.use(jsonRpc(methods, rpc));
  uninstall = installTestWallet({ account: HOLDER, connected: true, chainId });
  renderPortal(<Bridge />);
  return { rpc, user: userEvent.setup() };
}

describe("Bridge page: the chains", () => {
  it("sends from the chain the wallet is on, to another of the deployment's chains", async () => {
    // the only call the page makes on the chain before an amount is typed: sSTB's balanceOf (3 sSTB)
    openBridge(1, { eth_call: () => `0x${(3n * 10n ** 18n).toString(16).padStart(64, "0")}` });
    // the wallet is found and reconnected after the first render: the source (a new form) follows it then
    await waitFor(() => expect(screen.getByRole("combobox", { name: /^From/ })).toHaveValue("1"));
    const to = screen.getByRole("combobox", { name: /^To/ });
    // the source is not offered as the destination
    expect([...(to as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      "Arbitrum (devnet)",
      "Base (devnet)",
    ]);
    expect(screen.getByRole("button", { name: "Send to Arbitrum (devnet)" })).toBeDisabled();
    // the balance there, read through the wallet on that chain
    expect(await screen.findByTestId("bridge-balance")).toHaveTextContent("You hold 3 sSTB on Ethereum (devnet).");
  });

  it("asks to switch a wallet on a chain outside the deployment, and quotes nothing before", async () => {
    const { rpc } = openBridge(137);
    expect(await screen.findByTestId("bridge-quote")).toHaveTextContent(
      "Your wallet is on chain 137; the transfer is signed on Arbitrum (devnet).",
    );
    expect(screen.getByRole("button", { name: "Switch to Arbitrum (devnet)" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Send to Ethereum (devnet)" })).toBeDisabled();
    expect(rpc).toEqual([]);
  });

  it("says there is nowhere to bridge to on a deployment of one chain", () => {
    uninstall = installTestWallet({ account: HOLDER, connected: true });
    const deployment = testDeployment();
    renderPortal(<Bridge />, { deployment: { ...deployment, chains: [deployment.chain] } });
    expect(screen.getByText("This deployment has one chain: there is nowhere to bridge to.")).toBeInTheDocument();
  });
});

describe("Bridge page: the amount", () => {
  it("refuses an amount typed wrong, in words, before anything is read from the chain", async () => {
    const { user, rpc } = openBridge(137);
    const amount = await screen.findByLabelText("Amount (sSTB)");
    await user.type(amount, "1,5");
    expect(screen.getByTestId("bridge-quote")).toHaveTextContent("Use a point for the decimals: 1.5, not 1,5.");
    await user.clear(amount);
    await user.type(amount, "0");
    expect(screen.getByTestId("bridge-quote")).toHaveTextContent("Enter an amount above 0.");
    expect(rpc).toEqual([]);
  });
});
