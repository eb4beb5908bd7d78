import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";

import AxeBuilder from "@axe-core/playwright";
import { test as base, expect } from "@playwright/test";
import { getAddress } from "ethers";
import type { Browser, Page } from "@playwright/test";

import { AXE_FILE, SCREENSHOT_DIR, WRITE_DOCS, devnetState } from "./devnet-state";
import type { DevnetState } from "./devnet-state";
import { injectWallet, rpc } from "./wallet";
import type { WalletCall } from "./wallet";

/**
 * The devnet node's accounts by what they do in the tests (the demo leaves #5 an active provider, #6 a
 * holder); #15 redeems without ever registering an access key; #16 is nobody until it registers as a
 * provider in the browser; #17 holds no sSTB until it buys some; #19 bridges (given sSTB by the test); #2
 * holds the approver role
 * (governance's reviewer).
 */
export const ACCOUNT = {
  approver: 2,
  provider: 5,
  holder: 6,
  developer: 13,
  stranger: 14,
  disputer: 6,
  keyless: 15,
  newProvider: 16,
  newHolder: 17,
  optionBuyer: 18,
  bridger: 19,
  queuedBridger: 11,
} as const;

/** A browser page signed into nothing yet, with the test wallet of one account injected. */
export interface Actor {
  page: Page;
  address: string;
  calls: WalletCall[];
  refuse: Set<string>;
  /** A test step run the next time the page asks the wallet for a method (see `injectWallet`). */
  onceBefore: Map<string, () => Promise<void>>;
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
  const onceBefore = new Map<string, () => Promise<void>>();
  await injectWallet(context, { rpcUrl: devnet.rpcUrl, account: address, calls, refuse, onceBefore });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`${index}: ${message.text()}`);
  });
  return { page, address, calls, refuse, onceBefore };
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

/** What sticks out of a page at its current width: the page's scroll width and the widest elements past the edge. */
async function overflowOf(page: Page): Promise<{ scrollWidth: number; clientWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const culprits: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      const box = el.getBoundingClientRect();
      if (box.right > root.clientWidth + 1 && culprits.length < 5) {
        const parentOverflows =
          el.parentElement !== null && el.parentElement.getBoundingClientRect().right > root.clientWidth + 1;
        if (!parentOverflows) {
          culprits.push(
            `${el.tagName.toLowerCase()}${el.className ? "." + String(el.className).split(" ").join(".") : ""} (${Math.round(box.width)} px wide, right edge at ${Math.round(box.right)})`,
          );
        }
      }
    }
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, culprits };
  });
}

/**
 * The checks every state a test reaches gets (a page at rest, a dialog, a "shown once" panel, an
 * error): axe-core (WCAG 2.1 A/AA, plus the label-content-name-mismatch rule axe ships as
 * experimental, run by name) with no serious or critical violation; no horizontal scroll at 390 px (a phone) or
 * 1280 px; and, when the run writes the docs (`npm run docs:portal`), screenshots at both widths in
 * docs/portal/<name>-<width>.png.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  const wcag = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  // WCAG 2.5.3 (a control's name starts with its visible words): axe ships it as experimental, so a
  // run by tags skips it; asked for by name it runs
  const nameMatch = await new AxeBuilder({ page }).withRules(["label-content-name-mismatch"]).analyze();
  const results = { violations: [...wcag.violations, ...nameMatch.violations] };
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
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const overflow = await overflowOf(page);
    expect(
      overflow.scrollWidth,
      `${name} at ${width} px scrolls sideways (${overflow.scrollWidth} px of content in ${overflow.clientWidth}): ${overflow.culprits.join("; ")}`,
    ).toBeLessThanOrEqual(overflow.clientWidth);
    if (WRITE_DOCS) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({
        path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`),
        fullPage: true,
        animations: "disabled",
      });
    }
  }
  await page.setViewportSize(size);
}
