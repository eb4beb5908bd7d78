import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

import { ACCOUNT, expect, test } from "../fixtures";
import { METRICS_FILE } from "../devnet-state";

test.describe("Weight and first render", () => {
  test("the first load's JavaScript is at most 250 kB gzipped; the first render time is measured", async ({
    actor,
  }) => {
    const { page } = await actor(ACCOUNT.stranger);
    const scripts: Array<{ url: string; bytes: number; gzip: number }> = [];
    page.on("response", async (response) => {
      if (response.request().resourceType() !== "script") return;
      const body = await response.body();
      scripts.push({ url: response.url(), bytes: body.length, gzip: gzipSync(body, { level: 9 }).length });
    });
    // the moment the sign-in heading is in the page, by the page's own clock (navigation start = 0)
    await page.addInitScript(() => {
      const observer = new MutationObserver(() => {
        const h1 = document.querySelector("h1");
        if (h1?.textContent === "Sign in with your wallet") {
          (window as unknown as { __renderedAt: number }).__renderedAt = performance.now();
          observer.disconnect();
        }
      });
      document.addEventListener("DOMContentLoaded", () =>
        observer.observe(document.body, { childList: true, subtree: true }),
      );
    });
    await page.goto("/portal/");
    await expect(page.getByRole("heading", { name: "Sign in with your wallet" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByName("first-contentful-paint")[0];
      const mark = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return {
        fcp: paint?.startTime ?? NaN,
        domContentLoaded: mark.domContentLoadedEventEnd,
        rendered: (window as unknown as { __renderedAt: number }).__renderedAt,
      };
    });
    // everything the page ran before anyone clicked: the first load
    const firstLoad = scripts.filter((s) => s.url.includes("/portal/assets/"));
    const gzip = firstLoad.reduce((sum, s) => sum + s.gzip, 0);
    const raw = firstLoad.reduce((sum, s) => sum + s.bytes, 0);
    mkdirSync(path.dirname(METRICS_FILE), { recursive: true });
    writeFileSync(
      METRICS_FILE,
      JSON.stringify({
        firstLoadJsGzipBytes: gzip,
        firstLoadJsBytes: raw,
        scripts: firstLoad,
        firstContentfulPaintMs: timing.fcp,
        signInVisibleMs: timing.rendered,
        measuredAt: new Date().toISOString(),
      }),
    );
    expect(firstLoad.length).toBeGreaterThan(0);
    expect(timing.rendered).toBeGreaterThan(0);
    expect(gzip).toBeLessThanOrEqual(250 * 1024);
  });
});
