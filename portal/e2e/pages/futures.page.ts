import type { Page } from "@playwright/test";

/** The futures page: the open offers, the take form, the offer form, a future by its number (settle). */
export class FuturesPage {
  constructor(readonly page: Page) {}

  readonly offer = (id: number) => this.page.getByTestId(`future-${id}`);
  readonly takeFrom = (id: number) => this.page.getByRole("button", { name: `Take offer ${id}` });
  readonly offerTerms = () => this.page.getByTestId("offer-terms");
  readonly takeQuote = () => this.page.getByTestId("take-quote");
  readonly takeButton = () => this.page.getByRole("button", { name: "Take the offer" });
  readonly taken = () => this.page.getByTestId("taken");
  readonly position = () => this.page.getByTestId("future-position");
  readonly settleButton = (id: number) => this.page.getByRole("button", { name: `Settle future #${id}` });
  readonly settled = () => this.page.getByTestId("settled");

  async open(): Promise<void> {
    await this.page.goto("/portal/markets/futures");
  }

  /** Fills the offer form without submitting it. */
  async fillOffer(terms: { side: "sell" | "buy"; amount: string; price: string; days: string }): Promise<void> {
    await this.page.getByLabel("Side").selectOption(terms.side);
    await this.page.getByLabel("Amount (sSTB)").fill(terms.amount);
    await this.page.getByLabel(/^Price per sSTB/).fill(terms.price);
    await this.page.getByLabel("Settles in (days)").fill(terms.days);
  }

  /** Submits the offer form; resolves with the new future's id. */
  async makeOffer(): Promise<number> {
    await this.page.getByRole("button", { name: "Make the offer" }).click();
    const offered = this.page.getByTestId("offered");
    await offered.waitFor({ timeout: 60_000 });
    return Number(/#(\d+)/.exec((await offered.textContent()) ?? "")![1]);
  }

  /** Looks a future up by its number in "A future by its number". */
  async show(id: number): Promise<void> {
    await this.page.getByLabel("Future number").fill(String(id));
    await this.page.getByRole("button", { name: "Show", exact: true }).click();
  }
}
