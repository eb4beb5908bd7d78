import type { Page } from "@playwright/test";

/** The options page: the options for sale, the write form, an option by its number (exercise, reclaim). */
export class OptionsPage {
  constructor(readonly page: Page) {}

  readonly option = (id: number) => this.page.getByTestId(`option-${id}`);
  readonly buyFrom = (id: number) => this.page.getByRole("button", { name: `Buy option ${id}` });
  readonly buyQuote = () => this.page.getByTestId("buy-option-quote");
  readonly buyButton = () => this.page.getByRole("button", { name: "Buy the option" });
  readonly bought = () => this.page.getByTestId("option-bought");
  readonly writeTerms = () => this.page.getByTestId("write-terms");
  readonly written = () => this.page.getByTestId("written");
  readonly position = () => this.page.getByTestId("option-position");
  readonly exerciseAmount = () => this.page.getByLabel("Amount to exercise (sSTB)");
  readonly exerciseQuote = () => this.page.getByTestId("exercise-quote");
  readonly exerciseButton = () => this.page.getByRole("button", { name: "Exercise", exact: true });
  readonly exercised = () => this.page.getByTestId("exercised");

  async open(): Promise<void> {
    await this.page.goto("/portal/markets/options");
  }

  /** Fills the write form (a call unless `kind` says put) without submitting it. */
  async fillWrite(terms: { amount: string; strike: string; premium: string; kind?: "call" | "put" }): Promise<void> {
    await this.page.getByLabel("Kind").selectOption(terms.kind ?? "call");
    await this.page.getByLabel("Amount (sSTB)").fill(terms.amount);
    await this.page.getByLabel("Strike per sSTB (mUSDC)").fill(terms.strike);
    await this.page.getByLabel("Premium per sSTB (mUSDC)").fill(terms.premium);
  }

  /** Submits the write form; resolves with the new option's id. */
  async write(): Promise<number> {
    await this.page.getByRole("button", { name: "Write the option" }).click();
    await this.written().waitFor({ timeout: 60_000 });
    return Number(/#(\d+)/.exec((await this.written().textContent()) ?? "")![1]);
  }
}
