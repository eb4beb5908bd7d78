import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";

import { gateway } from "../../../testing/api";
import { CHAIN_NOW, HOLDER, PROVIDER } from "../../../testing/data";
import { renderPortal } from "../../../testing/render";
import { server } from "../../../testing/server";
import { installTestWallet } from "../../../testing/wallet";
import { Futures } from "../Futures";
import { anItem, deployment, derivativesChain } from "./derivatives-chain";
import type { Position } from "./derivatives-chain";

const WEEK = 7 * 86_400;
/** Future #5: PROVIDER offers to sell 2 sSTB at 1.5 mUSDC, settling in a week. */
const OFFER: Position = { kind: 3, status: 1, price: 1_500_000n, expiration: CHAIN_NOW + WEEK };

let uninstall = () => {};
afterEach(() => uninstall());

function openFutures(
  options: { positions?: Record<number, Position>; listed?: ReturnType<typeof anItem>[]; account?: string } = {},
) {
  const rpc: string[] = [];
  const listed = options.listed ?? [anItem(5, "futures", 1.5, CHAIN_NOW + WEEK)];
  server.use(
    gateway().get("/api/v1/marketplace/listings", { listings: listed, total: listed.length, page: 1, limit: 50 }),
    derivativesChain(options.positions ?? { 5: OFFER }, rpc),
  );
  uninstall = installTestWallet({ account: options.account ?? HOLDER, connected: true });
  renderPortal(<Futures />, { deployment });
  return { rpc, user: userEvent.setup() };
}
const sent = (rpc: string[]) => rpc.filter((m) => m === "eth_sendTransaction");

describe("Futures page: the open offers", () => {
  it("shows the offers loading, then each with its side read from the market and a Take button", async () => {
    openFutures();
    expect(screen.getByText("Loading the futures offers…")).toBeInTheDocument();
    const row = await screen.findByTestId("future-5");
    expect(row).toHaveTextContent("2 sSTB");
    expect(row).toHaveTextContent("1.5 mUSDC");
    await waitFor(() => expect(row).toHaveTextContent("sells"));
    // counted from the chain's clock (a week ahead of the block), moving on each second since it was read
    expect(within(row).getByTestId("countdown")).toHaveTextContent(/^(7 d 0 h|6 d 23 h) left$/);
    expect(within(row).getByRole("button", { name: "Take offer 5" })).toBeEnabled();
    expect(screen.getByText("1 offer")).toBeInTheDocument();
  });

  it("says when no offer is open, and why the offers could not be read", async () => {
    server.use(gateway().get("/api/v1/marketplace/listings", { listings: [], total: 0, page: 1, limit: 50 }));
    const { unmount } = renderPortal(<Futures />, { deployment });
    expect(await screen.findByText("No futures offer is open right now.")).toBeInTheDocument();
    unmount();
    server.use(gateway().error("get", "/api/v1/marketplace/listings", 503, "internal_error", "the indexer is behind"));
    renderPortal(<Futures />, { deployment });
    expect(await screen.findByRole("alert")).toHaveTextContent("the indexer is behind");
  });

  it("offers to return the escrow of an offer whose settlement time passed untaken, instead of Take", async () => {
    openFutures({
      positions: { 5: { ...OFFER, expiration: CHAIN_NOW - 60 } },
      listed: [anItem(5, "futures", 1.5, CHAIN_NOW - 60)],
    });
    const row = await screen.findByTestId("future-5");
    expect(await within(row).findByRole("button", { name: "Return the escrow of offer 5" })).toBeInTheDocument();
    expect(within(row).queryByRole("button", { name: "Take offer 5" })).toBeNull();
  });
});

describe("Futures page: the maker's own offer", () => {
  it("offers its maker Cancel instead of Take, and cancels with one transaction however often it is clicked", async () => {
    const { user, rpc } = openFutures({ account: PROVIDER });
    const row = await screen.findByTestId("future-5");
    expect(within(row).queryByRole("button", { name: "Take offer 5" })).toBeNull();
    await user.dblClick(within(row).getByRole("button", { name: "Cancel offer 5" }));
    await waitFor(() => expect(sent(rpc)).toEqual(["eth_sendTransaction"]));
    expect(within(row).getByRole("button", { name: "Cancel offer 5" })).toBeDisabled();
    await new Promise((r) => setTimeout(r, 300));
    expect(sent(rpc)).toEqual(["eth_sendTransaction"]);
  });
});

describe("Futures page: taking an offer", () => {
  it("shows what the taker escrows now and the fee at settlement before anything is signed", async () => {
    const { rpc, user } = openFutures();
    const row = await screen.findByTestId("future-5");
    await waitFor(() => expect(within(row).getByRole("button", { name: "Take offer 5" })).toBeEnabled());
    await user.click(within(row).getByRole("button", { name: "Take offer 5" }));
    const quote = await screen.findByTestId("take-quote");
    expect(quote).toHaveTextContent("You buy 2 sSTB for 3 mUSDC.");
    expect(quote).toHaveTextContent("The market escrows 3 mUSDC from your wallet now, until settlement on");
    expect(quote).toHaveTextContent("(chain time)");
    expect(quote).toHaveTextContent("the seller receives it less the market's fee (0.03 mUSDC)");
    expect(sent(rpc)).toEqual([]);
  });

  it("tells the taker of an offer to buy what they deliver and what they receive after the fee", async () => {
    const { user } = openFutures({ positions: { 5: { ...OFFER, kind: 4 } } });
    const row = await screen.findByTestId("future-5");
    await waitFor(() => expect(row).toHaveTextContent("buys"));
    await user.click(within(row).getByRole("button", { name: "Take offer 5" }));
    const quote = await screen.findByTestId("take-quote");
    expect(quote).toHaveTextContent(
      "You sell 2 sSTB for 3 mUSDC, of which 0.03 mUSDC is the market's fee: you receive 2.97 mUSDC.",
    );
    expect(quote).toHaveTextContent("The market escrows 2 sSTB from your wallet now");
  });
});

describe("Futures page: making an offer", () => {
  it("shows the escrow of an offer to sell (the sSTB) and of an offer to buy (the payment) before signing", async () => {
    const { user } = openFutures();
    const terms = await screen.findByTestId("offer-terms");
    await waitFor(() => expect(terms).toHaveTextContent("The market escrows 2 sSTB from your wallet until settlement"));
    expect(terms).toHaveTextContent("At settlement 3 mUSDC changes hands, of which 0.03 mUSDC is the market's fee");
    await user.selectOptions(screen.getByLabelText("Side"), "buy");
    await waitFor(() => expect(terms).toHaveTextContent("The market escrows 3 mUSDC from your wallet"));
    expect(screen.getByRole("button", { name: "Make the offer" })).toBeEnabled();
  });

  it.each([
    ["Amount (sSTB)", "1,5", "Use a point for the decimals: 1.5, not 1,5."],
    ["Price per sSTB (mUSDC)", "0.0000001", "mUSDC has at most 6 decimal places."],
    ["Settles in (days)", "0", "The settlement is 1 to 365 days away."],
  ])("says why %s = %s cannot be offered and keeps the button off", async (label, typed, reason) => {
    const { user, rpc } = openFutures();
    const field = await screen.findByLabelText(label);
    await user.clear(field);
    await user.type(field, typed);
    expect(await screen.findByText(reason)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Make the offer" })).toBeDisabled();
    expect(sent(rpc)).toEqual([]);
  });
});

describe("Futures page: settling a future", () => {
  const MATCHED: Position = {
    kind: 3,
    status: 5,
    counterparty: HOLDER,
    price: 1_500_000n,
    expiration: CHAIN_NOW + 3_600,
  };

  it("finds a taken future by its number and says Settle waits for the settlement time by the chain's clock", async () => {
    const { user } = openFutures({ positions: { 5: OFFER, 8: MATCHED } });
    await user.type(await screen.findByLabelText("Future number"), "8");
    await user.click(screen.getByRole("button", { name: "Show" }));
    const position = await screen.findByTestId("future-position");
    expect(position).toHaveTextContent("Future #8: 2 sSTB at 1.5 mUSDC per sSTB (3 mUSDC), status matched.");
    expect(within(position).getByTestId("countdown")).toHaveTextContent(/^(1 h 0 min|59 min \d+ s) left$/);
    expect(
      screen.getByText("Settle becomes possible at the settlement time, by the chain's clock."),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Settle future/ })).toBeNull();
  });

  it("settles a future whose time has come with one transaction however often Settle is clicked", async () => {
    const { user, rpc } = openFutures({ positions: { 5: OFFER, 8: { ...MATCHED, expiration: CHAIN_NOW - 60 } } });
    await user.type(await screen.findByLabelText("Future number"), "8");
    await user.click(screen.getByRole("button", { name: "Show" }));
    const settle = await screen.findByRole("button", { name: "Settle future #8" });
    await user.dblClick(settle);
    await waitFor(() => expect(sent(rpc)).toEqual(["eth_sendTransaction"]));
    expect(screen.getByRole("button", { name: "Settling…" })).toBeDisabled();
    await new Promise((r) => setTimeout(r, 300));
    expect(sent(rpc)).toEqual(["eth_sendTransaction"]);
  });

  it("says a number from another market is not a future", async () => {
    const { user } = openFutures({
      positions: { 5: OFFER, 6: { kind: 5, status: 1, price: 1n, expiration: CHAIN_NOW } },
    });
    await user.type(await screen.findByLabelText("Future number"), "6");
    await user.click(screen.getByRole("button", { name: "Show" }));
    expect(await screen.findByText("#6 is not a future (it is on the options market).")).toBeInTheDocument();
  });
});
