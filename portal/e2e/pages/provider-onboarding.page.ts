import type { Page } from "@playwright/test";

/** The provider console's first-day sections: registration, review, collateral, verification and minting, retirement. */
export class ProviderOnboardingPage {
  constructor(readonly page: Page) {}

  readonly registerHeading = () => this.page.getByRole("heading", { name: "Register as a provider" });
  readonly tier = (name: "Standard" | "Premium" | "Enterprise") =>
    this.page.getByRole("radio", { name: new RegExp(`^${name}:`) });
  readonly stakingDays = () => this.page.getByLabel(/^Staking period \(days/).first();
  readonly registerButton = () => this.page.getByRole("button", { name: "Register" });
  readonly review = () => this.page.getByTestId("review-state");
  readonly faucet = () => this.page.getByRole("button", { name: /devnet faucet/ });
  readonly account = () => this.page.getByTestId("collateral-account");
  readonly allows = () => this.page.getByTestId("collateral-allows");
  readonly walletCollateral = () => this.page.getByTestId("collateral-wallet");
  readonly withdrawable = () => this.page.getByTestId("withdrawable");
  readonly submitBenchmark = () => this.page.getByRole("button", { name: "Sign and submit the benchmark" });
  readonly verification = () => this.page.getByTestId("verification");
  readonly attestations = () => this.page.getByTestId("attestations");
  readonly mintTerms = () => this.page.getByTestId("mint-terms");
  readonly mintButton = () => this.page.getByRole("button", { name: /^Mint / });
  readonly minted = () => this.page.getByTestId("minted");
  readonly retireButton = () => this.page.getByRole("button", { name: "Retire", exact: true });
  readonly retireHelp = () => this.page.locator("#retire-help");

  async fillProfile(p: {
    name: string;
    country: string;
    region: string;
    email: string;
    website: string;
    cpuType: string;
  }): Promise<void> {
    await this.page.getByLabel("Name", { exact: true }).fill(p.name);
    await this.page.getByLabel("Country (ISO code)").fill(p.country);
    await this.page.getByLabel("Region").fill(p.region);
    await this.page.getByLabel("Contact e-mail").fill(p.email);
    await this.page.getByLabel("Website").fill(p.website);
    await this.page.getByLabel("CPU type").fill(p.cpuType);
  }

  async deposit(amount: string): Promise<void> {
    await this.page.getByLabel(/^Deposit \(/).fill(amount);
    await this.page.getByRole("button", { name: "Deposit", exact: true }).click();
  }

  async withdraw(amount: string): Promise<void> {
    await this.page.getByLabel(/^Withdraw \(/).fill(amount);
    await this.page.getByRole("button", { name: "Withdraw", exact: true }).click();
  }

  async retire(amount: string): Promise<void> {
    await this.page.getByLabel("Retire (sSTB)").fill(amount);
  }
}
