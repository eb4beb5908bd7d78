import type { Page } from "@playwright/test";

/** The API keys page. */
export class ApiKeysPage {
  constructor(readonly page: Page) {}

  readonly label = () => this.page.getByLabel("Label");
  readonly scope = (name: "read" | "write") => this.page.getByRole("checkbox", { name });
  readonly createButton = () => this.page.getByRole("button", { name: "Create key" });
  readonly newToken = () => this.page.getByTestId("new-key-token");
  readonly row = (label: string) => this.page.getByRole("row").filter({ hasText: label });
  readonly revokeButton = (label: string) => this.page.getByRole("button", { name: `Revoke key ${label}` });

  async open(): Promise<void> {
    await this.page.goto("/portal/developers/keys");
  }

  async create(label: string, scopes: Array<"read" | "write">): Promise<string> {
    await this.label().fill(label);
    for (const scope of ["read", "write"] as const) await this.scope(scope).setChecked(scopes.includes(scope));
    await this.createButton().click();
    return (await this.newToken().textContent())!.trim();
  }
}

/** The webhooks pages: the list with the form, and one subscription with its delivery log. */
export class WebhooksPage {
  constructor(readonly page: Page) {}

  readonly url = () => this.page.getByLabel("Receiver URL");
  readonly event = (name: string) => this.page.getByRole("checkbox", { name, exact: true }).first();
  readonly isoTimestamps = () => this.page.getByRole("radio", { name: /ISO 8601/ });
  readonly addButton = () => this.page.getByRole("button", { name: "Add receiver" });
  readonly secret = () => this.page.getByTestId("webhook-secret");
  readonly openLink = () => this.page.getByRole("link", { name: "Open the subscription" });
  readonly deliveries = () => this.page.getByTestId("delivery");
  readonly refresh = () => this.page.getByRole("button", { name: "Refresh" });
  readonly rotate = () => this.page.getByRole("button", { name: "Rotate the secret" });
  readonly sendTest = () => this.page.getByRole("button", { name: "Send a test event" });

  async open(): Promise<void> {
    await this.page.goto("/portal/developers/webhooks");
  }

  /** Adds a receiver for `events`; returns the secret shown once. */
  async add(url: string, events: string[], iso = false): Promise<string> {
    await this.url().fill(url);
    for (const e of events) await this.event(e).check();
    if (iso) await this.isoTimestamps().check();
    await this.addButton().click();
    return (await this.secret().textContent())!.trim();
  }
}
