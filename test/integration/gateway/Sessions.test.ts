import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { eq } from "drizzle-orm";
import { Wallet } from "ethers";
import type { JsonRpcSigner } from "ethers";
import { SiweMessage } from "siwe";

import { startGateway } from "../../../gateway/server.js";
import type { Gateway } from "../../../gateway/server.js";
import { buildApp } from "../../../gateway/http/app.js";
import { PORTAL_CSP } from "../../../gateway/http/routes/portal.js";
import { portalSessions } from "../../../gateway/store/schema.js";
import {
  ROLE,
  runLiveScenario,
  sharedLiveDeployment,
  startTestGateway,
  testConfig,
} from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";
import { TestReceiver } from "../../../testing/local-servers.js";
import { HttpClient, expectError } from "../../helpers/http.js";
import type { Recorded } from "../../helpers/http.js";

const CSRF = { "x-portal-request": "1" };

describe(`Portal sessions on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"} (Sign-In with Ethereum, real HTTP)`, function () {
  this.timeout(300_000);
  let live: LiveDeployment;
  let gw: Gateway;
  let http: HttpClient;
  let dist: string;
  const receiver = new TestReceiver();
  const signer = (role: keyof typeof ROLE) => live.signers[ROLE[role]];
  const origin = () => gw.url;

  /** A SIWE message as the portal builds it, with any field overridden. */
  async function messageFor(address: string, overrides: Partial<SiweMessage> = {}): Promise<string> {
    const nonce = (await http.request("POST", "/api/v1/session/nonce", { headers: CSRF })).body as {
      data: { nonce: string };
    };
    const now = Date.now();
    return new SiweMessage({
      domain: new URL(origin()).host,
      address,
      statement: "Sign in to the compute portal.",
      uri: origin(),
      version: "1",
      chainId: 42161,
      nonce: nonce.data.nonce,
      issuedAt: new Date(now).toISOString(),
      expirationTime: new Date(now + 3_600_000).toISOString(),
      ...overrides,
    }).prepareMessage();
  }

  const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
    http.request("POST", p, {
      token: null,
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", origin: origin(), ...CSRF, ...headers },
    });

  async function signInWith(
    wallet: Pick<JsonRpcSigner, "signMessage"> & { address: string },
    message?: string,
  ): Promise<{ r: Recorded; cookie: string; message: string; signature: string }> {
    const text = message ?? (await messageFor(wallet.address));
    const signature = await wallet.signMessage(text);
    const r = await post("/api/v1/session", { message: text, signature });
    const cookie = (r.headers.get("set-cookie") ?? "").split(";")[0];
    return { r, cookie, message: text, signature };
  }

  /** A request with the session cookie (and, for writes, the portal's CSRF header and Origin). */
  const withSession = (cookie: string, method: string, p: string, body?: unknown, extra: Record<string, string> = {}) =>
    http.request(method, p, {
      token: null,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      headers: {
        cookie,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(method === "GET" ? {} : { origin: origin(), ...CSRF }),
        ...extra,
      },
    });

  before(async function () {
    live = await sharedLiveDeployment("sessions", { satellite: false });
    await runLiveScenario(live); // provider A active, the user with redemptions 1 (confirmed) and 2 (expired)
    dist = await mkdtemp(path.join(tmpdir(), "portal-dist-"));
    await mkdir(path.join(dist, "assets"));
    await writeFile(path.join(dist, "index.html"), "<!doctype html><title>portal</title>");
    await writeFile(path.join(dist, "assets", "index-abc123.js"), "console.log(1)");
    await writeFile(path.join(dist, "robots.txt"), "User-agent: *");
    await receiver.start();
    gw = await startTestGateway(live, testConfig(live, { portal: { distDir: dist, sessionTtlSeconds: 3_600 } }));
    http = new HttpClient(gw.url);
  });

  after(async function () {
    await gw?.close();
    await receiver.stop();
    await live?.stop();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  describe("POST /session/nonce and POST /session (sign-in)", function () {
    it("signs in with a message naming the configured domain, URI and chain: an httpOnly SameSite=Strict cookie", async function () {
      const nonce = await http.request("POST", "/v1/session/nonce", { token: null });
      expect(nonce.status, nonce.text).to.equal(200);
      const data = (nonce.body as any).data;
      expect(data.nonce).to.match(/^[0-9a-f]{32}$/);
      expect(data).to.include({ domain: new URL(gw.url).host, uri: gw.url, chain_id: 42161 });

      const { r, cookie } = await signInWith(signer("user"));
      expect(r.status, r.text).to.equal(200);
      expect((r.body as any).data.address).to.equal(signer("user").address);
      const setCookie = r.headers.get("set-cookie")!;
      expect(setCookie).to.match(/^portal_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
      expect(setCookie, "no Secure flag on the devnet's plain-HTTP loopback").to.not.include("Secure");
      const me = await withSession(cookie, "GET", "/api/v1/session");
      expect(me.status, me.text).to.equal(200);
      expect((me.body as any).data.address).to.equal(signer("user").address);
    });

    it("takes the message's line feeds (EIP-4361 is lines) but refuses any other control character in it", async function () {
      const text = await messageFor(signer("keeper").address);
      expect(text).to.include("\n");
      const withNul = text.replace("\n", "\u0000\n");
      const r = await post("/api/v1/session", {
        message: withNul,
        signature: await signer("keeper").signMessage(withNul),
      });
      expectError(r, "invalid_parameter", 400);
      expect((r.body as any).error.details.reason).to.equal(
        "must not contain control characters other than tab, line feed and carriage return (found U+0000)",
      );
      expect(r.headers.get("set-cookie")).to.equal(null);
      // the nonce was not spent by the refused request: the clean message still signs in
      const { r: ok } = await signInWith(signer("keeper"), text);
      expect(ok.status, ok.text).to.equal(200);
    });

    it("uses a nonce once: the same signed message replayed is refused", async function () {
      const first = await signInWith(signer("keeper"));
      expect(first.r.status, first.r.text).to.equal(200);
      const replay = await post("/api/v1/session", { message: first.message, signature: first.signature });
      expectError(replay, "authentication_error", 401);
      expect((replay.body as any).error.details.reason).to.equal("the nonce is unknown, expired or already used");
      expect(replay.headers.get("set-cookie")).to.equal(null);
    });

    it("refuses another domain, URI or chain, an expired or stale message, an unknown nonce and a forged signature", async function () {
      const user = signer("user").address;
      const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
      const cases: Array<[string, () => Promise<string>, string]> = [
        ["another domain", () => messageFor(user, { domain: "evil.example" }), "the message is for another domain"],
        ["another port", () => messageFor(user, { domain: "127.0.0.1:1" }), "the message is for another domain"],
        [
          "another URI",
          () => messageFor(user, { uri: "https://evil.example" }),
          "the message's URI is not the portal's",
        ],
        ["another chain", () => messageFor(user, { chainId: 1 }), "the message is for another chain"],
        [
          "expired",
          () => messageFor(user, { issuedAt: hourAgo, expirationTime: new Date(Date.now() - 1_000).toISOString() }),
          "the message was not issued within the last ten minutes",
        ],
        [
          "no expiration",
          () => messageFor(user, { expirationTime: undefined }),
          "the message has no expiration time in the future",
        ],
        [
          "an expiration just passed",
          () => messageFor(user, { expirationTime: new Date(Date.now() - 1_000).toISOString() }),
          "the message has no expiration time in the future",
        ],
        [
          "an unknown nonce",
          () => messageFor(user, { nonce: "a1b2c3d4e5f6a7b8" }),
          "the nonce is unknown, expired or already used",
        ],
      ];
      for (const [label, make, reason] of cases) {
        const { r } = await signInWith(signer("user"), await make());
        expectError(r, "authentication_error", 401);
        expect((r.body as any).error.details.reason, label).to.equal(reason);
        expect(r.headers.get("set-cookie"), label).to.equal(null);
      }
      // signed by another account than the one the message names
      const text = await messageFor(user);
      const forged = await post("/api/v1/session", {
        message: text,
        signature: await signer("keeper").signMessage(text),
      });
      expectError(forged, "authentication_error", 401);
      expect((forged.body as any).error.details.reason).to.equal("the signature does not match the message's address");
      // not an EIP-4361 text
      const garbage = await post("/api/v1/session", { message: "hello", signature: "0x" + "11".repeat(65) });
      expectError(garbage, "authentication_error", 401);
    });

    it("refuses a sign-in posted without the portal's header or from another origin (login CSRF)", async function () {
      const wallet = Wallet.createRandom();
      const text = await messageFor(wallet.address);
      const signature = await wallet.signMessage(text);
      const noHeader = await http.request("POST", "/api/v1/session", {
        token: null,
        body: JSON.stringify({ message: text, signature }),
        headers: { "content-type": "application/json", origin: origin() },
      });
      expectError(noHeader, "authorization_error", 403);
      const foreign = await post("/api/v1/session", { message: text, signature }, { origin: "https://evil.example" });
      expectError(foreign, "authorization_error", 403);
      expect((foreign.body as any).error.details.reason).to.equal("origin_mismatch");
    });
  });

  describe("the session as a credential", function () {
    it("answers the API's routes for the session's address (balance, account redemptions, webhooks)", async function () {
      const { cookie } = await signInWith(signer("user"));
      const balance = await withSession(cookie, "GET", "/api/v1/sstb/balance");
      expect(balance.status, balance.text).to.equal(200);
      expect((balance.body as any).data.account).to.equal(signer("user").address);
      expect(Number((balance.body as any).data.sstb_balance)).to.be.greaterThan(0);

      const mine = await withSession(cookie, "GET", "/v1/redemptions?role=user");
      expect(mine.status, mine.text).to.equal(200);
      const ids = (mine.body as any).data.redemptions.map((r: { redemption_id: string }) => r.redemption_id);
      expect(ids).to.deep.equal(["2", "1"]);
      expect((mine.body as any).data.redemptions[1]).to.include({ status: "confirmed", user: signer("user").address });
      expect((mine.body as any).data.redemptions[1].collateral_locked).to.be.greaterThan(0);

      const created = await withSession(cookie, "POST", "/api/v1/webhooks", {
        url: receiver.url,
        events: ["redemption.initiated"],
      });
      expect(created.status, created.text).to.equal(201);
      expect((created.body as any).data.secret).to.match(/^whsec_/);
    });

    it("refuses a cookie-authenticated write without the portal header (403) or from another Origin (403)", async function () {
      const { cookie } = await signInWith(signer("user"));
      const body = { url: receiver.url, events: ["sstb.minted"] };
      const noHeader = await http.request("POST", "/api/v1/webhooks", {
        token: null,
        body: JSON.stringify(body),
        headers: { cookie, "content-type": "application/json", origin: origin() },
      });
      expectError(noHeader, "authorization_error", 403);
      expect((noHeader.body as any).error.details.reason).to.equal("csrf_header_missing");
      const foreign = await withSession(cookie, "POST", "/api/v1/webhooks", body, { origin: "https://evil.example" });
      expectError(foreign, "authorization_error", 403);
      expect((foreign.body as any).error.details.reason).to.equal("origin_mismatch");
      const noOrigin = await http.request("DELETE", "/api/v1/session", { token: null, headers: { cookie, ...CSRF } });
      expectError(noOrigin, "authorization_error", 403);
      // neither refusal signed the session out
      expect((await withSession(cookie, "GET", "/api/v1/session")).status).to.equal(200);
    });

    it("counts session requests per address at the standard tier's limit, every session of the address together", async function () {
      const a = await signInWith(signer("keeper"));
      const b = await signInWith(signer("keeper"));
      const first = await withSession(a.cookie, "GET", "/api/v1/session");
      const second = await withSession(b.cookie, "GET", "/api/v1/session");
      expect(first.headers.get("x-ratelimit-limit")).to.equal("100");
      expect(Number(second.headers.get("x-ratelimit-remaining"))).to.equal(
        Number(first.headers.get("x-ratelimit-remaining")) - 1,
      );
    });

    it("signs out on every instance: the cookie is refused afterwards and the row is revoked", async function () {
      const { cookie } = await signInWith(signer("user2"));
      let second: Gateway | undefined;
      if (process.env.DATABASE_URL) {
        // a second gateway on the same PostgreSQL database sees the session and its end
        second = await startGateway(testConfig(live, { port: 0 }), { index: false, deliver: false });
        second.sessions.settings.origin = gw.url;
        const there = await new HttpClient(second.url).request("GET", "/api/v1/session", {
          token: null,
          headers: { cookie },
        });
        expect(there.status, there.text).to.equal(200);
      }
      const out = await withSession(cookie, "DELETE", "/api/v1/session");
      expect(out.status, out.text).to.equal(200);
      expect(out.headers.get("set-cookie")).to.match(/^portal_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Strict/);
      const after = await withSession(cookie, "GET", "/api/v1/session");
      expectError(after, "authentication_error", 401);
      expect((after.body as any).error.details.reason).to.equal("session_ended");
      const rows = await gw.store.db
        .select()
        .from(portalSessions)
        .where(eq(portalSessions.addressLower, signer("user2").address.toLowerCase()));
      expect(rows.length).to.equal(1);
      expect(rows[0].revokedAt).to.be.a("number");
      expect(rows[0].idHash, "the table holds a hash, never the cookie").to.not.equal(cookie.split("=")[1]);
      if (second !== undefined) {
        const there = await new HttpClient(second.url).request("GET", "/api/v1/session", {
          token: null,
          headers: { cookie },
        });
        expectError(there, "authentication_error", 401);
        await second.close();
      }
    });
  });

  describe("API keys through the session (/session/keys)", function () {
    it("creates a key shown once, lists it with its use, revokes it, and the key is refused afterwards", async function () {
      const { cookie } = await signInWith(signer("user"));
      const created = await withSession(cookie, "POST", "/api/v1/session/keys", { label: "ci", scopes: ["read"] });
      expect(created.status, created.text).to.equal(201);
      const key = (created.body as any).data;
      expect(key).to.include({ label: "ci", tier: "standard", rate_limit: 100, revoked_at: null, requests_24h: 0 });
      expect(key.token).to.be.a("string");

      const withKey = new HttpClient(gw.url, key.token);
      for (let i = 0; i < 3; i++) expect((await withKey.get("/api/v1/providers/list")).status).to.equal(200);
      const listed = await withSession(cookie, "GET", "/api/v1/session/keys");
      expect(listed.status, listed.text).to.equal(200);
      const row = (listed.body as any).data.keys.find((k: { key_id: string }) => k.key_id === key.key_id);
      expect(row.requests_24h).to.equal(3);
      expect(row.scopes).to.deep.equal(["read"]);
      expect(row.last_used_at).to.be.within(Math.floor(Date.now() / 1000) - 60, Math.floor(Date.now() / 1000) + 1);
      expect(row).to.not.have.property("token");
      expect(listed.text).to.not.include(key.token);

      const revoked = await withSession(cookie, "DELETE", `/api/v1/session/keys/${key.key_id}`);
      expect(revoked.status, revoked.text).to.equal(200);
      expect((revoked.body as any).data.revoked_at).to.be.a("number");
      expectError(await withKey.get("/api/v1/providers/list"), "authentication_error", 401);
    });

    it("honours Idempotency-Key on the portal's POSTs: a repeat makes one key and one subscription, answered again", async function () {
      const { cookie } = await signInWith(signer("user"));
      const keyHeader = { "idempotency-key": `portal-${Date.now()}-key` };
      const body = { label: "double-submit", scopes: ["read"] };
      const first = await withSession(cookie, "POST", "/api/v1/session/keys", body, keyHeader);
      const again = await withSession(cookie, "POST", "/api/v1/session/keys", body, keyHeader);
      expect(first.status, first.text).to.equal(201);
      expect(again.status, again.text).to.equal(201);
      expect(again.headers.get("idempotent-replayed")).to.equal("true");
      expect((again.body as any).data.key_id).to.equal((first.body as any).data.key_id);
      expect((again.body as any).data.token, "the one key, shown again to the repeat").to.equal(
        (first.body as any).data.token,
      );
      const keys = (await withSession(cookie, "GET", "/api/v1/session/keys")).body as any;
      expect(keys.data.keys.filter((k: { label: string }) => k.label === "double-submit")).to.have.length(1);

      const subHeader = { "idempotency-key": `portal-${Date.now()}-subscription` };
      const subscription = { url: `${receiver.url}/double-submit`, events: ["sstb.minted"] };
      const sub = await withSession(cookie, "POST", "/api/v1/webhooks", subscription, subHeader);
      const subAgain = await withSession(cookie, "POST", "/api/v1/webhooks", subscription, subHeader);
      expect(sub.status, sub.text).to.equal(201);
      expect((subAgain.body as any).data.subscription_id).to.equal((sub.body as any).data.subscription_id);
      expect((subAgain.body as any).data.secret, "one secret").to.equal((sub.body as any).data.secret);
      const subs = (await withSession(cookie, "GET", "/api/v1/webhooks")).body as any;
      expect(subs.data.webhooks.filter((w: { url: string }) => w.url === subscription.url)).to.have.length(1);
    });

    it("refuses an API key on the session routes: keys are managed from a portal session only", async function () {
      const { token } = await gw.keys.create({
        tier: "premium",
        account: signer("user").address,
        scopes: ["read", "write"],
      });
      const withKey = new HttpClient(gw.url, token);
      expectError(await withKey.get("/api/v1/session/keys"), "authorization_error", 403);
      const create = await withKey.request("POST", "/api/v1/session/keys", {
        body: JSON.stringify({ scopes: ["read"] }),
        headers: { "content-type": "application/json" },
      });
      expectError(create, "authorization_error", 403);
      expectError(await http.get("/api/v1/session/keys", { token: null }), "authentication_error", 401);
    });

    it("keeps a session to its own address: another address's key and subscription are not found", async function () {
      const owner = await signInWith(signer("user"));
      const stranger = await signInWith(signer("keeper"));
      const key = (await withSession(owner.cookie, "POST", "/api/v1/session/keys", { scopes: ["read"] })).body as any;
      const sub = (
        await withSession(owner.cookie, "POST", "/api/v1/webhooks", { url: receiver.url, events: ["sstb.minted"] })
      ).body as any;

      expectError(
        await withSession(stranger.cookie, "DELETE", `/api/v1/session/keys/${key.data.key_id}`),
        "resource_not_found",
        404,
      );
      const theirs = (await withSession(stranger.cookie, "GET", "/api/v1/session/keys")).body as any;
      expect(theirs.data.keys.map((k: { key_id: string }) => k.key_id)).to.not.include(key.data.key_id);
      for (const [method, p] of [
        ["GET", `/api/v1/webhooks/${sub.data.subscription_id}`],
        ["DELETE", `/api/v1/webhooks/${sub.data.subscription_id}`],
        ["POST", `/api/v1/webhooks/${sub.data.subscription_id}/rotate`],
        ["GET", `/api/v1/webhooks/${sub.data.subscription_id}/deliveries`],
      ] as const) {
        const r = await withSession(stranger.cookie, method, p, method === "POST" ? {} : undefined);
        expectError(r, "resource_not_found", 404);
      }
      // the owner's key still works and the subscription is still there
      expect((await new HttpClient(gw.url, key.data.token).get("/api/v1/providers/list")).status).to.equal(200);
      expect((await withSession(owner.cookie, "GET", `/api/v1/webhooks/${sub.data.subscription_id}`)).status).to.equal(
        200,
      );
    });

    it("registers the holder's access public key, which the provider sees on the holder's redemptions", async function () {
      const { cookie } = await signInWith(signer("user"));
      const publicKey = "0x" + "ab".repeat(32);
      const put = await withSession(cookie, "PUT", "/api/v1/session/access-key", { public_key: publicKey });
      expect(put.status, put.text).to.equal(200);
      expect((put.body as any).data).to.include({ address: signer("user").address, public_key: publicKey });
      const bad = await withSession(cookie, "PUT", "/api/v1/session/access-key", { public_key: "0x1234" });
      expectError(bad, "invalid_parameter", 400, "public_key");
      const provider = await signInWith(signer("providerA"));
      const incoming = await withSession(provider.cookie, "GET", "/api/v1/redemptions?role=provider");
      expect(incoming.status, incoming.text).to.equal(200);
      const rows = (incoming.body as any).data.redemptions;
      expect(rows.length).to.equal(2);
      for (const r of rows) expect(r.user_access_key).to.equal(publicKey);
    });
  });

  describe("account reads for the portal", function () {
    it("quotes a redemption: fee, deadline, the lock and what the holder gets back if the provider fails", async function () {
      const { cookie } = await signInWith(signer("user"));
      const provider = signer("providerA").address;
      const r = await withSession(cookie, "GET", `/api/v1/redemptions/quote?sstb_amount=1&provider_id=${provider}`);
      expect(r.status, r.text).to.equal(200);
      const q = (r.body as any).data;
      expect(q).to.include({ sstb_amount: 1, fee: 0.001, total: 1.001, tier: "premium", fulfilment_seconds: 21_600 });
      expect(q.total_base_units).to.equal("1001000000000000000");
      // 1 sSTB at 1 USDC and 120%: 1.2 USDC locked; during the stake the holder gets 1.0 back, after it all 1.2
      expect(q.collateral_locked).to.equal(1.2);
      expect(q.compensation).to.include({
        if_expired_during_stake: 1,
        if_expired_after_stake: 1.2,
        if_dispute_won: 1.2,
      });
      expect(q.compensation.applies_now).to.equal("during_stake");
      expect(q.refusal).to.equal(null);
      const tooMuch = await withSession(
        cookie,
        "GET",
        `/api/v1/redemptions/quote?sstb_amount=1000000&provider_id=${provider}`,
      );
      expect((tooMuch.body as any).data.refusal).to.equal("the provider has less capacity available than the amount");
      expectError(
        await withSession(cookie, "GET", `/api/v1/redemptions/quote?sstb_amount=-1&provider_id=${provider}`),
        "invalid_parameter",
        400,
      );
    });

    it("shows a provider's collateral, and a redemption's access details to its parties only", async function () {
      const { cookie } = await signInWith(signer("user"));
      const c = await withSession(cookie, "GET", `/api/v1/providers/${signer("providerA").address}/collateral`);
      expect(c.status, c.text).to.equal(200);
      const data = (c.body as any).data;
      expect(data).to.include({ status: "active", tier: "premium" });
      expect(data.collateral_token.decimals).to.equal(6);
      expect(data.free_collateral).to.be.at.least(data.required_collateral);
      expectError(
        await withSession(cookie, "GET", `/api/v1/providers/${signer("keeper").address}/collateral`),
        "resource_not_found",
        404,
      );

      const details = await withSession(cookie, "GET", "/api/v1/redemptions/1/access-details");
      expect(details.status, details.text).to.equal(200);
      expect((details.body as any).data.envelope).to.match(/^stbad1\./);
      const stranger = await signInWith(signer("keeper"));
      expectError(
        await withSession(stranger.cookie, "GET", "/api/v1/redemptions/1/access-details"),
        "authorization_error",
        403,
      );
      expectError(await withSession(cookie, "GET", "/api/v1/redemptions/2/access-details"), "resource_not_found", 404);
    });
  });

  describe("the portal's pages (/portal)", function () {
    it("redirects /portal to /portal/ and serves the build with the Content-Security-Policy", async function () {
      const bare = await fetch(`${gw.url}/portal`, { redirect: "manual" });
      expect(bare.status).to.equal(301);
      expect(bare.headers.get("location")).to.equal("/portal/");
      const index = await fetch(`${gw.url}/portal/`);
      expect(index.status).to.equal(200);
      expect(await index.text()).to.include("<title>portal</title>");
      expect(index.headers.get("content-security-policy")).to.equal(PORTAL_CSP);
      expect(PORTAL_CSP)
        .to.include("script-src 'self'")
        .and.include("frame-ancestors 'none'")
        .and.not.include("unsafe");
      expect(index.headers.get("cache-control")).to.equal("no-cache");
      expect(index.headers.get("x-ratelimit-limit"), "the pages are not counted against the API's budget").to.equal(
        null,
      );
    });

    it("falls back to index.html for the app's own paths, caches hashed assets, and answers JSON 404 for a missing file", async function () {
      const page = await fetch(`${gw.url}/portal/developers/keys`);
      expect(page.status).to.equal(200);
      expect(await page.text()).to.include("<title>portal</title>");
      const asset = await fetch(`${gw.url}/portal/assets/index-abc123.js`);
      expect(asset.status).to.equal(200);
      expect(asset.headers.get("cache-control")).to.equal("public, max-age=31536000, immutable");
      expect(asset.headers.get("content-type")).to.match(/javascript/);
      const plain = await fetch(`${gw.url}/portal/robots.txt`);
      expect(plain.headers.get("cache-control")).to.equal("public, max-age=0, must-revalidate");
      const missing = await fetch(`${gw.url}/portal/assets/nope-123.js`);
      expect(missing.status).to.equal(404);
      expect(((await missing.json()) as any).error.code).to.equal("resource_not_found");
      const escape = await fetch(`${gw.url}/portal/..%2f..%2fpackage.json`);
      expect(escape.status).to.equal(404);
      const config = await fetch(`${gw.url}/portal/config.json`);
      const c = (await config.json()) as any;
      expect(c.chain).to.include({ name: "arbitrum", chain_id: 42161 });
      expect(c.chain.contracts.RedemptionManager).to.equal(await live.d.redemptionManager.getAddress());
      expect(c.chain.wallet_rpc_urls).to.deep.equal([live.nodes[0].url]);
    });

    it("answers /portal with a clear JSON 404 when the portal is not built", async function () {
      const absent = {} as never;
      const app = await buildApp({
        keys: absent,
        activity: absent,
        model: absent,
        chains: [],
        chainLabels: {},
        bridges: absent,
        health: () => ({}),
        portal: { distDir: path.join(tmpdir(), "no-such-portal-build"), config: () => absent },
      });
      try {
        const r = await app.inject({ method: "GET", url: "/portal/" });
        expect(r.statusCode).to.equal(404);
        const body = JSON.parse(r.body);
        expect(body.error.code).to.equal("resource_not_found");
        expect(body.error.message).to.include("the portal is not built").and.include("npm run portal:build");
      } finally {
        await app.close();
      }
    });
  });
});
