import { createHash } from "node:crypto";

import type { Page } from "@playwright/test";

import { ACCOUNT, checkPage, expect, test } from "../fixtures";
import type { Actor } from "../fixtures";
import { HolderPage, ProviderConsolePage } from "../pages/holders.page";
import { SignInPage } from "../pages/sign-in.page";

const SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx7portaltestkey holder@laptop";

/** Signs `actor` in on `path`. */
async function signedIn(actor: Actor, path: string): Promise<Page> {
  await new SignInPage(actor.page).signIn(path);
  return actor.page;
}

/** The holder's access key set up in this page (derived from two signatures, the public half registered). */
async function setUpAccessKey(holder: HolderPage): Promise<void> {
  await holder.openHolder();
  if (await holder.keyReady().isVisible()) return;
  await holder.setUpKey().click();
  await expect(holder.keyReady()).toBeVisible();
}

/**
 * The provider fulfils redemption `id` from its console with the form's default lease end (30 days
 * of the chain's time); resolves with that end as an ISO instant.
 */
async function fulfil(page: Page, id: number): Promise<string> {
  const provider = new ProviderConsolePage(page);
  await provider.openRedemption(id);
  const leaseEnd = await provider.fulfil({
    hostname: `node-${id}.compute.example`,
    username: "holder",
    sshKey: SSH_KEY,
    docs: "https://docs.compute.example/ssh",
  });
  await expect(provider.fulfilled()).toBeVisible({ timeout: 60_000 });
  // the datetime-local value is the provider's local time; the page's own clock turns it into the instant
  return page.evaluate((value) => new Date(value).toISOString(), leaseEnd);
}

test.describe("Holders and providers", () => {
  test("a holder redeems, the provider fulfils from a second browser, the holder opens the details and confirms", async ({
    actor,
  }) => {
    const holderActor = await actor(ACCOUNT.holder);
    const providerActor = await actor(ACCOUNT.provider);
    const page = await signedIn(holderActor, "/portal/holders");
    const holder = new HolderPage(page);
    await expect(page.getByTestId("balance-arbitrum")).toContainText("sSTB");
    await expect(page.getByTestId("balance-ethereum")).toContainText("sSTB");
    await setUpAccessKey(holder);
    await expect(page.getByTestId("access-key-status")).toContainText(
      "(matches this wallet's key, unlocked in this page)",
    );
    await checkPage(page, "holder");

    await page.goto("/portal/holders/providers");
    await expect(page.getByRole("link", { name: "Acme Compute" })).toBeVisible();
    await checkPage(page, "providers");
    await page.getByRole("link", { name: "Acme Compute" }).click();
    await holder.amount().fill("1");
    await expect(holder.quote()).toContainText("0.001 sSTB");
    await expect(holder.quote()).toContainText("6 h 0 min (premium tier)");
    await expect(page.getByTestId("compensation")).toContainText("A dispute you win pays the whole lock");
    await checkPage(page, "provider");
    // one redemption per click: while the wallet is asked, Redeem cannot be clicked again
    const disabledWhileAsked: string[] = [];
    for (const method of ["eth_signTypedData_v4", "eth_sendTransaction"]) {
      holderActor.onceBefore.set(method, async () => {
        await expect(page.getByRole("button", { name: /^Redeem/ })).toBeDisabled({ timeout: 5_000 });
        disabledWhileAsked.push(method);
      });
    }
    const id = await holder.redeem("1");
    expect(disabledWhileAsked, "Redeem disabled while the wallet asked for each step").toEqual([
      "eth_signTypedData_v4",
      "eth_sendTransaction",
    ]);
    const methods = holderActor.calls.map((c) => c.method);
    expect(methods, "permit where the wallet signs typed data").toContain("eth_signTypedData_v4");
    await expect(holder.status()).toContainText(`Redemption #${id}`);
    await expect(holder.status()).toContainText("pending");
    await expect(page.getByTestId("countdown")).toContainText("left");
    await checkPage(page, "redemption-pending");

    // the provider, in its own browser, sees it and fulfils with a lease end
    const providerPage = await signedIn(providerActor, "/portal/providers");
    const console = new ProviderConsolePage(providerPage);
    await expect(console.collateral()).toContainText("USDC");
    await expect(console.incoming(id)).toBeVisible();
    await checkPage(providerPage, "provider-console");
    await console.openRedemption(id);
    await expect(providerPage.getByRole("heading", { name: "Fulfil" })).toBeVisible();
    await checkPage(providerPage, "fulfil");
    const leaseEnd = await fulfil(providerPage, id);

    // the holder opens the details in the page and confirms
    await expect(holder.status()).toContainText("fulfilled", { timeout: 30_000 });
    await holder.openDetails().click();
    await expect(holder.details()).toContainText(`holder@node-${id}.compute.example -p 22`);
    await expect(holder.details()).toContainText(SSH_KEY);
    await expect(page.getByTestId("lease-end").locator("time")).toHaveAttribute("datetime", leaseEnd);
    await checkPage(page, "redemption-fulfilled");
    await holder.confirmButton().click();
    await expect(holder.status()).toContainText("confirmed", { timeout: 60_000 });
    await expect(holder.confirmButton()).toHaveCount(0);
    await page.reload();
    await expect(holder.status()).toContainText("confirmed");
  });

  test("a holder disputes with a description and an evidence file; the provider sees the evidence", async ({
    actor,
  }) => {
    const holderActor = await actor(ACCOUNT.holder);
    const providerActor = await actor(ACCOUNT.provider);
    const page = await signedIn(holderActor, "/portal/holders");
    const holder = new HolderPage(page);
    await setUpAccessKey(holder);
    await holder.openProvider(providerActor.address);
    const id = await holder.redeem("1");
    const providerPage = await signedIn(providerActor, "/portal/providers");
    await fulfil(providerPage, id);

    await page.reload();
    await expect(holder.status()).toContainText("fulfilled");
    const log = Buffer.from("ssh: connect to host node port 22: Connection refused\n".repeat(20));
    await holder.issue().selectOption("access_failure");
    await holder.description().fill("The host refuses every connection since it was handed over.");
    await holder.evidenceFile().setInputFiles({ name: "ssh-session.log", mimeType: "text/plain", buffer: log });
    await holder.disputeButton().click();
    await expect(holder.status()).toContainText("disputed", { timeout: 60_000 });
    await page.reload();
    await expect(holder.status()).toContainText("disputed");
    await expect(holder.evidence()).toContainText("ssh-session.log");
    await checkPage(page, "redemption-disputed");

    const sha256 = createHash("sha256").update(log).digest("hex");
    const console = new ProviderConsolePage(providerPage);
    await console.openRedemption(id);
    const shown = providerPage.getByTestId("evidence");
    await expect(shown).toContainText("The host refuses every connection");
    await expect(shown).toContainText("ssh-session.log");
    await expect(shown).toContainText(sha256);
    const download = providerPage.waitForEvent("download");
    await shown.getByRole("link", { name: "ssh-session.log" }).click();
    const file = await (await download).path();
    expect(
      createHash("sha256")
        .update(await (await import("node:fs/promises")).readFile(file))
        .digest("hex"),
    ).toBe(sha256);
  });

  test("a stale page shows the contract's revert reason verbatim", async ({ actor }) => {
    const holderActor = await actor(ACCOUNT.holder);
    const providerActor = await actor(ACCOUNT.provider);
    const page = await signedIn(holderActor, "/portal/holders");
    const holder = new HolderPage(page);
    await setUpAccessKey(holder);
    await holder.openProvider(providerActor.address);
    const id = await holder.redeem("1");

    // the provider opens the fulfil form in one tab and leaves it open (its reads then stop: a stale page)
    const stale = await signedIn(providerActor, `/portal/providers/redemptions/${id}`);
    await expect(stale.getByRole("heading", { name: "Fulfil" })).toBeVisible();
    await stale.route("**/api/v1/redemptions?**", (route) => route.abort());
    // ... and fulfils from another tab
    const other = await stale.context().newPage();
    await fulfil(other, id);
    // the stale tab tries again: the contract refuses with the spec's reason string
    await new ProviderConsolePage(stale).fulfil({
      hostname: "late.compute.example",
      username: "holder",
      sshKey: SSH_KEY,
      docs: "https://docs.compute.example/ssh",
    });
    const error = stale.getByRole("alert").filter({ hasText: "The contract refused" });
    await expect(error).toBeVisible({ timeout: 30_000 });
    await expect(error.getByTestId("error-message")).toHaveText("Already fulfilled");
    await checkPage(stale, "revert");
  });

  test("a stranger's session cannot read another's redemptions or touch another's keys", async ({ actor }) => {
    const holderActor = await actor(ACCOUNT.holder);
    const strangerActor = await actor(ACCOUNT.stranger);
    const holderPage = await signedIn(holderActor, "/portal/holders");
    const created = await holderPage.request.post("/api/v1/session/keys", {
      headers: { origin: new URL(holderPage.url()).origin, "x-portal-request": "1" },
      data: { label: "holder-key", scopes: ["read"] },
    });
    expect(created.status()).toBe(201);
    const key = (await created.json()).data as { key_id: string; token: string };
    const mine = (await (await holderPage.request.get("/api/v1/redemptions?role=user")).json()).data
      .redemptions as Array<{
      redemption_id: string;
    }>;
    expect(mine.length).toBeGreaterThan(0);

    const page = await signedIn(strangerActor, "/portal/holders");
    await expect(page.getByText("No redemptions yet.")).toBeVisible();
    const origin = new URL(page.url()).origin;
    const details = await page.request.get(`/api/v1/redemptions/${mine[0].redemption_id}/access-details`);
    expect(details.status()).toBe(403);
    const revoke = await page.request.delete(`/api/v1/session/keys/${key.key_id}`, {
      headers: { origin, "x-portal-request": "1" },
    });
    expect(revoke.status()).toBe(404);
    const theirs = (await (await page.request.get("/api/v1/session/keys")).json()).data.keys as Array<{
      key_id: string;
    }>;
    expect(theirs.map((k) => k.key_id)).not.toContain(key.key_id);
    // the holder's key still works
    const used = await page.request.get("/api/v1/providers/list", {
      headers: { authorization: `Bearer ${key.token}` },
    });
    expect(used.status()).toBe(200);
  });
});
