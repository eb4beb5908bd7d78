import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";

import AxeBuilder from "@axe-core/playwright";
import { test as base, expect } from "@playwright/test";
import { getAddress } from "ethers";
import type { Browser, Page } from "@playwright/test";

import { AXE_FILE, SCREENSHOT_DIR, devnetState } from "./devnet-state";
import type { DevnetState } from "./devnet-state";
import { injectWallet, rpc } from "./wallet";
import type { WalletCall } from "./wallet";

/** The devnet node's accounts by what they do in the tests (the demo leaves #5 an active provider, #6 a holder). */
export const ACCOUNT = { provider: 5, holder: 6, developer: 13, stranger: 14, disputer: 6 } as const;

/** A browser page signed into nothing yet, with the test wallet of one account injected. */
export interface Actor {
  page: Page;
  address: string;
  calls: WalletCall[];
  refuse: Set<string>;
}

interface Fixtures {
  devnet: DevnetState;
  /** A new browser context (its own cookies) with the wallet of the node's account `index`. */
  actor: (index: number) => Promise<Actor>;
}

async function newActor(browser: Browser, devnet: DevnetState, index: number, consoleErrors: string[]): Promise<Actor> {
  const accounts = await rpc<string[]>(devnet.rpcUrl, "eth_accounts");
  const address = getAddress(accounts[index]);
  const context = await browser.newContext({
    baseURL: devnet.gatewayUrl,
    viewport: { width: 1280, height: 900 },
    locale: "en-GB",
    timezoneId: "Europe/Berlin",
    permissions: ["clipboard-read", "clipboard-write"],
  });
  const calls: WalletCall[] = [];
  const refuse = new Set<string>();
  await injectWallet(context, { rpcUrl: devnet.rpcUrl, account: address, calls, refuse });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`${index}: ${message.text()}`);
  });
  return { page, address, calls, refuse };
}

/**
 * Every spec imports `test` and `expect` from here (STYLE-WEB.md "Portal tests" 1): the devnet's
 * state, actors with their own browser context and wallet, and on failure the console errors.
 */
export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  devnet: async ({}, use) => {
    await use(devnetState());
  },
  actor: async ({ browser, devnet }, use, testInfo) => {
    const consoleErrors: string[] = [];
    const actors: Actor[] = [];
    await use(async (index) => {
      const actor = await newActor(browser, devnet, index, consoleErrors);
      actors.push(actor);
      return actor;
    });
    if (testInfo.status !== testInfo.expectedStatus && consoleErrors.length > 0) {
      await testInfo.attach("console errors", { body: consoleErrors.join("\n"), contentType: "text/plain" });
    }
    for (const a of actors) await a.page.context().close();
  },
});

export { expect };

/**
 * The checks every page gets: axe-core (WCAG 2.1 A/AA) with no serious or critical violation, and
 * screenshots at 390 px (phone) and 1280 px (desktop) written to docs/portal/<name>-<width>.png.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const count = (impact: string) => results.violations.filter((v) => v.impact === impact).length;
  mkdirSync(path.dirname(AXE_FILE), { recursive: true });
  appendFileSync(
    AXE_FILE,
    JSON.stringify({
      page: name,
      critical: count("critical"),
      serious: count("serious"),
      moderate: count("moderate"),
      minor: count("minor"),
    }) + "\n",
  );
  const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    blocking.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    `axe on ${name}`,
  ).toEqual([]);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`),
      fullPage: true,
      animations: "disabled",
    });
  }
  await page.setViewportSize(size);
}
