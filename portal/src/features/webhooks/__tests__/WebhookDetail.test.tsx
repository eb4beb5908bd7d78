import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { gateway } from "../../../testing/api";
import { CHAIN_NOW } from "../../../testing/data";
import { renderPortal } from "../../../testing/render";
import { server } from "../../../testing/server";
import { WebhookDetail } from "../WebhookDetail";

const subscription = {
  subscription_id: "sub-1",
  url: "https://hooks.example.com/compute",
  events: ["sstb.transferred" as const],
  timestamp_format: "unix" as const,
  own_events_only: false,
  created_at: CHAIN_NOW,
  rotated_at: null,
  previous_secret_expires_at: null,
  warnings: [],
};

describe("A webhook subscription's page", () => {
  it("shows the subscription loading, then its settings, and an empty delivery log in words", async () => {
    const api = gateway();
    server.use(
      api.get("/api/v1/webhooks/{subscription_id}", subscription),
      api.get("/api/v1/webhooks/{subscription_id}/deliveries", { deliveries: [], total: 0, page: 1, limit: 50 }),
    );
    renderPortal(<WebhookDetail id="sub-1" />);
    expect(screen.getByText("Loading the subscription…")).toBeInTheDocument();
    expect(await screen.findByText("https://hooks.example.com/compute")).toBeInTheDocument();
    expect(await screen.findByText(/No deliveries yet/)).toBeInTheDocument();
  });

  it("says why a subscription cannot be shown (another address's, or gone)", async () => {
    server.use(
      gateway().error("get", "/api/v1/webhooks/{subscription_id}", 404, "resource_not_found", "no subscription sub-9"),
    );
    renderPortal(<WebhookDetail id="sub-9" />);
    expect(await screen.findByRole("alert")).toHaveTextContent("no subscription sub-9");
  });
});
