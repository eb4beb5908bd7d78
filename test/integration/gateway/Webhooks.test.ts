import { randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { expect } from "chai";
import { and, eq, inArray, sql } from "drizzle-orm";
import { formatUnits, keccak256, parseEther, parseUnits, toUtf8Bytes } from "ethers";

import { generateAccessKeyPair, IssueType, signBody, verifySignature } from "@compute-capacity/sdk";
import { fulfilEncrypted, redeem } from "../../../testing/redemption.js";
import { startGateway } from "../../../gateway/server.js";
import type { Gateway } from "../../../gateway/server.js";
import type { GatewayConfig } from "../../../gateway/config.js";
import { webhooksCommand } from "../../../gateway/webhooks/command.js";
import { WEBHOOK_EVENTS } from "../../../gateway/webhooks/events.js";
import { webhookSettings } from "../../../gateway/webhooks/settings.js";
import { Outbox } from "../../../gateway/webhooks/outbox.js";
import { SubscriptionService } from "../../../gateway/webhooks/subscriptions.js";
import { DeliveryWorkers } from "../../../gateway/webhooks/worker.js";
import { WebhookSecrets } from "../../../gateway/webhooks/secrets.js";
import { Sealer } from "../../../gateway/accounts/sealed.js";
import { silentLog } from "../../../gateway/observability/log.js";
import { openStore } from "../../../gateway/store/db.js";
import type { Db } from "../../../gateway/store/db.js";
import { events, webhookAttempts, webhookDeliveries, webhookSubscriptions } from "../../../gateway/store/schema.js";
import { sampleAccessDetails, sampleProfile } from "../../../devnet/samples.js";
import {
  ROLE,
  mintUnit,
  registerProvider,
  sharedLiveDeployment,
  startTestGateway,
  testConfig,
  TEST_ACCOUNT_KEY,
} from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";
import { HttpClient } from "../../helpers/http.js";
import { SmtpCatcher, TcpProxy, TestReceiver, eventually } from "../../../testing/local-servers.js";
import type { Received } from "../../../testing/local-servers.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BACKOFF_BASE_MS = 300;
const LEASE_MS = 2_500;
const TIMEOUT_MS = 1_000;

describe(`Webhooks on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"} (real hardhat node, real receivers)`, function () {
  this.timeout(300_000);
  let live: LiveDeployment;
  let proxy: TcpProxy;
  let smtp: SmtpCatcher;
  let config: GatewayConfig;
  let gw: Gateway;
  /** Fails the indexer's batch transaction while set (after the projection and outbox rows were written). */
  let failOn: ((name: string) => boolean) | undefined;
  const rAll = new TestReceiver();
  const rIso = new TestReceiver();
  const rOwn = new TestReceiver();
  const tokens: Record<string, string> = {};
  const subs: Record<string, { subscription_id: string; secret: string }> = {};
  /** Deliveries the freshness test replayed into rAll itself (taken twice there by design). */
  const replayed = new Set<string>();
  let api: (token: string) => HttpClient;
  const startOptions = {
    log: (line: string) => console.error(`    [gateway] ${line}`),
    afterApply: (e: { name: string }) => {
      if (failOn?.(e.name)) throw new Error(`injected failure at ${e.name}`);
    },
  };

  const json = (body: unknown) => ({
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  const signer = (role: keyof typeof ROLE) => live.signers[ROLE[role]];
  /** A transfer of sSTB between two test accounts; returns its transaction hash. */
  const transfer = async (from: keyof typeof ROLE, to: keyof typeof ROLE, amount: string) => {
    const receipt = await (
      await live.d.sstb.connect(signer(from)).transfer(signer(to).address, parseEther(amount))
    ).wait();
    return receipt!.hash;
  };
  const ofTx = (r: TestReceiver, event: string, txHash: string) =>
    r.received.filter((x) => x.event === event && x.payload.data.transactionHash === txHash);
  const rowsOf = (subscriptionId: string) =>
    gw.store.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, subscriptionId));
  const deliveryOf = async (subscriptionId: string, event: string, txHash: string) =>
    (await rowsOf(subscriptionId)).find((r) => r.event === event && r.body.includes(txHash));

  before(async function () {
    live = await sharedLiveDeployment("webhooks", { satellite: false });
    const nodeUrl = new URL(live.nodes[0].url);
    proxy = await new TcpProxy({ host: nodeUrl.hostname, port: Number(nodeUrl.port) }).start();
    smtp = await new SmtpCatcher().start();
    for (const r of [rAll, rIso, rOwn]) await r.start();
    config = testConfig(live, {
      rpcUrls: { arbitrum: proxy.url },
      webhooks: {
        timeoutMs: TIMEOUT_MS,
        pollMs: 50,
        leaseMs: LEASE_MS,
        backoffBaseMs: BACKOFF_BASE_MS,
        backoffCapMs: 1_200,
        retryWindowMs: 120_000,
        maxSubscriptionsPerAccount: 6,
        smtpUrl: smtp.url,
        smtpFrom: "gateway@devnet.example",
      },
    });
    gw = await startTestGateway(live, config, startOptions);
    api = (token) => new HttpClient(gw.url, token);
    for (const role of ["user", "user2", "providerA", "keeper"] as const) {
      tokens[role] = (
        await gw.keys.create({ tier: "premium", account: signer(role).address, scopes: ["read", "write"] })
      ).token;
    }
    tokens.readOnly = (await gw.keys.create({ tier: "standard", account: signer("user").address })).token;
    await registerProvider(live, signer("providerA"), sampleProfile("Acme Compute"), 0);
  });

  after(async function () {
    await gw?.close();
    for (const r of [rAll, rIso, rOwn]) await r.stop();
    await smtp?.stop();
    await proxy?.cut();
    await live?.stop();
  });

  describe("POST /webhooks (create)", function () {
    it("creates subscriptions under both prefixes and shows the secret only at creation", async function () {
      const all = await api(tokens.user).request(
        "POST",
        "/api/v1/webhooks",
        json({ url: rAll.url, events: [...WEBHOOK_EVENTS] }),
      );
      expect(all.status, all.text).to.equal(201);
      const created = (all.body as any).data;
      expect(created.subscription_id).to.match(UUID);
      expect(created.secret).to.match(/^whsec_[0-9a-f]{64}$/);
      expect(created).to.include({ timestamp_format: "unix", own_events_only: false, url: rAll.url });
      expect(created.events).to.deep.equal([...WEBHOOK_EVENTS]);
      subs.all = created;
      rAll.secrets = [created.secret];

      const iso = await api(tokens.user2).request(
        "POST",
        "/v1/webhooks",
        json({ url: rIso.url, events: ["sstb.minted", "redemption.initiated"], timestamp_format: "iso8601" }),
      );
      expect(iso.status, iso.text).to.equal(201);
      subs.iso = (iso.body as any).data;
      rIso.secrets = [subs.iso.secret];

      const own = await api(tokens.providerA).request(
        "POST",
        "/v1/webhooks",
        json({
          url: rOwn.url.replace("127.0.0.1", "localhost"),
          events: ["sstb.transferred", "redemption.initiated"],
          own_events_only: true,
        }),
      );
      expect(own.status, own.text).to.equal(201);
      subs.own = (own.body as any).data;
      rOwn.secrets = [subs.own.secret];

      const listed = await api(tokens.user).get("/v1/webhooks");
      expect(listed.status).to.equal(200);
      const data = (listed.body as any).data;
      expect(data).to.include({ total: 1, page: 1, limit: 20 });
      expect(data.webhooks[0].subscription_id).to.equal(subs.all.subscription_id);
      expect(data.webhooks[0]).to.not.have.property("secret");
      expect(listed.text).to.not.include(subs.all.secret);
    });

    it("refuses bad input with the error envelope and never a 5xx", async function () {
      const events = ["sstb.minted"];
      const cases: Array<[string, unknown, string]> = [
        ["no url", { events }, "url"],
        ["no events", { url: rAll.url, events: [] }, "events"],
        ["unknown event", { url: rAll.url, events: ["sstb.exploded"] }, "events"],
        ["events not an array", { url: rAll.url, events: "sstb.minted" }, "events"],
        ["duplicate events", { url: rAll.url, events: ["sstb.minted", "sstb.minted"] }, "events"],
        ["bad timestamp format", { url: rAll.url, events, timestamp_format: "rfc2822" }, "timestamp_format"],
        ["unknown field", { url: rAll.url, events, retries: 3 }, "retries"],
        ["filter not a boolean", { url: rAll.url, events, own_events_only: "yes" }, "own_events_only"],
        ["not a URL", { url: "not a url", events }, "url"],
        ["ftp URL", { url: "ftp://127.0.0.1/x", events }, "url"],
        ["credentials in the URL", { url: "http://me:pw@127.0.0.1:9/x", events }, "url"],
        ["private address", { url: "http://10.1.2.3/hook", events }, "url"],
        ["private 192.168", { url: "http://192.168.1.10:8080/hook", events }, "url"],
        ["cloud metadata", { url: "http://169.254.169.254/latest/meta-data", events }, "url"],
        ["IPv6 unique-local (AWS metadata)", { url: "http://[fd00:ec2::254]/", events }, "url"],
        ["IPv6 link-local", { url: "http://[fe80::1]/", events }, "url"],
        ["IPv4-mapped private address", { url: "http://[::ffff:10.0.0.1]/", events }, "url"],
        ["IPv4-compatible address", { url: "http://[::10.0.0.1]/", events }, "url"],
        ["6to4 address (of 127.0.0.1)", { url: "http://[2002:7f00:1::1]/", events }, "url"],
        ["Teredo address", { url: "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", events }, "url"],
        ["local-use NAT64 address", { url: "http://[64:ff9b:1::a00:1]/", events }, "url"],
        ["unspecified address", { url: "http://0.0.0.0:8080/", events }, "url"],
        ["unresolvable host", { url: "http://no-such-host.invalid/hook", events }, "url"],
        ["URL too long", { url: `http://127.0.0.1/${"a".repeat(2100)}`, events }, "url"],
        ["body not an object", [1, 2], "body"],
      ];
      for (const [label, body, parameter] of cases) {
        const r = await api(tokens.user).request("POST", "/api/v1/webhooks", json(body));
        expect(r.status, `${label}: ${r.text}`).to.equal(400);
        expect((r.body as any).success, label).to.equal(false);
        expect((r.body as any).error.code, label).to.equal("invalid_parameter");
        expect((r.body as any).error.details.parameter, label).to.satisfy(
          (p: string) => p === parameter || p.startsWith(`${parameter}.`) || parameter === "body",
        );
      }
      const malformed = await api(tokens.user).request("POST", "/v1/webhooks", json("{not json"));
      expect(malformed.status).to.equal(400);
      const plain = await api(tokens.user).request("POST", "/v1/webhooks", {
        body: "url=x",
        headers: { "content-type": "text/plain" },
      });
      expect(plain.status).to.equal(400);
      expect((plain.body as any).error.details.parameter).to.equal("content-type");
      const badStatus = await api(tokens.user).get(`/v1/webhooks/${subs.all.subscription_id}/deliveries?status=lost`);
      expect(badStatus.status).to.equal(400);
      expect((badStatus.body as any).error.details.parameter).to.equal("status");
      const none = await api(tokens.user).request("POST", "/v1/webhooks", {
        ...json({ url: rAll.url, events }),
        token: null,
      });
      expect(none.status).to.equal(401);
      expect((none.body as any).error.code).to.equal("authentication_error");
    });

    it("needs the write scope to create, the read scope to list", async function () {
      const r = await api(tokens.readOnly).request(
        "POST",
        "/v1/webhooks",
        json({ url: rAll.url, events: ["sstb.minted"] }),
      );
      expect(r.status).to.equal(403);
      expect((r.body as any).error.code).to.equal("authorization_error");
      expect((await api(tokens.readOnly).get("/v1/webhooks")).status).to.equal(200);
    });

    it("limits the subscriptions of an account", async function () {
      // an event this deployment never emits (it has no bridge): these subscriptions receive nothing
      const body = json({ url: rAll.url, events: ["bridge.message_received"] });
      for (let i = 0; i < 3; i++) {
        expect((await api(tokens.keeper).request("POST", "/v1/webhooks", body)).status).to.equal(201);
      }
      // five creates at once for the last three places: three get one, two are refused
      const racing = await Promise.all(
        Array.from({ length: 5 }, () => api(tokens.keeper).request("POST", "/v1/webhooks", body)),
      );
      expect(racing.map((r) => r.status).sort()).to.deep.equal([201, 201, 201, 400, 400]);
      const over = await api(tokens.keeper).request("POST", "/v1/webhooks", body);
      expect(over.status).to.equal(400);
      expect((over.body as any).error.message).to.include("at most 6 subscriptions");
    });
  });

  describe("GET and DELETE /webhooks/:id", function () {
    it("hides another account's subscription and deletes one's own", async function () {
      const id = subs.all.subscription_id;
      const stranger = api(tokens.user2);
      for (const [method, path] of [
        ["GET", `/v1/webhooks/${id}`],
        ["DELETE", `/v1/webhooks/${id}`],
        ["POST", `/v1/webhooks/${id}/rotate`],
        ["GET", `/v1/webhooks/${id}/deliveries`],
      ] as const) {
        const r = await stranger.request(method, path);
        expect(r.status, `${method} ${path}`).to.equal(404);
        expect((r.body as any).error.code).to.equal("resource_not_found");
      }
      expect((await api(tokens.user).get(`/api/v1/webhooks/${id}`)).status).to.equal(200);
      const malformed = await api(tokens.user).get("/v1/webhooks/not-an-id");
      expect(malformed.status).to.equal(400);
      expect((malformed.body as any).error.details.parameter).to.equal("subscription_id");

      const { data } = (await api(tokens.keeper).get("/v1/webhooks")).body as any;
      const victim = data.webhooks[0].subscription_id;
      const deleted = await api(tokens.keeper).request("DELETE", `/api/v1/webhooks/${victim}`);
      expect(deleted.status).to.equal(200);
      expect((deleted.body as any).data).to.deep.equal({ subscription_id: victim, deleted: true });
      expect((await api(tokens.keeper).get(`/v1/webhooks/${victim}`)).status).to.equal(404);
      expect(((await api(tokens.keeper).get("/v1/webhooks")).body as any).data.total).to.equal(5);
    });
  });

  describe("webhook targets outside the devnet", function () {
    it("refuses plain http and loopback names at subscription", async function () {
      const strict = new SubscriptionService(gw.store.db, webhookSettings("testnet"));
      const account = signer("user2").address;
      for (const [url, reason] of [
        [rAll.url, "https"],
        [`https://127.0.0.1:${rAll.port}/x`, "loopback"],
        [`https://localhost:${rAll.port}/x`, "loopback"],
        ["https://[::1]/x", "loopback"],
        ["https://169.254.169.254/x", "private, link-local"],
      ]) {
        let refused: any;
        await strict.create(account, { url, events: ["sstb.minted"] }).catch((e) => (refused = e));
        expect(refused?.code, url).to.equal("invalid_parameter");
        expect(refused.message, url).to.include(reason);
      }
    });

    it("checks the address again at delivery (a name that now points inside is refused)", async function () {
      // a subscription accepted earlier whose name now resolves to loopback, as after DNS rebinding
      const owner = signer("user2").address;
      const [row] = await gw.store.db
        .insert(webhookSubscriptions)
        .values({
          subscriptionId: crypto.randomUUID(),
          accountLower: owner.toLowerCase(),
          url: `https://localhost:${rAll.port}/rebound`,
          events: ["verification.completed"],
          timestampFormat: "unix",
          ownEventsOnly: false,
          secret: "whsec_test",
          createdAt: Date.now(),
        })
        .returning();
      await gw.webhooks.workers.stop();
      const strict = new DeliveryWorkers(gw.store.db, webhookSettings("testnet", { pollMs: 50 }), undefined, silentLog);
      try {
        await gw.store.db.transaction((tx) =>
          gw.webhooks.outbox.publish(tx, {
            id: "verification:rebinding-test",
            event: "verification.completed",
            timestamp: Math.floor(Date.now() / 1000),
            data: { verification_id: "0x01" },
            accounts: [owner],
          }),
        );
        strict.start(1);
        const attempt = await eventually(async () => {
          const [delivery] = await rowsOf(row.subscriptionId);
          if (delivery === undefined) return undefined;
          const [a] = await gw.store.db
            .select()
            .from(webhookAttempts)
            .where(eq(webhookAttempts.deliveryId, delivery.deliveryId));
          return a;
        });
        expect(attempt.ok).to.equal(false);
        expect(attempt.error).to.match(/refused target: .*loopback/);
        expect(rAll.hits.filter((h) => h.event === "verification.completed")).to.have.length(0);
      } finally {
        await strict.stop();
        await gw.store.db
          .delete(webhookSubscriptions)
          .where(eq(webhookSubscriptions.subscriptionId, row.subscriptionId));
        gw.webhooks.workers.start();
      }
    });
  });

  describe("events of the protocol", function () {
    const tx: Record<string, string> = {};

    before(async function () {
      const provider = signer("providerA");
      const user = signer("user");
      const { sstb, redemptionManager: manager, spotMarket: spot } = live.d;
      await mintUnit(live, provider, parseEther("50"));
      tx.transfer = await transfer("providerA", "user", "20");
      tx.stranger = await transfer("user", "user2", "1");
      const redemption = await redeem(live.d, user, parseEther("3"), provider.address);
      tx.redeem = redemption.receipt.hash;
      const keys = generateAccessKeyPair();
      await fulfilEncrypted(
        manager,
        provider,
        redemption.redemptionId,
        sampleAccessDetails(redemption.redemptionId),
        keys.publicKey,
        42161n,
      );
      tx.confirm = (await (await manager.connect(user).confirmRedemption(redemption.redemptionId)).wait())!.hash;
      await (await sstb.connect(provider).approve(await spot.getAddress(), parseEther("10"))).wait();
      const now = BigInt((await live.rpc.getBlock("latest"))!.timestamp);
      tx.listing = (await (
        await spot.connect(provider).createListing(parseEther("10"), parseUnits("2", 6), now + 86_400n)
      ).wait())!.hash;
      // user2 buys 4 of the 10 (USDC from the test token's open mint)
      const buyer = signer("user2");
      await (await live.d.collateral.connect(buyer).mint(buyer.address, parseUnits("100", 6))).wait();
      await (await live.d.collateral.connect(buyer).approve(await spot.getAddress(), parseUnits("100", 6))).wait();
      tx.purchase = (await (await spot.connect(buyer).buy(1n, parseEther("4"), parseUnits("2", 6))).wait())!.hash;
      // a second redemption, disputed by the user and ruled on by the arbitrator
      const disputed = await redeem(live.d, user, parseEther("2"), provider.address);
      await fulfilEncrypted(
        manager,
        provider,
        disputed.redemptionId,
        sampleAccessDetails(disputed.redemptionId),
        keys.publicKey,
        42161n,
      );
      tx.dispute = (await (
        await manager
          .connect(user)
          .openDispute(disputed.redemptionId, IssueType.ResourceMismatch, keccak256(toUtf8Bytes("evidence")))
      ).wait())!.hash;
      tx.resolve = (await (
        await manager.connect(signer("arbitrator")).resolveDispute(disputed.redemptionId, true, false)
      ).wait())!.hash;
    });

    it("announces a mint (cu.verified, sstb.minted) with the documented data", async function () {
      await rAll.waitFor((r) => r.some((x) => x.event === "sstb.minted"));
      const [minted] = rAll.of("sstb.minted");
      const provider = signer("providerA").address;
      expect(minted.payload.event).to.equal("sstb.minted");
      expect(minted.payload.id).to.match(/^42161:0x[0-9a-f]{64}:\d+:sstb\.minted$/);
      expect(minted.payload.timestamp).to.be.a("number");
      expect(minted.deliveryId).to.match(UUID);
      expect(minted.payload.data).to.include({ provider_id: provider, sstb_amount: 50, owner: provider, cu_value: 50 });
      expect(minted.payload.data.transactionHash).to.match(/^0x[0-9a-f]{64}$/);
      const receipt = await live.rpc.getTransactionReceipt(minted.payload.data.transactionHash);
      expect(receipt?.to?.toLowerCase()).to.equal((await live.d.mintingAgent.getAddress()).toLowerCase());
      await rAll.waitFor((r) => r.some((x) => x.event === "cu.verified"));
      const [verified] = rAll.of("cu.verified");
      expect(verified.payload.data).to.include({ provider_id: provider, cu_value: 50 });
      expect(verified.payload.data.cu_hash).to.match(/^0x[0-9a-f]{64}$/);
      expect(verified.payload.data.metadata).to.have.keys("cpu_cores", "ram_gb", "storage_gb", "network_mbps");
    });

    it("gives a subscription that asked for the guide form ISO 8601 timestamps", async function () {
      await rIso.waitFor((r) => r.some((x) => x.event === "sstb.minted"));
      const [iso] = rIso.of("sstb.minted");
      const [unix] = rAll.of("sstb.minted");
      expect(iso.payload.id).to.equal(unix.payload.id);
      expect(iso.payload.timestamp).to.equal(new Date((unix.payload.timestamp as number) * 1000).toISOString());
      expect(iso.deliveryId).to.not.equal(unix.deliveryId);
    });

    it("announces transfers, and only its own ones to a filtered subscription", async function () {
      await rAll.waitFor((r) => ofTx(rAll, "sstb.transferred", tx.stranger).length === 1);
      const [moved] = ofTx(rAll, "sstb.transferred", tx.transfer);
      expect(moved.payload.data).to.include({
        from: signer("providerA").address,
        to: signer("user").address,
        sstb_amount: 20,
        chain: "arbitrum",
        native_chain_id: 42161,
      });
      await rOwn.waitFor((r) => ofTx(rOwn, "sstb.transferred", tx.transfer).length === 1);
      // the provider's filtered subscription: its transfer yes, the user's to user2 no, no mint (not subscribed)
      await rOwn.waitFor((r) => r.some((x) => x.event === "redemption.initiated"));
      expect(ofTx(rOwn, "sstb.transferred", tx.stranger)).to.have.length(0);
      expect(rOwn.received.map((x) => x.event)).to.not.include("sstb.minted");
      // user2's subscription is not filtered but not subscribed to transfers
      expect(rIso.of("sstb.transferred")).to.have.length(0);
    });

    it("announces a redemption's lifecycle: initiated, fulfilled, confirmed (and sstb.redeemed)", async function () {
      await rAll.waitFor((r) => r.some((x) => x.event === "redemption.confirmed"));
      const [initiated] = rAll.of("redemption.initiated");
      const user = signer("user").address;
      const provider = signer("providerA").address;
      expect(initiated.payload.data).to.include({
        redemption_id: "1",
        status: "pending",
        sstb_amount: 3,
        provider_id: provider,
        user,
        transactionHash: tx.redeem,
      });
      expect(initiated.payload.data.estimated_fulfillment_time).to.be.greaterThan(initiated.payload.data.initiated_at);
      const [redeemed] = rAll.of("sstb.redeemed");
      expect(redeemed.payload.data).to.include({ redemption_id: "1", sstb_amount: 3, user, provider_id: provider });
      expect(redeemed.payload.data.sstb_amount_base_units).to.equal(parseEther("3").toString());
      // announced from two logs of one call, one fact: redemption.initiated names sstb.redeemed's log
      expect(initiated.payload.fact_id).to.equal(redeemed.payload.fact_id);
      expect(redeemed.payload.id).to.equal(`${redeemed.payload.fact_id}:sstb.redeemed`);
      const [fulfilled] = rAll.of("redemption.fulfilled");
      expect(fulfilled.payload.data).to.include({ redemption_id: "1", status: "fulfilled" });
      expect(fulfilled.payload.data.access_details).to.be.a("string").and.not.equal("");
      const [confirmed] = rAll.of("redemption.confirmed");
      expect(confirmed.payload.data).to.include({
        redemption_id: "1",
        status: "confirmed",
        transactionHash: tx.confirm,
      });
      expect(confirmed.payload.data.completed_at).to.be.a("number");
    });

    it("e-mails the provider a new redemption with what it needs (local SMTP server)", async function () {
      // one e-mail per redemption (1 confirmed, 2 disputed)
      await eventually(async () => (smtp.mails.length >= 2 ? true : undefined), 20_000, "the provider's e-mails");
      expect(smtp.mails).to.have.length(2);
      const mail = smtp.mails.find((m) => m.subject.includes("Redemption 1:"))!;
      expect(mail.to).to.deep.equal(["ops@acme.example"]);
      expect(mail.subject).to.include("Redemption 1").and.include("3 sSTB");
      expect(mail.raw).to.include(signer("user").address).and.include("Deadline:");
      const [initiated] = rAll.of("redemption.initiated");
      const deadline = new Date(initiated.payload.data.estimated_fulfillment_time * 1000).toISOString();
      expect(mail.raw).to.include(deadline);
      const rows = await eventually(async () => {
        const r = await gw.store.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.channel, "email"));
        return r.every((x) => x.status === "delivered") ? r : undefined;
      });
      expect(rows.map((r) => r.deliveryId).sort()).to.deep.equal(smtp.mails.map((m) => m.deliveryId).sort());
      for (const row of rows) expect(row).to.include({ status: "delivered", target: "ops@acme.example" });
    });

    it("announces a market listing under both names", async function () {
      await rAll.waitFor((r) => r.some((x) => x.event === "marketplace.listing_created"));
      const [listed] = rAll.of("listing.created");
      const [again] = rAll.of("marketplace.listing_created");
      expect(listed.payload.data).to.include({
        market_type: "spot",
        token_type: "sSTB",
        seller: signer("providerA").address,
        amount: 10,
        price_per_token: 2,
        total_price: 20,
        transactionHash: tx.listing,
      });
      expect(again.payload.data).to.deep.equal(listed.payload.data);
      expect(again.payload.id).to.not.equal(listed.payload.id);
      // one fact under two names: the same fact_id, the log that records it
      expect(again.payload.fact_id).to.equal(listed.payload.fact_id);
      expect(listed.payload.id).to.equal(`${listed.payload.fact_id}:listing.created`);
    });

    it("announces a purchase and its trade", async function () {
      await rAll.waitFor((r) => r.some((x) => x.event === "marketplace.trade_executed"));
      const [purchased] = rAll.of("listing.purchased");
      const provider = signer("providerA").address;
      const buyer = signer("user2").address;
      expect(purchased.payload.data).to.include({
        listing_id: 1,
        market_type: "spot",
        seller: provider,
        buyer,
        amount: 4,
        remaining: 6,
        price_per_token: 2,
        transactionHash: tx.purchase,
      });
      const [trade] = rAll.of("marketplace.trade_executed");
      expect(trade.payload.data).to.include({
        listing_id: 1,
        trade_type: "spot_fill",
        buyer,
        seller: provider,
        amount: 4,
        price: 2,
        transactionHash: tx.purchase,
      });
      expect(trade.payload.data.payment).to.equal(8);
      expect(trade.payload.data.payment_base_units).to.equal("8000000");
      // the purchase and its trade are one fact: the trade names the purchase's log
      expect(trade.payload.fact_id).to.equal(purchased.payload.fact_id);
      expect(trade.payload.id.startsWith(`${trade.payload.fact_id}:`)).to.equal(false);
      expect(trade.payload.data.fee).to.be.a("number").and.be.at.least(0);
    });

    it("announces a dispute and its resolution", async function () {
      await rAll.waitFor((r) => r.some((x) => x.event === "redemption.resolved"));
      const [disputed] = rAll.of("redemption.disputed");
      expect(disputed.payload.data).to.include({
        redemption_id: "2",
        status: "disputed",
        issue_type: "resource_mismatch",
        evidence_hash: keccak256(toUtf8Bytes("evidence")),
        transactionHash: tx.dispute,
      });
      const [resolved] = rAll.of("redemption.resolved");
      expect(resolved.payload.data).to.include({
        redemption_id: "2",
        status: "resolved",
        user_won: true,
        transactionHash: tx.resolve,
      });
      expect(resolved.payload.data.compensation).to.be.greaterThan(0);
      // the compensation is collateral (USDC, 6 decimals), exactly as the contract paid it
      const receipt = await live.rpc.getTransactionReceipt(tx.resolve);
      const paid = receipt!.logs
        .map((l) => live.d.redemptionManager.interface.parseLog(l))
        .find((e) => e?.name === "DisputeResolved")!.args.compensation as bigint;
      expect(resolved.payload.data.compensation_base_units).to.equal(paid.toString());
      expect(resolved.payload.data.compensation).to.equal(Number(formatUnits(paid, 6)));
    });

    it("signs every body: the receiver helper refused nothing and the log shows each attempt", async function () {
      for (const r of [rAll, rIso, rOwn]) expect(r.hits.filter((h) => h.answer === "refused")).to.have.length(0);
      const log = await api(tokens.user).get(`/v1/webhooks/${subs.all.subscription_id}/deliveries?limit=100`);
      expect(log.status).to.equal(200);
      const { deliveries, total } = (log.body as any).data;
      expect(total).to.equal(deliveries.length);
      expect(deliveries.length).to.be.greaterThanOrEqual(rAll.received.length);
      const minted = deliveries.find((d: any) => d.event === "sstb.minted");
      expect(minted).to.include({ status: "delivered", attempts: 1, last_status_code: 200, last_error: null });
      expect(minted.attempt_log).to.have.length(1);
      expect(minted.attempt_log[0]).to.include({ ok: true, status_code: 200, attempt: 1 });
      expect(minted.payload).to.deep.equal(rAll.of("sstb.minted")[0].payload);
    });
  });

  describe("verifySignature (receiver helper)", function () {
    it("accepts the signature of the exact body and refuses anything else", function () {
      const body = '{"id":"1","event":"sstb.minted","timestamp":1,"data":{}}';
      const signature = signBody(body, "whsec_a");
      expect(signature).to.match(/^[0-9a-f]{64}$/);
      expect(verifySignature(body, signature, "whsec_a")).to.equal(true);
      expect(verifySignature(Buffer.from(body), signature, "whsec_a")).to.equal(true);
      expect(verifySignature(body + " ", signature, "whsec_a")).to.equal(false);
      expect(verifySignature(body, signature, "whsec_b")).to.equal(false);
      expect(verifySignature(body, signature.toUpperCase(), "whsec_a")).to.equal(false);
      expect(verifySignature(body, signature.slice(2), "whsec_a")).to.equal(false);
      expect(verifySignature(body, undefined, "whsec_a")).to.equal(false);
      expect(verifySignature(body, [signature], "whsec_a")).to.equal(false);
    });
  });

  describe("POST /webhooks/:id/rotate and the signature", function () {
    it("is refused by a receiver holding the wrong secret, retried, then delivered under the new secret", async function () {
      const rotated = await api(tokens.user).request("POST", `/api/v1/webhooks/${subs.all.subscription_id}/rotate`);
      expect(rotated.status, rotated.text).to.equal(200);
      const secret = (rotated.body as any).data.secret;
      expect(secret)
        .to.match(/^whsec_/)
        .and.not.equal(subs.all.secret);
      expect((rotated.body as any).data.rotated_at).to.be.a("number");
      // the receiver still holds the old secret: the helper answers 401 and does not accept the body
      const hash = await transfer("user", "user2", "0.5");
      await eventually(async () =>
        rAll.hits.filter((h) => h.event === "sstb.transferred" && h.answer === "refused").length >= 2
          ? true
          : undefined,
      );
      expect(ofTx(rAll, "sstb.transferred", hash)).to.have.length(0);
      const failing = await deliveryOf(subs.all.subscription_id, "sstb.transferred", hash);
      expect(failing).to.include({ status: "pending", lastStatusCode: 401 });
      rAll.secrets = [secret];
      await rAll.waitFor(() => ofTx(rAll, "sstb.transferred", hash).length === 1);
      expect(ofTx(rAll, "sstb.transferred", hash)[0].deliveryId).to.equal(failing!.deliveryId);
      subs.all.secret = secret;
    });
  });

  describe("POST /webhooks/:id/rotate with a window", function () {
    it("keeps a receiver on the old secret verifying through the window, then the new one: no failed delivery", async function () {
      const old = subs.all.secret;
      const since = rAll.hits.length;
      const window = 15;
      const rotated = await api(tokens.user).request("POST", `/api/v1/webhooks/${subs.all.subscription_id}/rotate`, {
        ...json({ previous_secret_valid_for: window }),
      });
      expect(rotated.status, rotated.text).to.equal(200);
      const next = (rotated.body as any).data.secret as string;
      const until = (rotated.body as any).data.previous_secret_expires_at as number;
      expect(next).to.not.equal(old);
      expect(until - Math.floor(Date.now() / 1000)).to.be.within(window - 5, window);

      // during the window the receiver still holds only the old secret: it verifies every delivery
      expect(rAll.secrets).to.deep.equal([old]);
      const during = await transfer("user", "user2", "0.05");
      await rAll.waitFor(() => ofTx(rAll, "sstb.transferred", during).length === 1);
      const [signedDuring] = ofTx(rAll, "sstb.transferred", during);
      expect(signedDuring.headers["webhook-signature"].split(" ")).to.have.length(2); // one per valid secret
      expect(signedDuring.headers["x-service-signature"]).to.equal(signBody(signedDuring.raw, old));

      // the receiver adds the new secret (the documented procedure), the window ends, it drops the old one
      rAll.secrets = [old, next];
      const shown = await api(tokens.user).data(`/api/v1/webhooks/${subs.all.subscription_id}`);
      expect(shown.previous_secret_expires_at).to.equal(until);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, until * 1000 - Date.now()) + 1_000));
      expect(
        (await api(tokens.user).data(`/api/v1/webhooks/${subs.all.subscription_id}`)).previous_secret_expires_at,
      ).to.equal(null);
      rAll.secrets = [next];
      const after = await transfer("user", "user2", "0.05");
      await rAll.waitFor(() => ofTx(rAll, "sstb.transferred", after).length === 1);
      const [signedAfter] = ofTx(rAll, "sstb.transferred", after);
      expect(signedAfter.headers["webhook-signature"].split(" ")).to.have.length(1);
      expect(signedAfter.headers["x-service-signature"]).to.equal(signBody(signedAfter.raw, next));

      // nothing the receiver was sent since the rotation was refused, and each went through at once
      expect(rAll.hits.slice(since).filter((h) => h.answer !== "accepted")).to.deep.equal([]);
      for (const hash of [during, after]) {
        // the receiver has the body before the worker records its answer: wait for the row to leave "pending"
        const row = await eventually(async () => {
          const r = await deliveryOf(subs.all.subscription_id, "sstb.transferred", hash);
          return r !== undefined && r.status !== "pending" ? r : undefined;
        });
        expect(row, hash).to.include({ status: "delivered", attempts: 1, lastStatusCode: 200 });
      }
      subs.all.secret = next;
    });

    it("refuses a window beyond 24 hours", async function () {
      const r = await api(tokens.user).request("POST", `/api/v1/webhooks/${subs.all.subscription_id}/rotate`, {
        ...json({ previous_secret_valid_for: 86_401 }),
      });
      expect(r.status, r.text).to.equal(400);
      expect((r.body as any).error.details.parameter).to.equal("previous_secret_valid_for");
    });
  });

  describe("freshness: a delivery replayed later", function () {
    it("is refused once older than the receiver's tolerance, and taken (as a duplicate) within it", async function () {
      const hash = await transfer("user", "user2", "0.01");
      await rAll.waitFor(() => ofTx(rAll, "sstb.transferred", hash).length === 1);
      const [delivered] = ofTx(rAll, "sstb.transferred", hash);
      const sentAt = Number(delivered.headers["webhook-timestamp"]);
      const count = rAll.received.length;
      rAll.tolerance = 5;
      try {
        // moments after it was sent: within the tolerance, the same bytes are taken again
        expect(await rAll.replay(delivered)).to.equal(200);
        replayed.add(delivered.deliveryId);
        expect(rAll.received).to.have.length(count + 1);
        expect(rAll.received[count].deliveryId).to.equal(delivered.deliveryId); // a receiver deduplicates on it
        // older than the tolerance: refused, however good its signatures
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, (sentAt + 7) * 1000 - Date.now())));
        expect(await rAll.replay(delivered)).to.equal(401);
        expect(rAll.received).to.have.length(count + 1);
      } finally {
        rAll.tolerance = 300;
      }
    });
  });

  describe("delivery faults", function () {
    it("retries a receiver that answers 500 with growing delays and the same delivery id", async function () {
      rAll.mode = "error";
      const hash = await transfer("user", "user2", "0.25");
      const row = await eventually(() => deliveryOf(subs.all.subscription_id, "sstb.transferred", hash));
      await eventually(async () =>
        rAll.hits.filter((h) => h.deliveryId === row.deliveryId).length >= 3 ? true : undefined,
      );
      rAll.mode = "ok";
      await rAll.waitFor(() => ofTx(rAll, "sstb.transferred", hash).length === 1);
      const hits = rAll.hits.filter((h) => h.deliveryId === row.deliveryId);
      expect(hits.slice(0, 3).map((h) => h.answer)).to.deep.equal([500, 500, 500]);
      expect(new Set(hits.map((h) => h.deliveryId)).size).to.equal(1);
      // jittered exponential backoff: at least half the base, then at least half of twice the base
      expect(hits[1].at - hits[0].at).to.be.at.least(BACKOFF_BASE_MS / 2 - 20);
      expect(hits[2].at - hits[1].at).to.be.at.least(BACKOFF_BASE_MS - 20);
      // the outcome is recorded once the receiver's answer is back
      const entry = await eventually(async () => {
        const log = await api(tokens.user).get(`/v1/webhooks/${subs.all.subscription_id}/deliveries?limit=100`);
        const d = (log.body as any).data.deliveries.find((x: any) => x.delivery_id === row.deliveryId);
        return d.status === "delivered" ? d : undefined;
      });
      expect(entry.attempt_log.map((a: any) => a.status_code)).to.deep.equal([
        ...hits.slice(0, -1).map(() => 500),
        200,
      ]);
      expect(entry.attempt_log.every((a: any) => Number.isInteger(a.duration_ms))).to.equal(true);
    });

    it("times out a receiver that hangs and delivers once it answers", async function () {
      rAll.mode = "hang";
      const hash = await transfer("user", "user2", "0.125");
      const row = await eventually(() => deliveryOf(subs.all.subscription_id, "sstb.transferred", hash));
      const timedOut = await eventually(async () => {
        const [r] = await gw.store.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.deliveryId, row.deliveryId));
        return r.lastError?.includes("timeout") ? r : undefined;
      });
      expect(timedOut.status).to.equal("pending");
      rAll.mode = "ok";
      await rAll.waitFor(() => ofTx(rAll, "sstb.transferred", hash).length === 1);
      expect(ofTx(rAll, "sstb.transferred", hash)[0].deliveryId).to.equal(row.deliveryId);
      const attempts = await gw.store.db
        .select()
        .from(webhookAttempts)
        .where(eq(webhookAttempts.deliveryId, row.deliveryId));
      const slow = attempts.find((a) => a.error?.includes("timeout"));
      expect(slow!.durationMs).to.be.at.least(TIMEOUT_MS - 50);
    });

    it("loses nothing while the chain RPC is unreachable for a while", async function () {
      await proxy.cut();
      const hashes = [await transfer("user", "user2", "0.01"), await transfer("user2", "user", "0.02")];
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(gw.indexers[0].status().lastError).to.not.equal(null);
      for (const hash of hashes) expect(ofTx(rAll, "sstb.transferred", hash)).to.have.length(0);
      await proxy.restore();
      await rAll.waitFor(() => hashes.every((hash) => ofTx(rAll, "sstb.transferred", hash).length === 1), 30_000);
    });

    it("keeps a delivery across a gateway restart while the receiver is down", async function () {
      await rAll.stop();
      const hash = await transfer("user", "user2", "0.03");
      const row = await eventually(async () => {
        const r = await deliveryOf(subs.all.subscription_id, "sstb.transferred", hash);
        return r !== undefined && r.attempts >= 1 ? r : undefined;
      });
      await gw.close();
      gw = await startGateway(config, startOptions);
      await gw.synced();
      await rAll.start(); // same port
      await rAll.waitFor(() => ofTx(rAll, "sstb.transferred", hash).length === 1);
      expect(ofTx(rAll, "sstb.transferred", hash)[0].deliveryId).to.equal(row.deliveryId);
    });

    it("sends again, with the same delivery id, a delivery whose worker died holding it (lease expiry)", async function () {
      await gw.webhooks.workers.stop();
      const hash = await transfer("user", "user2", "0.04");
      const row = await eventually(() => deliveryOf(subs.all.subscription_id, "sstb.transferred", hash));
      // the crashing worker claims every due run (one run per subscription), this delivery's among them
      const claimed = await gw.webhooks.workers.claim("worker-that-crashes", 100);
      expect(claimed.map((c) => c.deliveryId)).to.include(row.deliveryId);
      const leasedAt = Date.now();
      gw.webhooks.workers.start();
      await rAll.waitFor(() => ofTx(rAll, "sstb.transferred", hash).length === 1);
      const [received] = ofTx(rAll, "sstb.transferred", hash);
      expect(received.deliveryId).to.equal(row.deliveryId);
      expect(received.at - leasedAt).to.be.at.least(LEASE_MS - 100);
      // the worker records the outcome once the receiver's answer is back
      const after = await eventually(async () => {
        const [r] = await gw.store.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.deliveryId, row.deliveryId));
        return r.status === "delivered" ? r : undefined;
      });
      expect(after.attempts).to.equal(2);
    });

    it("cancels a delivery whose subscription is gone instead of letting it head the queue", async function () {
      await gw.webhooks.workers.stop();
      let hash = "";
      try {
        // an event published as its subscription was removed: a pending delivery with no subscription
        const orphan = randomUUID();
        const now = Date.now();
        await gw.store.db.insert(webhookDeliveries).values({
          deliveryId: orphan,
          channel: "webhook",
          subscriptionId: randomUUID(),
          target: "removed",
          eventId: `orphan:${orphan}`,
          event: "verification.completed",
          body: "{}",
          status: "pending",
          attempts: 0,
          nextAttemptAt: 0,
          giveUpAt: now + 60_000,
          createdAt: 0,
        });
        hash = await transfer("user", "user2", "0.05");
        const row = await eventually(() => deliveryOf(subs.all.subscription_id, "sstb.transferred", hash));
        // one run per claim: the orphan, the most overdue, is cancelled, and the next claim takes real work
        const first = await gw.webhooks.workers.claim("one-run-at-a-time", 1);
        expect(first.map((c) => c.deliveryId)).to.not.include(orphan);
        const [cancelled] = await gw.store.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.deliveryId, orphan));
        expect(cancelled).to.deep.include({ status: "cancelled", lastError: "subscription deleted", attempts: 0 });
        const claimed = [...first];
        for (let i = 0; i < 10 && !claimed.some((c) => c.deliveryId === row.deliveryId); i++) {
          claimed.push(...(await gw.webhooks.workers.claim("one-run-at-a-time", 1)));
        }
        expect(claimed.map((c) => c.deliveryId)).to.include(row.deliveryId);
      } finally {
        gw.webhooks.workers.start();
      }
      // what was claimed and not sent goes out once the leases run out
      await rAll.waitFor(() => ofTx(rAll, "sstb.transferred", hash).length === 1, 30_000);
    });

    it("lets concurrent worker pools (as two gateways) drain a backlog with each delivery sent once, in order per subscription", async function () {
      // four subscriptions, more than one pool holds at once (one worker sending one run): both take part
      const SUBSCRIPTIONS = 4;
      const PER_SUBSCRIPTION = 20;
      const sink = await new TestReceiver().start();
      const account = signer("user2").address;
      const subscriptions = [];
      for (let i = 0; i < SUBSCRIPTIONS; i++) {
        subscriptions.push(
          await gw.webhooks.subscriptions.create(account, { url: sink.url, events: ["verification.completed"] }),
        );
      }
      sink.secrets = subscriptions.map((sub) => sub.secret);
      await gw.webhooks.workers.stop();
      await gw.store.db.transaction(async (tx) => {
        for (let i = 0; i < PER_SUBSCRIPTION; i++) {
          await gw.webhooks.outbox.publish(tx, {
            id: `verification:concurrency:${i}`,
            event: "verification.completed",
            timestamp: Math.floor(Date.now() / 1000),
            data: { verification_id: String(i) },
            accounts: [account],
          });
        }
      });
      const BACKLOG = SUBSCRIPTIONS * PER_SUBSCRIPTION;
      const pool = () =>
        new DeliveryWorkers(
          gw.store.db,
          webhookSettings("devnet", { pollMs: 20, concurrency: 1 }),
          undefined,
          silentLog,
          // as another gateway on the database: with the master key the secrets were sealed under
          new WebhookSecrets(new Sealer(TEST_ACCOUNT_KEY)),
        );
      const [one, two] = [pool(), pool()];
      try {
        one.start(1);
        two.start(1);
        await sink.waitFor((r) => r.length >= BACKLOG, 90_000, "the backlog");
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(sink.received).to.have.length(BACKLOG);
        expect(new Set(sink.received.map((x) => x.deliveryId)).size).to.equal(BACKLOG);
        // each subscription received its events in the order they were published
        const owners = new Map(
          (
            await gw.store.db
              .select({ id: webhookDeliveries.deliveryId, subscription: webhookDeliveries.subscriptionId })
              .from(webhookDeliveries)
              .where(
                inArray(
                  webhookDeliveries.subscriptionId,
                  subscriptions.map((sub) => sub.subscription_id),
                ),
              )
          ).map((row) => [row.id, row.subscription]),
        );
        for (const sub of subscriptions) {
          const order = sink.received
            .filter((x) => owners.get(x.deliveryId) === sub.subscription_id)
            .map((x) => Number(x.payload.data.verification_id));
          expect(order, sub.subscription_id).to.deep.equal([...Array(PER_SUBSCRIPTION).keys()]);
        }
        const workers = await gw.store.db
          .selectDistinct({ worker: webhookAttempts.worker })
          .from(webhookAttempts)
          .innerJoin(webhookDeliveries, eq(webhookDeliveries.deliveryId, webhookAttempts.deliveryId))
          .where(
            inArray(
              webhookDeliveries.subscriptionId,
              subscriptions.map((sub) => sub.subscription_id),
            ),
          );
        const pools = new Set(workers.map((w) => w.worker!.replace(/-\d+$/, "")));
        expect(pools.size, "both pools delivered").to.equal(2);
      } finally {
        await one.stop();
        await two.stop();
        gw.webhooks.workers.start();
        for (const sub of subscriptions) await gw.webhooks.subscriptions.remove(account, sub.subscription_id);
        await sink.stop();
      }
    });

    it("writes outbox rows in the event's transaction: a failed batch leaves neither", async function () {
      failOn = (name) => name === "RedemptionTerms";
      const { receipt } = await redeem(live.d, signer("user"), parseEther("1"), signer("providerA").address);
      await new Promise((resolve) => setTimeout(resolve, 800));
      // the batch failed after RedemptionInitiated was applied and announced: nothing of it is stored
      const stored = await gw.store.db
        .select({ n: sql<number>`count(*)::int` })
        .from(events)
        .where(eq(events.txHash, receipt.hash));
      expect(stored[0].n).to.equal(0);
      const queued = await gw.store.db
        .select()
        .from(webhookDeliveries)
        .where(sql`${webhookDeliveries.body} like ${`%${receipt.hash}%`}`);
      expect(queued).to.have.length(0);
      failOn = undefined;
      await rAll.waitFor(() => ofTx(rAll, "redemption.initiated", receipt.hash).length === 1);
      await rAll.waitFor(() => ofTx(rAll, "sstb.redeemed", receipt.hash).length === 1);
      const rows = (await rowsOf(subs.all.subscription_id)).filter((r) => r.body.includes(receipt.hash));
      // the fee moves from the user to the treasury in the same call: a transfer
      expect(rows.map((r) => r.event).sort()).to.deep.equal([
        "redemption.initiated",
        "sstb.redeemed",
        "sstb.transferred",
      ]);
    });

    it("cancels the undelivered webhooks of events a reorg removed", async function () {
      await gw.webhooks.workers.stop();
      const snapshot = await live.rpc.send("evm_snapshot", []);
      const hash = await transfer("user", "user2", "0.05");
      const row = await eventually(() => deliveryOf(subs.all.subscription_id, "sstb.transferred", hash));
      expect(row.status).to.equal("pending");
      await live.rpc.send("evm_revert", [snapshot]);
      for (let i = 0; i < 3; i++) await live.rpc.send("evm_mine", []);
      const cancelled = await eventually(async () => {
        const [r] = await gw.store.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.deliveryId, row.deliveryId));
        return r.status === "cancelled" ? r : undefined;
      });
      expect(cancelled.status).to.equal("cancelled");
      gw.webhooks.workers.start();
      const after = await transfer("user", "user2", "0.06");
      await rAll.waitFor(() => ofTx(rAll, "sstb.transferred", after).length === 1);
      expect(rAll.hits.filter((h) => h.deliveryId === row.deliveryId)).to.have.length(0);
      const redeliver = await api(tokens.user).request(
        "POST",
        `/v1/webhooks/${subs.all.subscription_id}/deliveries/${row.deliveryId}/redeliver`,
      );
      expect(redeliver.status).to.equal(400);
      expect((redeliver.body as any).error.message).to.include("reorganization");
    });
  });

  describe("POST /webhooks/:id/deliveries/:delivery_id/redeliver", function () {
    it("gives up after the retry window (failed) and sends a failed delivery again on request", async function () {
      const sink = await new TestReceiver().start();
      sink.mode = "error";
      const account = signer("user2").address;
      const sub = await gw.webhooks.subscriptions.create(account, {
        url: sink.url,
        events: ["verification.completed"],
      });
      sink.secrets = [sub.secret];
      try {
        // queued with a 1 s retry window (the gateway's is 2 minutes in this test, 24 hours by default)
        await gw.store.db.transaction((tx) =>
          new Outbox({ retryWindowMs: 1_000, email: false }).publish(tx, {
            id: "verification:gives-up",
            event: "verification.completed",
            timestamp: Math.floor(Date.now() / 1000),
            data: { verification_id: "0x02" },
            accounts: [account],
          }),
        );
        const failed = await eventually(async () => {
          const [r] = await rowsOf(sub.subscription_id);
          return r?.status === "failed" ? r : undefined;
        });
        expect(failed.attempts).to.be.at.least(2);
        expect(Date.now()).to.be.at.least(failed.giveUpAt);
        const attempts = sink.hits.length;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(sink.hits.length, "no attempt after giving up").to.equal(attempts);

        sink.mode = "ok";
        const r = await api(tokens.user2).request(
          "POST",
          `/api/v1/webhooks/${sub.subscription_id}/deliveries/${failed.deliveryId}/redeliver`,
        );
        expect(r.status, r.text).to.equal(200);
        expect((r.body as any).data).to.include({ status: "pending", last_status_code: 500 });
        await sink.waitFor((x) => x.length === 1);
        expect(sink.received[0].deliveryId).to.equal(failed.deliveryId);
      } finally {
        await gw.webhooks.subscriptions.remove(account, sub.subscription_id);
        await sink.stop();
      }
    });

    it("sends a delivered webhook again with the same delivery id and body", async function () {
      const [first] = rAll.of("sstb.minted");
      const path = `/v1/webhooks/${subs.all.subscription_id}/deliveries/${first.deliveryId}/redeliver`;
      const stranger = await api(tokens.user2).request("POST", path);
      expect(stranger.status).to.equal(404);
      const unknown = await api(tokens.user).request(
        "POST",
        `/v1/webhooks/${subs.all.subscription_id}/deliveries/${crypto.randomUUID()}/redeliver`,
      );
      expect(unknown.status).to.equal(404);
      const r = await api(tokens.user).request("POST", path);
      expect(r.status, r.text).to.equal(200);
      expect((r.body as any).data).to.include({ delivery_id: first.deliveryId, status: "pending" });
      await rAll.waitFor(() => rAll.received.filter((x) => x.deliveryId === first.deliveryId).length === 2);
      const again = rAll.received.filter((x) => x.deliveryId === first.deliveryId)[1];
      expect(again.raw).to.equal(first.raw);
    });
  });

  describe("POST /webhooks/:id/test", function () {
    it("sends a signed webhook.test event through the normal delivery path: logged, redeliverable, 404 to others", async function () {
      const sink = await new TestReceiver().start();
      const user = api(tokens.user);
      const created = await user.request("POST", "/api/v1/webhooks", json({ url: sink.url, events: ["sstb.minted"] }));
      expect(created.status, created.text).to.equal(201);
      const sub = (created.body as any).data as { subscription_id: string; secret: string };
      sink.secrets = [sub.secret];
      try {
        const path = `/api/v1/webhooks/${sub.subscription_id}/test`;
        // another account's subscription does not exist for it; a read-only key may not send
        expect((await api(tokens.user2).request("POST", path)).status).to.equal(404);
        expect((await api(tokens.user2).request("POST", `/v1/webhooks/${sub.subscription_id}/test`)).status).to.equal(
          404,
        );
        expect((await api(tokens.readOnly).request("POST", path)).status).to.equal(403);
        expect(sink.hits).to.have.length(0);

        const queued = await user.request("POST", path);
        expect(queued.status, queued.text).to.equal(202);
        const delivery = (queued.body as any).data;
        expect(delivery).to.include({ event: "webhook.test", status: "pending", attempts: 0 });
        expect(delivery.delivery_id).to.match(UUID);
        expect(delivery.event_id).to.match(/^test:[0-9a-f-]{36}$/);
        expect(delivery.payload).to.deep.include({ id: delivery.event_id, event: "webhook.test" });
        expect(delivery.payload.data).to.deep.include({ subscription_id: sub.subscription_id, url: sink.url });

        // signed with the subscription's secret (the receiver helper checks it), with the delivery id and event headers
        await sink.waitFor((x) => x.length === 1);
        expect(sink.received[0]).to.deep.include({ deliveryId: delivery.delivery_id, event: "webhook.test" });
        expect(sink.received[0].raw).to.equal(JSON.stringify(delivery.payload));
        expect(verifySignature(sink.received[0].raw, signBody(sink.received[0].raw, sub.secret), sub.secret)).to.equal(
          true,
        );
        const log = await eventually(async () => {
          const r = await user.request("GET", `/api/v1/webhooks/${sub.subscription_id}/deliveries`);
          const [d] = (r.body as any).data.deliveries;
          return d?.status === "delivered" ? (r.body as any).data : undefined;
        });
        expect(log.total).to.equal(1);
        expect(log.deliveries[0]).to.include({ delivery_id: delivery.delivery_id, event: "webhook.test", attempts: 1 });
        expect(log.deliveries[0].attempt_log[0]).to.include({ status_code: 200, ok: true });

        // redelivered like any delivery: the same id and bytes again
        const again = await user.request(
          "POST",
          `/v1/webhooks/${sub.subscription_id}/deliveries/${delivery.delivery_id}/redeliver`,
        );
        expect(again.status, again.text).to.equal(200);
        await sink.waitFor((x) => x.length === 2);
        expect(sink.received[1]).to.deep.include({ deliveryId: delivery.delivery_id, raw: sink.received[0].raw });

        // each test is a new event; the short prefix answers the same way
        const second = await user.request("POST", `/v1/webhooks/${sub.subscription_id}/test`);
        expect(second.status).to.equal(202);
        expect((second.body as any).data.event_id).to.not.equal(delivery.event_id);
        await sink.waitFor((x) => x.length === 3);
      } finally {
        await user.request("DELETE", `/api/v1/webhooks/${sub.subscription_id}`);
        await sink.stop();
      }
    });
  });

  describe("an idle worker", function () {
    it("polls with one probe of the due deliveries and opens no transaction while none is due", async function () {
      // a database of its own, with nothing queued (PGlite: the shared one holds other tests' rows)
      const dir = mkdtempSync(path.join(tmpdir(), "idle-worker-"));
      const store = await openStore({ dataDir: dir });
      let probes = 0;
      let transactions = 0;
      const counted = Object.assign(Object.create(store.db) as Db, {
        select: (...args: Parameters<Db["select"]>) => {
          probes++;
          return store.db.select(...args);
        },
        transaction: (...args: Parameters<Db["transaction"]>) => {
          transactions++;
          return store.db.transaction(...args);
        },
      });
      const idle = new DeliveryWorkers(counted, webhookSettings("devnet", { pollMs: 20 }), undefined, silentLog);
      try {
        idle.start(1);
        await eventually(async () => (probes >= 5 ? true : undefined));
        expect(transactions).to.equal(0);
        // the probe's answer when a row is due: the claim's transaction runs (and finds the row)
        const now = Date.now();
        await store.db.insert(webhookDeliveries).values({
          deliveryId: randomUUID(),
          eventId: "idle:probe",
          event: "verification.completed",
          channel: "email",
          target: "ops@example.org",
          body: "{}",
          status: "pending",
          attempts: 0,
          nextAttemptAt: now,
          giveUpAt: now + 60_000,
          createdAt: now,
        });
        await eventually(async () => (transactions > 0 ? true : undefined));
      } finally {
        await idle.stop();
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe("delivery guarantees over the whole run", function () {
    it("delivered every event once per subscription (duplicates only as documented), all signed", async function () {
      // the redelivery's outcome may still be on its way to the database
      const rows = await eventually(async () => {
        const r = await rowsOf(subs.all.subscription_id);
        return r.some((x) => x.leaseOwner !== null) ? undefined : r;
      });
      const pending = rows.filter((r) => r.status === "pending" || r.status === "failed");
      expect(pending, JSON.stringify(pending.map((r) => [r.event, r.status, r.lastError]))).to.have.length(0);
      const delivered = rows.filter((r) => r.status === "delivered");
      const byDelivery = new Map<string, Received[]>();
      for (const x of rAll.received) byDelivery.set(x.deliveryId, [...(byDelivery.get(x.deliveryId) ?? []), x]);
      for (const row of delivered) {
        const got = byDelivery.get(row.deliveryId) ?? [];
        // the one manual redelivery and the freshness test's own replay are the only repeats
        expect(got.length, row.event).to.equal(row.event === "sstb.minted" || replayed.has(row.deliveryId) ? 2 : 1);
      }
      const ids = rAll.received.map((x) => x.payload.id);
      const distinctIds = new Set(ids);
      expect(distinctIds.size).to.equal(delivered.length);
      for (const id of distinctIds) {
        expect(new Set(rAll.received.filter((x) => x.payload.id === id).map((x) => x.deliveryId)).size).to.equal(1);
      }
    });
  });

  describe("the webhooks command", function () {
    // PGlite only: on PostgreSQL the command opens the shared database itself
    const pglite = process.env.DATABASE_URL ? [] : ["PGlite"];
    for (const _ of pglite)
      it("works from another process through the running gateway that holds the PGlite folder", async function () {
        const run = promisify(execFile);
        const { stdout } = await run(
          "npx",
          [
            "tsx",
            "gateway/cli.ts",
            "webhooks",
            "list",
            "--account",
            signer("user").address,
            "--data-dir",
            config.dataDir,
          ],
          { env: { ...process.env, GATEWAY_JWT_SECRET: config.jwtSecret } },
        );
        const listed = JSON.parse(stdout) as { webhooks: Array<{ subscription_id: string }> };
        expect(listed.webhooks.map((w) => w.subscription_id)).to.include(subs.all.subscription_id);
      });

    it("creates, lists, rotates, reads the log of and deletes subscriptions like the routes", async function () {
      await gw.close();
      const user = signer("user").address;
      const listed = (await webhooksCommand(config, "list", { account: user, ids: [] })) as any;
      expect(listed.webhooks.map((w: any) => w.subscription_id)).to.deep.equal([subs.all.subscription_id]);
      const created = (await webhooksCommand(config, "create", {
        account: user,
        url: rIso.url,
        events: "redemption.initiated,redemption.confirmed",
        timestampFormat: "iso8601",
        ids: [],
      })) as any;
      expect(created.secret).to.match(/^whsec_/);
      expect(created.events).to.deep.equal(["redemption.initiated", "redemption.confirmed"]);
      const rotated = (await webhooksCommand(config, "rotate", {
        account: user,
        ids: [created.subscription_id],
      })) as any;
      expect(rotated.secret).to.not.equal(created.secret);
      const log = (await webhooksCommand(config, "deliveries", {
        account: user,
        ids: [subs.all.subscription_id],
        status: "cancelled",
      })) as any;
      expect(log.deliveries).to.have.length(1);
      let refused: Error | undefined;
      await webhooksCommand(config, "delete", {
        account: signer("user2").address,
        ids: [created.subscription_id],
      }).catch((e) => (refused = e));
      expect(refused?.message).to.include("not found");
      await webhooksCommand(config, "create", {
        account: user,
        url: "http://10.0.0.1/x",
        events: "sstb.minted",
        ids: [],
      }).catch((e) => (refused = e));
      expect(refused?.message).to.include("invalid url");
      const deleted = (await webhooksCommand(config, "delete", {
        account: user,
        ids: [created.subscription_id],
      })) as any;
      expect(deleted).to.deep.equal({ subscription_id: created.subscription_id, deleted: true });
      const [{ n }] = await (async () => {
        const { openStore } = await import("../../../gateway/store/db.js");
        const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
        try {
          return await store.db
            .select({ n: sql<number>`count(*)::int` })
            .from(webhookSubscriptions)
            .where(and(eq(webhookSubscriptions.subscriptionId, created.subscription_id)));
        } finally {
          await store.close();
        }
      })();
      expect(n).to.equal(0);
      gw = await startGateway(config, { listen: false, index: false, deliver: false });
    });
  });
});
