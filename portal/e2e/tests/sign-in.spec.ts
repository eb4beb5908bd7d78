import { ACCOUNT, checkPage, expect, test } from "../fixtures";
import { SignInPage } from "../pages/sign-in.page";

test.describe("Signing in with the wallet", () => {
  test("a visitor connects the wallet, signs the message and lands on the sections", async ({ actor }) => {
    const { page, address, calls } = await actor(ACCOUNT.developer);
    const signIn = new SignInPage(page);
    await signIn.open();
    await expect(signIn.heading()).toBeVisible();
    await expect(signIn.connectButton()).toBeVisible(); // found by EIP-6963
    await checkPage(page, "sign-in");
    await signIn.connectButton().click();
    await expect(page.getByText("Connected as")).toBeVisible();
    await signIn.signInButton().click();
    await expect(signIn.signOutButton()).toBeVisible();
    await expect(page.getByRole("banner").getByText(address)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Compute portal" })).toBeVisible();
    expect(calls.map((c) => c.method)).toContain("personal_sign");
    // the session cookie is httpOnly: the page's script cannot read it
    expect(await page.evaluate(() => document.cookie)).toBe("");
    await checkPage(page, "home");
  });

  test("the wallet's refusal to sign is shown as a refusal, and nothing is signed in", async ({ actor }) => {
    const { page, refuse } = await actor(ACCOUNT.stranger);
    refuse.add("personal_sign");
    const signIn = new SignInPage(page);
    await signIn.open();
    await signIn.connectButton().click();
    await signIn.signInButton().click();
    await expect(signIn.error()).toContainText("Refused in the wallet");
    await expect(signIn.signOutButton()).toHaveCount(0);
  });

  test("a message for another domain and a replayed message are refused", async ({ actor }) => {
    const { page, address } = await actor(ACCOUNT.stranger);
    const signIn = new SignInPage(page);
    // the portal's own sign-in request, kept to replay it
    const posted = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/api/v1/session"));
    await signIn.signIn();
    const original = (await posted).postData()!;

    const replay = await page.evaluate(async (body) => {
      const r = await fetch("/api/v1/session", {
        method: "POST",
        headers: { "content-type": "application/json", "x-portal-request": "1" },
        body,
      });
      return { status: r.status, body: await r.json() };
    }, original);
    expect(replay.status).toBe(401);
    expect(replay.body.error.details.reason).toBe("the nonce is unknown, expired or already used");

    // a message naming another site, signed by this wallet
    const foreign = await page.evaluate(async (account) => {
      const { nonce, chain_id } = (
        await (await fetch("/api/v1/session/nonce", { method: "POST", headers: { "x-portal-request": "1" } })).json()
      ).data;
      const now = new Date();
      const message = [
        "evil.example wants you to sign in with your Ethereum account:",
        account,
        "",
        "Sign in.",
        "",
        "URI: https://evil.example",
        "Version: 1",
        `Chain ID: ${chain_id}`,
        `Nonce: ${nonce}`,
        `Issued At: ${now.toISOString()}`,
        `Expiration Time: ${new Date(now.getTime() + 600_000).toISOString()}`,
      ].join("\n");
      const hex = "0x" + Array.from(new TextEncoder().encode(message), (b) => b.toString(16).padStart(2, "0")).join("");
      const ethereum = (window as unknown as { ethereum: { request(a: unknown): Promise<string> } }).ethereum;
      const signature = await ethereum.request({ method: "personal_sign", params: [hex, account] });
      const r = await fetch("/api/v1/session", {
        method: "POST",
        headers: { "content-type": "application/json", "x-portal-request": "1" },
        body: JSON.stringify({ message, signature }),
      });
      return { status: r.status, body: await r.json() };
    }, address);
    expect(foreign.status).toBe(401);
    expect(foreign.body.error.details.reason).toBe("the message is for another domain");
  });

  test("signing out ends the session: the gateway refuses it afterwards", async ({ actor }) => {
    const { page } = await actor(ACCOUNT.stranger);
    const signIn = new SignInPage(page);
    await signIn.signIn();
    expect((await page.request.get("/api/v1/session")).status()).toBe(200);
    await signIn.signOutButton().click();
    await expect(signIn.heading()).toBeVisible();
    expect((await page.request.get("/api/v1/session")).status()).toBe(401);
  });
});
