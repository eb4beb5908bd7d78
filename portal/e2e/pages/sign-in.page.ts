import type { Page } from "@playwright/test";

/** The sign-in: pick the test wallet, connect, sign the EIP-4361 message. */
export class SignInPage {
  constructor(readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { name: "Sign in with your wallet" });
  readonly connectButton = () => this.page.getByRole("button", { name: "Connect Test Wallet" });
  readonly signInButton = () => this.page.getByRole("button", { name: "Sign in" });
  readonly signOutButton = () => this.page.getByRole("button", { name: "Sign out" });
  readonly error = () => this.page.getByRole("alert");

  async open(path = "/portal/"): Promise<void> {
    await this.page.goto(path);
  }

  /** Connects the wallet and signs in; resolves once the session shows in the header. */
  async signIn(path = "/portal/"): Promise<void> {
    await this.open(path);
    await this.connectButton().click();
    await this.signInButton().click();
    await this.signOutButton().waitFor();
  }
}
