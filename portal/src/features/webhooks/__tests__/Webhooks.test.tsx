import { fireEvent, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { gateway } from "../../../testing/api";
import { CHAIN_NOW } from "../../../testing/data";
import { renderPortal } from "../../../testing/render";
import { server } from "../../../testing/server";
import { Webhooks } from "../Webhooks";

/** The gateway as it behaves: a repeated POST with the same Idempotency-Key answers the first subscription. */
function gatewayWithSubscriptions() {
  const api = gateway();
  const created = new Map<string, string>();
  let count = 0;
  server.use(
    api.get("/api/v1/webhooks", { webhooks: [], total: 0, page: 1, limit: 100 }),
    api.post(
      "/api/v1/webhooks",
      async ({ request, body }) => {
        await new Promise((r) => setTimeout(r, 50));
        const key = request.headers.get("idempotency-key") ?? `none-${++count}`;
        if (!created.has(key)) created.set(key, `sub-${created.size + 1}`);
        const b = body as {
          url: string;
          events: ["sstb.transferred"];
          timestamp_format: "unix";
          own_events_only: boolean;
        };
        return {
          subscription_id: created.get(key)!,
          secret: `whsec_${created.get(key)!}`,
          url: b.url,
          events: b.events,
          timestamp_format: b.timestamp_format,
          own_events_only: b.own_events_only,
          created_at: CHAIN_NOW,
          rotated_at: null,
          previous_secret_expires_at: null,
          warnings: [],
        };
      },
      201,
    ),
  );
  return { api, created };
}

describe("Adding a webhook receiver", () => {
  it("makes one subscription (one secret) when a developer double-clicks Add receiver", async () => {
    const { api, created } = gatewayWithSubscriptions();
    renderPortal(<Webhooks />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Receiver URL"), "https://hooks.example.com/compute");
    await user.click(screen.getByRole("checkbox", { name: "sstb.transferred" }));
    // a quick double-click: both clicks land before the page re-renders
    const button = screen.getByRole("button", { name: "Add receiver" });
    fireEvent.click(button);
    fireEvent.click(button);
    expect(await screen.findByTestId("webhook-secret")).toHaveTextContent("whsec_sub-1");
    await new Promise((r) => setTimeout(r, 200));
    expect(created.size, "subscriptions the gateway made").toBe(1);
    for (const post of api.seen.filter((r) => r.method === "POST")) {
      expect(post.headers.get("idempotency-key")).toMatch(/^[\x21-\x7e]{16,255}$/);
    }
  });
});
