import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { gateway } from "../../testing/api";
import { HOLDER, aSession } from "../../testing/data";
import { renderPortal } from "../../testing/render";
import { server } from "../../testing/server";
import { installTestWallet } from "../../testing/wallet";
import { Layout } from "../Layout";

let uninstall = () => {};
afterEach(() => uninstall());

describe("The header", () => {
  it("names the connected wallet as it announced itself over EIP-6963, even when it announced late", async () => {
    server.use(gateway().get("/api/v1/session", aSession(HOLDER)));
    // a slow extension: window.ethereum is there at once, its EIP-6963 announcement comes after the grace period
    uninstall = installTestWallet({
      account: HOLDER,
      connected: true,
      legacy: true,
      announceAfterMs: 700,
      name: "Rabby Wallet",
    });
    renderPortal(<Layout />);
    expect(await screen.findByText("Rabby Wallet", {}, { timeout: 3_000 })).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByText(/Browser wallet/)).not.toBeInTheDocument();
  });
});
