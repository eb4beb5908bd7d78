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

  async openConsole(): Promise<void> {
    await this.page.goto("/portal/providers");
  }

  async openRedemption(id: number): Promise<void> {
    await this.page.goto(`/portal/providers/redemptions/${id}`);
  }

  /** Fills the access-details form (the lease end as given, local time) and submits it. */
  async fulfil(details: {
    hostname: string;
    username: string;
    sshKey: string;
    leaseEnd: string;
    docs: string;
  }): Promise<void> {
    await this.page.getByLabel("Host name").fill(details.hostname);
    await this.page.getByLabel("User name").fill(details.username);
    await this.page.getByLabel(/SSH public key/).fill(details.sshKey);
    await this.page.getByLabel(/Lease end/).fill(details.leaseEnd);
    await this.page.getByLabel("Documentation URL").fill(details.docs);
    await this.fulfilButton().click();
  }
}
