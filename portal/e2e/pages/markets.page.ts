import type { Page } from "@playwright/test";

/** The markets page: the spot book, the sell form, claimable balances, the devnet faucet. */
export class MarketsPage {
  constructor(readonly page: Page) {}

  readonly listing = (id: number) => this.page.getByTestId(`listing-${id}`);
  readonly buyFrom = (id: number) => this.page.getByRole("button", { name: `Buy from listing ${id}` });
  readonly cancel = (id: number) => this.page.getByRole("button", { name: `Cancel listing ${id}` });
  readonly buyAmount = () => this.page.getByLabel("Amount to buy (sSTB)");
  readonly buyQuote = () => this.page.getByTestId("buy-quote");
  readonly buyButton = () => this.page.getByRole("button", { name: "Buy", exact: true });
  readonly bought = () => this.page.getByTestId("bought");
  readonly listTerms = () => this.page.getByTestId("list-terms");
  readonly listed = () => this.page.getByTestId("listed");
  readonly faucet = () => this.page.getByRole("button", { name: /^Get 1,000 test/ });

  async open(): Promise<void> {
    await this.page.goto("/portal/markets");
  }

  /** Lists `amount` sSTB at `price` mUSDC each for `days`; resolves with the new listing's id. */
  async list(amount: string, price: string, days = "7"): Promise<number> {
    await this.page.getByLabel("Amount (sSTB)").fill(amount);
    await this.page.getByLabel(/^Price per sSTB/).fill(price);
    await this.page.getByLabel("Open for (days)").fill(days);
    await this.page.getByRole("button", { name: "List for sale" }).click();
    await this.listed().waitFor({ timeout: 60_000 });
    return Number(/#(\d+)/.exec((await this.listed().textContent()) ?? "")![1]);
  }
}
