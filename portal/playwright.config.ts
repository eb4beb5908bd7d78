import { defineConfig } from "@playwright/test";

import { CHROMIUM } from "./e2e/chromium";

/**
 * The portal's browser tests (issue 20): Debian's Chromium driven by Playwright against the real
 * devnet (three hardhat nodes, the deployment, the gateway serving the built portal) that
 * `npm start` runs, started once by the global setup. One worker: the tests share the chains.
 */
export default defineConfig({
  testDir: "e2e/tests",
  globalSetup: "./e2e/global-setup.ts",
  globalTeardown: "./e2e/global-teardown.ts",
  outputDir: "e2e/.results/artifacts",
  workers: 1,
  fullyParallel: false,
  forbidOnly: process.env.CI !== undefined,
  retries: process.env.CI === undefined ? 0 : 1,
  // a test drives two or three browsers through a score of transactions on a 2-core machine shared
  // with other work: two minutes was too tight (the holder's flow took 1.8 to 2.1 minutes)
  timeout: 300_000,
  expect: { timeout: 20_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: { executablePath: CHROMIUM, args: ["--disable-dev-shm-usage"] },
    // a failed test's trace keeps the DOM snapshots of every action (what the page was) but not the
    // screencast, whose frames every test paid for while it ran (about 9% of the suite's CPU)
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: true },
    screenshot: "only-on-failure",
    locale: "en-GB",
    timezoneId: "Europe/Berlin",
  },
});
