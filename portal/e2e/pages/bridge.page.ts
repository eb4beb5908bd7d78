import type { Page } from "@playwright/test";

/** The bridge page: the send form with its fee quote, and the transfer's status. */
export class BridgePage {
  constructor(readonly page: Page) {}

  readonly from = () => this.page.getByRole("combobox", { name: /^From/ });
  readonly to = () => this.page.getByRole("combobox", { name: /^To/ });
  readonly amount = () => this.page.getByLabel("Amount (sSTB)");
  readonly feeOption = (name: RegExp) => this.page.getByRole("radio", { name });
  readonly quote = () => this.page.getByTestId("bridge-quote");
  readonly balance = () => this.page.getByTestId("bridge-balance");
  readonly sendButton = (to: string) => this.page.getByRole("button", { name: `Send to ${to}` });
  readonly switchTo = (chain: string) => this.page.getByRole("button", { name: `Switch to ${chain}` });
  readonly switchWalletTo = (chain: string) =>
    this.page.getByRole("button", { name: `Switch your wallet to ${chain}` });
  readonly status = () => this.page.getByTestId("bridge-status");
  /** A queued transfer's place in the destination's queue, and the time until it completes. */
  readonly queue = () => this.page.getByTestId("bridge-queue");
  readonly queueEta = () => this.page.getByTestId("bridge-queue-eta");
  readonly deliverButton = (name: RegExp) => this.page.getByRole("button", { name });

  async open(): Promise<void> {
    await this.page.goto("/portal/bridge");
  }
}
