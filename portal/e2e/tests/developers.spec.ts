import { TestReceiver } from "../../../testing/local-servers";
import { deploymentOf, transferSstb } from "../chain";
import { ACCOUNT, checkPage, expect, test } from "../fixtures";
import { ApiKeysPage, WebhooksPage } from "../pages/developers.page";
import { SignInPage } from "../pages/sign-in.page";
import { rpc } from "../wallet";

test.describe("Developers: API keys", () => {
  test("a developer creates a key, uses it with fetch, sees its use, revokes it and sees it refused", async ({
    actor,
    devnet,
  }) => {
    const { page } = await actor(ACCOUNT.developer);
    await new SignInPage(page).signIn("/portal/developers/keys");
    const keys = new ApiKeysPage(page);
    const token = await keys.create("ci-pipeline", ["read"]);
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/); // a JWT, shown once
    // the "shown once" panel after copying: the button says Copied, and its name starts with that
    await page.getByRole("button", { name: /^Copy key/ }).click();
    await expect(page.getByRole("button", { name: /^Copied/ })).toBeVisible();
    await expect(keys.row("ci-pipeline")).toContainText("standard (100/min)");
    await expect(keys.row("ci-pipeline")).toContainText("never");
    await checkPage(page, "api-keys");

    // the key works from anywhere, as curl would use it
    const used = await fetch(`${devnet.gatewayUrl}/api/v1/providers/list`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(used.status).toBe(200);
    await page.reload();
    await expect(keys.row("ci-pipeline").getByRole("cell").nth(5)).toHaveText("1");
    await expect(keys.row("ci-pipeline")).not.toContainText("never");
    await expect(page.getByTestId("new-key-token"), "shown only once").toHaveCount(0);

    await keys.revokeButton("ci-pipeline").click();
    await expect(keys.row("ci-pipeline")).toContainText("revoked");
    const refused = await fetch(`${devnet.gatewayUrl}/api/v1/providers/list`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      "the API key has been revoked",
    );
  });
});

test.describe("Developers: webhooks", () => {
  const receiver = new TestReceiver();
  test.beforeAll(async () => {
    await receiver.start();
  });
  test.afterAll(async () => {
    await receiver.stop();
  });

  test("a developer subscribes a receiver, sees deliveries in the log, breaks the receiver and redelivers", async ({
    actor,
    devnet,
  }) => {
    const { page } = await actor(ACCOUNT.developer);
    await new SignInPage(page).signIn("/portal/developers/webhooks");
    const webhooks = new WebhooksPage(page);
    await expect(page.getByRole("group", { name: "Reference list" })).toBeVisible();
    await expect(page.getByRole("group", { name: "Integration-guide list" })).toBeVisible();
    const secret = await webhooks.add(receiver.url, ["sstb.transferred"], true);
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    receiver.secrets = [secret]; // the receiver checks every delivery's signature with it
    await checkPage(page, "webhooks");
    await webhooks.openLink().click();
    await expect(page.getByRole("heading", { name: "Webhook subscription" })).toBeVisible();

    const sstb = (await deploymentOf(devnet.gatewayUrl)).chain.contracts.SSTB;
    const [, , , , , , holder, , , , , , , , stranger] = await rpc<string[]>(devnet.rpcUrl, "eth_accounts");
    const first = await transferSstb(devnet.rpcUrl, sstb, holder, stranger, "0.01");
    await receiver.waitFor((r) => r.some((w) => w.payload.data.transactionHash === first), 30_000);
    await expect(async () => {
      await webhooks.refresh().click();
      await expect(webhooks.deliveries().first()).toContainText("delivered", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(webhooks.deliveries().first().getByTestId("last-response")).toHaveText("HTTP 200");
    expect(receiver.received.find((w) => w.payload.data.transactionHash === first)!.payload.timestamp).toMatch(/Z$/);

    // the test event goes through the gateway's own route (issue 17); until that route exists the page says so
    const openapi = (await (await fetch(`${devnet.gatewayUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    const hasTestRoute = "/api/v1/webhooks/{subscription_id}/test" in openapi.paths;
    await webhooks.sendTest().click();
    if (hasTestRoute) {
      await expect(page.getByText("Test event queued")).toBeVisible();
    } else {
      await expect(page.getByText("This gateway cannot send test events yet")).toBeVisible();
    }

    // the receiver breaks: the next delivery fails with its status code and waits for a retry
    receiver.mode = "error";
    const second = await transferSstb(devnet.rpcUrl, sstb, holder, stranger, "0.02");
    await expect(async () => {
      await webhooks.refresh().click();
      await expect(webhooks.deliveries().first().getByTestId("last-response")).toHaveText("HTTP 500", {
        timeout: 1_000,
      });
    }).toPass({ timeout: 30_000 });
    await expect(webhooks.deliveries().first()).toContainText("pending");
    await checkPage(page, "webhook-deliveries");

    // fixed, and redelivered by hand (same delivery, due now)
    receiver.mode = "ok";
    await webhooks
      .deliveries()
      .first()
      .getByRole("button", { name: /Redeliver/ })
      .click();
    await receiver.waitFor((r) => r.some((w) => w.payload.data.transactionHash === second), 30_000);
    await expect(async () => {
      await webhooks.refresh().click();
      await expect(webhooks.deliveries().first()).toContainText("delivered", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(webhooks.deliveries().first().getByTestId("last-response")).toHaveText("HTTP 200");

    // a rotation shows the new secret once, with its copy button
    await webhooks.rotate().click();
    await expect(webhooks.secret()).toHaveText(/^whsec_[0-9a-f]{64}$/);
    expect((await webhooks.secret().textContent())!.trim()).not.toBe(secret);
    await expect(page.getByRole("button", { name: /^Copy secret/ })).toBeVisible();
    await checkPage(page, "webhook-secret-rotated");
  });
});
