import { expect } from "@playwright/test";
import type { Page } from "@playwright/test";

/** The holder's pages: balances, access key, providers, the redemption form, a redemption. */
export class HolderPage {
  constructor(readonly page: Page) {}

  readonly setUpKey = () => this.page.getByRole("button", { name: "Set up my access key" });
  readonly keyReady = () => this.page.getByRole("button", { name: "Access key ready" });
  readonly amount = () => this.page.getByLabel("Amount (sSTB)");
  readonly quote = () => this.page.getByTestId("quote");
  readonly redeemButton = () => this.page.getByRole("button", { name: "Redeem", exact: true });
  readonly openDetails = () => this.page.getByRole("button", { name: "Open the access details" });
  readonly details = () => this.page.getByTestId("access-details");
  readonly confirmButton = () => this.page.getByRole("button", { name: "Confirm the redemption" });
  readonly status = () => this.page.getByRole("heading", { level: 1 });
  readonly issue = () => this.page.getByLabel("What is wrong");
  readonly description = () => this.page.getByLabel("Description");
  readonly evidenceFile = () => this.page.getByLabel(/Evidence file/);
  readonly disputeButton = () => this.page.getByRole("button", { name: "Open a dispute" });
  readonly evidence = () => this.page.getByTestId("evidence");
  readonly keyStatus = () => this.page.getByTestId("access-key-status");
  readonly registerWalletKey = () => this.page.getByRole("button", { name: "Register this wallet's key" });
  readonly lease = () => this.page.getByTestId("lease");
  readonly leaseStatus = () => this.page.getByTestId("lease-status");
  /** The `<time>` of the lease's end as the chain states it (its `datetime` is the ISO instant). */
  readonly leaseEnd = () => this.page.getByTestId("lease-end-chain").locator("time");
  readonly offer = () => this.page.getByTestId("renewal-offer");
  readonly acceptRenewal = () => this.page.getByRole("button", { name: "Accept the renewal" });
  readonly terminate = () => this.page.getByRole("button", { name: "Terminate the lease…" });
  readonly terminateYes = () => this.page.getByRole("button", { name: "Yes, terminate the lease" });
  readonly terminateNo = () => this.page.getByRole("button", { name: "Keep the lease" });

  async openHolder(): Promise<void> {
    await this.page.goto("/portal/holders");
  }

  async openProvider(address: string): Promise<void> {
    await this.page.goto(`/portal/holders/providers/${address}`);
  }

  /** Redeems `amount` on the provider page; resolves with the new redemption's id (from the URL it lands on). */
  async redeem(amount: string): Promise<number> {
    await this.amount().fill(amount);
    await this.quote().waitFor();
    await this.redeemButton().click();
    await this.page.waitForURL(/\/portal\/holders\/redemptions\/\d+$/, { timeout: 60_000 });
    return Number(this.page.url().split("/").pop());
  }
}

/** The provider console and the fulfil page. */
export class ProviderConsolePage {
  constructor(readonly page: Page) {}

  readonly collateral = () => this.page.getByTestId("collateral");
  readonly incoming = (id: number) => this.page.getByRole("link", { name: `Incoming redemption ${id}` });
  readonly fulfilButton = () => this.page.getByRole("button", { name: "Encrypt and fulfil" });
  readonly fulfilled = () => this.page.getByRole("status").filter({ hasText: /^Fulfilled/ });
  readonly leaseEndInput = () => this.page.getByLabel(/Lease end/);
  readonly leaseStatus = () => this.page.getByTestId("lease-status");
  readonly leaseEnd = () => this.page.getByTestId("lease-end-chain").locator("time");
  readonly standingOffer = () => this.page.getByTestId("standing-offer");
  readonly leaseRow = (id: number) => this.page.getByTestId(`lease-row-${id}`);

  /** Offers a renewal of the lease shown (price in sSTB, extension and validity in days). */
  async offerRenewal(price: string, days: string, validDays = "7"): Promise<void> {
    await this.page.getByLabel("Renewal price (sSTB)").fill(price);
    await this.page.getByLabel("Extension (days)").fill(days);
    await this.page.getByLabel(/Offer valid for/).fill(validDays);
    await this.page.getByRole("button", { name: /^(Offer the renewal|Replace the offer)$/ }).click();
  }

  async openConsole(): Promise<void> {
    await this.page.goto("/portal/providers");
  }

  async openRedemption(id: number): Promise<void> {
    await this.page.goto(`/portal/providers/redemptions/${id}`);
  }

  /**
   * Fills the access-details form and submits it; the lease end as given (local time), else the
   * form's default (30 days of the chain's time), which it returns.
   */
  async fulfil(details: {
    hostname: string;
    username: string;
    sshKey: string;
    leaseEnd?: string;
    docs: string;
  }): Promise<string> {
    await this.page.getByLabel("Host name").fill(details.hostname);
    await this.page.getByLabel("User name").fill(details.username);
    await this.page.getByLabel(/SSH public key/).fill(details.sshKey);
    if (details.leaseEnd !== undefined) await this.leaseEndInput().fill(details.leaseEnd);
    else await expect(this.leaseEndInput()).not.toHaveValue("");
    const leaseEnd = await this.leaseEndInput().inputValue();
    await this.page.getByLabel("Documentation URL").fill(details.docs);
    await this.fulfilButton().click();
    return leaseEnd;
  }
}
