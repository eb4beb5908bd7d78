import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { gateway } from "../../../testing/api";
import { CHAIN_NOW, PROVIDER } from "../../../testing/data";
import { renderPortal } from "../../../testing/render";
import { server } from "../../../testing/server";
import { Markets } from "../Markets";

const listing = {
  listing_id: 3,
  market_type: "spot" as const,
  seller: PROVIDER,
  amount: 5,
  amount_base_units: "5000000000000000000",
  price_per_token: 1.5,
  price_per_token_base_units: "1500000",
  total_price: 7.5,
  total_price_base_units: "7500000",
  token_type: "sSTB" as const,
  listed_at: CHAIN_NOW - 60,
  expiration: CHAIN_NOW + 7 * 86_400,
};

describe("Markets page", () => {
  it("shows the spot book loading, then each listing with its price per sSTB and a Buy button", async () => {
    server.use(gateway().get("/api/v1/marketplace/listings", { listings: [listing], total: 1, page: 1, limit: 50 }));
    renderPortal(<Markets />);
    expect(screen.getByText("Loading the spot listings…")).toBeInTheDocument();
    const row = await screen.findByTestId("listing-3");
    expect(row).toHaveTextContent("5 sSTB");
    expect(row).toHaveTextContent("1.5 mUSDC");
    expect(within(row).getByRole("button", { name: "Buy from listing 3" })).toBeInTheDocument();
    expect(screen.getByText("1 listing")).toBeInTheDocument();
  });

  it("says when nothing is for sale, and why the book could not be read", async () => {
    server.use(gateway().get("/api/v1/marketplace/listings", { listings: [], total: 0, page: 1, limit: 50 }));
    const { unmount } = renderPortal(<Markets />);
    expect(await screen.findByText("No sSTB is for sale right now.")).toBeInTheDocument();
    unmount();
    server.use(gateway().error("get", "/api/v1/marketplace/listings", 503, "internal_error", "the indexer is behind"));
    renderPortal(<Markets />);
    expect(await screen.findByRole("alert")).toHaveTextContent("the indexer is behind");
  });

  it("asks a visitor without a connected wallet to connect it before trading", async () => {
    server.use(gateway().get("/api/v1/marketplace/listings", { listings: [], total: 0, page: 1, limit: 50 }));
    renderPortal(<Markets />);
    expect(await screen.findByText(/Connect your wallet on Arbitrum \(devnet\) to trade/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "List for sale" })).toBeDisabled();
  });
});
