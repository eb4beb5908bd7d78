import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { gateway } from "../../../testing/api";
import { CHAIN_NOW } from "../../../testing/data";
import { renderPortal } from "../../../testing/render";
import { server } from "../../../testing/server";
import { ApiKeys } from "../ApiKeys";

/**
 * The gateway as it behaves: `Idempotency-Key` makes a repeated POST answer the first one's key; a
 * POST without one creates another key.
 */
function gatewayWithKeys() {
  const api = gateway();
  const created = new Map<string, { key_id: string; token: string }>();
  let count = 0;
  server.use(
    api.get("/api/v1/session/keys", { keys: [], total: 0 }),
    api.post(
      "/api/v1/session/keys",
      async ({ request }) => {
        await new Promise((r) => setTimeout(r, 50));
        const key = request.headers.get("idempotency-key") ?? `none-${++count}`;
        if (!created.has(key))
          created.set(key, { key_id: `key-${created.size + 1}`, token: `aaa.bbb.${created.size + 1}` });
        const k = created.get(key)!;
        return {
          ...k,
          label: "ci",
          tier: "standard" as const,
          rate_limit: 100,
          scopes: ["read" as const],
          created_at: CHAIN_NOW,
          expires_at: null,
          revoked_at: null,
          last_used_at: null,
          requests_24h: 0,
        };
      },
      201,
    ),
  );
  return { api, created };
}

describe("Creating an API key", () => {
  it("makes one key when a developer double-clicks Create key", async () => {
    const { api, created } = gatewayWithKeys();
    renderPortal(<ApiKeys />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Label"), "ci");
    // a quick double-click: both clicks land before the page re-renders
    const button = screen.getByRole("button", { name: "Create key" });
    fireEvent.click(button);
    fireEvent.click(button);
    expect(await screen.findByTestId("new-key-token")).toHaveTextContent("aaa.bbb.1");
    await waitFor(() => expect(api.seen.filter((r) => r.method === "POST").length).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 200));
    expect(created.size, "keys the gateway made").toBe(1);
    for (const post of api.seen.filter((r) => r.method === "POST")) {
      expect(post.headers.get("idempotency-key"), "every POST carries an Idempotency-Key").toMatch(
        /^[\x21-\x7e]{16,255}$/,
      );
    }
  });

  it("makes a second key when the developer asks again after the first was shown", async () => {
    const { created } = gatewayWithKeys();
    renderPortal(<ApiKeys />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Label"), "ci");
    await user.click(screen.getByRole("button", { name: "Create key" }));
    await screen.findByTestId("new-key-token");
    await user.click(screen.getByRole("button", { name: "Done" }));
    await user.click(screen.getByRole("button", { name: "Create key" }));
    expect(await screen.findByTestId("new-key-token")).toHaveTextContent("aaa.bbb.2");
    expect(created.size).toBe(2);
  });
});
