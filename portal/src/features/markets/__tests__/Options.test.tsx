import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { parseEther } from "ethers";
import { afterEach, describe, expect, it } from "vitest";

import { gateway } from "../../../testing/api";
import { CHAIN_NOW, HOLDER, PROVIDER, STRANGER } from "../../../testing/data";
import { renderPortal } from "../../../testing/render";
import { server } from "../../../testing/server";
import { installTestWallet } from "../../../testing/wallet";
import { Options } from "../Options";
import { anItem, deployment, derivativesChain } from "./derivatives-chain";
import type { Position } from "./derivatives-chain";

const WEEK = 7 * 86_400;
/** Option #6: PROVIDER's covered call on 2 sSTB, strike 1.5 mUSDC, premium 0.1 mUSDC per sSTB, for a week. */
const CALL: Position = { kind: 5, status: 1, price: 100_000n, strike: 1_500_000n, expiration: CHAIN_NOW + WEEK };
/** Option #9: the same call, bought by HOLDER, 0.5 sSTB of it already exercised. */
const HELD: Position = { ...CALL, status: 7, counterparty: HOLDER, remaining: parseEther("1.5") };

let uninstall = () => {};
afterEach(() => uninstall());

function openOptions(
  options: { positions?: Record<number, Position>; listed?: ReturnType<typeof anItem>[]; account?: string } = {},
) {
  const rpc: string[] = [];
  const listed = options.listed ?? [anItem(6, "options", 0.1, CHAIN_NOW + WEEK)];
  server.use(
    gateway().get("/api/v1/marketplace/listings", { listings: listed, total: listed.length, page: 1, limit: 50 }),
    derivativesChain(options.positions ?? { 6: CALL, 9: HELD }, rpc),
  );
  uninstall = installTestWallet({ account: options.account ?? HOLDER, connected: true });
  renderPortal(<Options />, { deployment });
  return { rpc, user: userEvent.setup() };
}
const sent = (rpc: string[]) => rpc.filter((m) => m === "eth_sendTransaction");
async function show(user: ReturnType<typeof userEvent.setup>, id: number) {
  await user.type(await screen.findByLabelText("Option number"), String(id));
  await user.click(screen.getByRole("button", { name: "Show" }));
  return screen.findByTestId("option-position");
}

describe("Options page: the options for sale", () => {
  it("shows them loading, then each with its kind and strike read from the market and a Buy button", async () => {
    openOptions();
    expect(screen.getByText("Loading the options for sale…")).toBeInTheDocument();
    const row = await screen.findByTestId("option-6");
    await waitFor(() => expect(row).toHaveTextContent("call"));
    expect(row).toHaveTextContent("1.5 mUSDC"); // strike
    expect(row).toHaveTextContent("0.1 mUSDC"); // premium per sSTB
    expect(within(row).getByRole("button", { name: "Buy option 6" })).toBeEnabled();
    expect(screen.getByText("1 option")).toBeInTheDocument();
  });

  it("says when none is for sale, and why the list could not be read", async () => {
    server.use(gateway().get("/api/v1/marketplace/listings", { listings: [], total: 0, page: 1, limit: 50 }));
    const { unmount } = renderPortal(<Options />, { deployment });
    expect(await screen.findByText("No option is for sale right now.")).toBeInTheDocument();
    unmount();
    server.use(gateway().error("get", "/api/v1/marketplace/listings", 503, "internal_error", "the indexer is behind"));
    renderPortal(<Options />, { deployment });
    expect(await screen.findByRole("alert")).toHaveTextContent("the indexer is behind");
  });
});

describe("Options page: an option past its expiry", () => {
  it("offers anyone to return the escrow to its writer instead of Buy", async () => {
    openOptions({
      positions: { 6: { ...CALL, expiration: CHAIN_NOW - 60 } },
      listed: [anItem(6, "options", 0.1, CHAIN_NOW - 60)],
    });
    const row = await screen.findByTestId("option-6");
    expect(
      await within(row).findByRole("button", { name: "Return the escrow of option 6 to its writer" }),
    ).toBeEnabled();
    expect(within(row).getByTestId("countdown")).toHaveTextContent("expired");
    expect(within(row).queryByRole("button", { name: "Buy option 6" })).toBeNull();
  });
});

describe("Options page: the writer's own option", () => {
  it("offers its writer Cancel instead of Buy while nobody bought it", async () => {
    const { user, rpc } = openOptions({ account: PROVIDER });
    const row = await screen.findByTestId("option-6");
    expect(within(row).queryByRole("button", { name: "Buy option 6" })).toBeNull();
    await user.click(within(row).getByRole("button", { name: "Cancel option 6" }));
    await waitFor(() => expect(sent(rpc)).toEqual(["eth_sendTransaction"]));
  });
});

describe("Options page: buying", () => {
  it("shows the whole premium, the market's fee and what the option allows before anything is signed", async () => {
    const { user, rpc } = openOptions();
    const row = await screen.findByTestId("option-6");
    await waitFor(() => expect(within(row).getByRole("button", { name: "Buy option 6" })).toBeEnabled());
    await user.click(within(row).getByRole("button", { name: "Buy option 6" }));
    const quote = await screen.findByTestId("buy-option-quote");
    expect(quote).toHaveTextContent("You pay a premium of 0.2 mUSDC, of which 0.002 mUSDC is the market's fee");
    expect(quote).toHaveTextContent("to buy up to 2 sSTB at 1.5 mUSDC per sSTB");
    expect(quote).toHaveTextContent("(chain time)");
    expect(sent(rpc)).toEqual([]);
  });
});

describe("Options page: writing", () => {
  it("shows the escrow of a call (the sSTB) and of a put (the strike), and what the writer receives", async () => {
    const { user } = openOptions();
    const terms = await screen.findByTestId("write-terms");
    await waitFor(() => expect(terms).toHaveTextContent("The market escrows 2 sSTB from your wallet"));
    expect(terms).toHaveTextContent(
      "A buyer pays 0.2 mUSDC of premium, of which 0.002 mUSDC is the market's fee: you receive 0.198 mUSDC.",
    );
    await user.selectOptions(screen.getByLabelText("Kind"), "put");
    await waitFor(() => expect(terms).toHaveTextContent("The market escrows 3 mUSDC from your wallet"));
  });

  it("says which figure is wrong and keeps Write off", async () => {
    const { user } = openOptions();
    const strike = await screen.findByLabelText("Strike per sSTB (mUSDC)");
    await user.clear(strike);
    await user.type(strike, "abc");
    expect(
      await screen.findByText("Strike: Enter the amount as a number of mUSDC, such as 1 or 0.5."),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Write the option" })).toBeDisabled();
  });
});

describe("Options page: exercising and reclaiming", () => {
  it("lets the holder exercise what is left, with the strike payment and fee shown before signing", async () => {
    const { user, rpc } = openOptions();
    const position = await show(user, 9);
    expect(position).toHaveTextContent(
      "a call on 2 sSTB at a strike of 1.5 mUSDC per sSTB, 1.5 sSTB still exercisable",
    );
    const quote = await screen.findByTestId("exercise-quote");
    expect(quote).toHaveTextContent(
      "You pay 2.25 mUSDC (the strike) and receive 1.5 sSTB from the escrow; the writer receives 2.2275 mUSDC after the market's fee of 0.0225 mUSDC.",
    );
    expect(quote).toHaveTextContent("The market takes 2.25 mUSDC from your wallet.");
    const field = screen.getByLabelText("Amount to exercise (sSTB)");
    await user.clear(field);
    await user.type(field, "2");
    expect(await screen.findByText("Option #9 has 1.5 sSTB left to exercise.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Exercise" })).toBeDisabled();
    expect(sent(rpc)).toEqual([]);
  });

  it("tells someone who does not hold the option that only its holder can exercise it", async () => {
    const { user } = openOptions({ account: STRANGER });
    await show(user, 9);
    expect(await screen.findByText(/Only its holder can exercise it, until expiry/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Exercise" })).toBeNull();
  });

  it("after expiry returns the escrow to the writer with one transaction however often it is clicked", async () => {
    const { user, rpc } = openOptions({ positions: { 6: CALL, 12: { ...HELD, expiration: CHAIN_NOW - 60 } } });
    const position = await show(user, 12);
    expect(position).toHaveTextContent("expired");
    expect(screen.queryByRole("button", { name: "Exercise" })).toBeNull();
    await user.dblClick(screen.getByRole("button", { name: "Return the escrow of option #12 to its writer" }));
    await waitFor(() => expect(sent(rpc)).toEqual(["eth_sendTransaction"]));
    expect(screen.getByRole("button", { name: "Returning…" })).toBeDisabled();
    await new Promise((r) => setTimeout(r, 300));
    expect(sent(rpc)).toEqual(["eth_sendTransaction"]);
  });
});
