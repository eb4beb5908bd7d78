import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { gateway } from "../../../testing/api";
import { block, ethCall, jsonRpc } from "../../../testing/chain";
import { CHAIN_NOW, HOLDER, STRANGER, aRedemption, aSession } from "../../../testing/data";
import { renderPortal } from "../../../testing/render";
import { server } from "../../../testing/server";
import { installTestWallet } from "../../../testing/wallet";
import { RedemptionPage } from "../RedemptionPage";

let uninstall = () => {};
afterEach(() => uninstall());

function openRedemption(viewer: string) {
  const api = gateway();
  server.use(
    api.get("/api/v1/session", aSession(viewer)),
    api.get(
      "/api/v1/redemptions/{redemptionId}",
      aRedemption({ status: "fulfilled", user: HOLDER, fulfilled_at: CHAIN_NOW - 3_600 }),
    ),
    jsonRpc({
      eth_blockNumber: () => "0x64",
      eth_getBlockByNumber: () => block(CHAIN_NOW),
      eth_call: ethCall([
        { abi: ["function leaseIdOf(uint256) view returns (uint256)"], answers: { leaseIdOf: () => [0n] } },
      ]),
    }),
  );
  uninstall = installTestWallet({ account: viewer, connected: true });
  renderPortal(<RedemptionPage id={7} />);
}

describe("A fulfilled redemption's page", () => {
  it("offers its holder Confirm and Dispute", async () => {
    openRedemption(HOLDER);
    expect(await screen.findByRole("button", { name: "Confirm the redemption" })).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "Open a dispute" })).toBeInTheDocument();
  });

  it("does not offer a stranger Confirm or Dispute (the contract refuses them), and says who may", async () => {
    openRedemption(STRANGER);
    expect(await screen.findByText(/Only the redemption's holder can confirm or dispute it/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Confirm the redemption" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Open a dispute" })).not.toBeInTheDocument();
  });
});
