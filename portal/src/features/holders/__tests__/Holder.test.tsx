import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { gateway } from "../../../testing/api";
import { aBalance, aRedemptionPage, anAccountRedemption } from "../../../testing/data";
import { renderPortal } from "../../../testing/render";
import { server } from "../../../testing/server";
import { Holder } from "../Holder";

describe("Holder page", () => {
  it("shows a holder their balance loading, then per chain and in total", async () => {
    const api = gateway();
    server.use(api.get("/api/v1/sstb/balance", aBalance(12.5)), api.get("/api/v1/redemptions", aRedemptionPage()));
    renderPortal(<Holder />);
    expect(screen.getByText("Loading your balance…")).toBeInTheDocument();
    expect(await screen.findByTestId("balance-total")).toHaveTextContent("12.5 sSTB");
    expect(screen.getByTestId("balance-arbitrum")).toHaveTextContent("12.5 sSTB");
    expect(screen.getByTestId("balance-ethereum")).toHaveTextContent("0 sSTB");
  });

  it("tells a holder with no redemptions so, and a holder whose balance failed why, with a retry", async () => {
    const api = gateway();
    server.use(
      api.error("get", "/api/v1/sstb/balance", 500, "internal_error", "the database is unavailable"),
      api.get("/api/v1/redemptions", aRedemptionPage()),
    );
    renderPortal(<Holder />);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("the database is unavailable");
    expect(within(alert).getByRole("button", { name: "Try again" })).toBeInTheDocument();
    expect(await screen.findByText("No redemptions yet.")).toBeInTheDocument();
  });

  it("lists a holder's redemptions with a link to each", async () => {
    const api = gateway();
    server.use(
      api.get("/api/v1/sstb/balance", aBalance()),
      api.get(
        "/api/v1/redemptions",
        aRedemptionPage([anAccountRedemption({ redemption_id: "7", status: "confirmed" })]),
      ),
    );
    renderPortal(<Holder />);
    expect(await screen.findByRole("link", { name: "Redemption 7" })).toHaveAttribute("href", "/holders/redemptions/7");
    expect(screen.getByText("confirmed")).toBeInTheDocument();
  });
});
