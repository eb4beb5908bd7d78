import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { gateway } from "../../../testing/api";
import { aProvider } from "../../../testing/data";
import { renderPortal } from "../../../testing/render";
import { server } from "../../../testing/server";
import { Providers } from "../Providers";

const item = (p = aProvider()) => ({
  provider_id: p.provider_id,
  name: p.name,
  status: p.status,
  reputation_score: p.reputation_score,
  location: p.location,
  available_cu_value: p.available_cu_value,
  available_cu_value_base_units: p.available_cu_value_base_units,
  total_cu_value: p.total_cu_value,
  total_cu_value_base_units: p.total_cu_value_base_units,
});

describe("Providers list", () => {
  it("says 1 provider, not 1 providers", async () => {
    server.use(gateway().get("/api/v1/providers/list", { providers: [item()], total: 1, page: 1, limit: 20 }));
    renderPortal(<Providers />);
    expect(await screen.findByText("1 provider")).toBeInTheDocument();
  });

  it("tells a holder when no provider matches the filters", async () => {
    server.use(gateway().get("/api/v1/providers/list", { providers: [], total: 0, page: 1, limit: 20 }));
    renderPortal(<Providers />);
    expect(await screen.findByText("No provider matches these filters.")).toBeInTheDocument();
  });
});
