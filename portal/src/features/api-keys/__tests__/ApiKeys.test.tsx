import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { gateway } from "../../../testing/api";
import { anApiKey } from "../../../testing/data";
import { renderPortal } from "../../../testing/render";
import { server } from "../../../testing/server";
import { ApiKeys } from "../ApiKeys";

describe("API keys page", () => {
  it("tells a developer without keys that there are none", async () => {
    server.use(gateway().get("/api/v1/session/keys", { keys: [], total: 0 }));
    renderPortal(<ApiKeys />);
    expect(screen.getByText("Loading your keys…")).toBeInTheDocument();
    expect(await screen.findByText("No API keys yet.")).toBeInTheDocument();
  });

  it("lists a developer's keys with tier, scopes and use, and offers to revoke the active ones", async () => {
    server.use(
      gateway().get("/api/v1/session/keys", {
        keys: [anApiKey({ label: "ci", requests_24h: 3 }), anApiKey({ key_id: "key-2", label: "old", revoked_at: 1 })],
        total: 2,
      }),
    );
    renderPortal(<ApiKeys />);
    expect(await screen.findByRole("row", { name: /ci standard \(100\/min\) read/ })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Revoke key ci" })).toBeEnabled();
    expect(screen.queryByRole("button", { name: "Revoke key old" })).not.toBeInTheDocument();
  });
});
