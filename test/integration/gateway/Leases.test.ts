import path from "node:path";

import { expect } from "chai";
import { and, eq } from "drizzle-orm";
import { parseEther } from "ethers";
import type { JsonRpcSigner } from "ethers";

import {
  acceptRenewalSync,
  approveRedemptionSync,
  fulfilRedemptionWithLeaseSync,
  generateAccessKeyPair,
  initiateRedemptionSync,
  offerRenewalSync,
  registerAccessKeySync,
  terminateLeaseSync,
  withdrawRenewalOfferSync,
} from "@compute-capacity/sdk";
import type { AccessDetails, ProtocolClient } from "@compute-capacity/sdk";
import { startGateway } from "../../../gateway/server.js";
import type { Gateway } from "../../../gateway/server.js";
import type { GatewayConfig } from "../../../gateway/config.js";
import { PROJECTION_VERSION } from "../../../gateway/indexer/indexer.js";
import { accessPublicKeys, cursors, leaseNotices, leases, webhookDeliveries } from "../../../gateway/store/schema.js";
import { WEBHOOK_EVENTS } from "../../../gateway/webhooks/events.js";
import { webhookSettingsFromEnv } from "../../../gateway/webhooks/settings.js";
import { sampleAccessDetails, sampleProfile } from "../../../devnet/samples.js";
import {
  ROLE,
  mintUnit,
  registerProvider,
  resetDatabase,
  sharedLiveDeployment,
  testConfig,
  protocolClientOf,
} from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";
import { SmtpCatcher, TestReceiver, eventually } from "../../../testing/local-servers.js";
import type { Received } from "../../../testing/local-servers.js";
import { HttpClient } from "../../helpers/http.js";

const DAY = 86_400;
const HOUR = 3_600;
/** The lead of `redemption.lease_expiring` in these tests (the default is 24 h). */
const LEAD = HOUR;
const PRICE = parseEther("2");
const EXTENSION = 10n * BigInt(DAY);
const database = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";

/** Access details without `expiration`: the lease end fills it in. */
function detailsOf(id: bigint): Omit<AccessDetails, "expiration"> {
  const { expiration: _expiration, ...rest } = sampleAccessDetails(id);
  return rest;
}

describe(`Leases and access keys in the gateway on ${database} (real hardhat node, real receivers)`, function () {
  this.timeout(600_000);
  let live: LiveDeployment;
  let smtp: SmtpCatcher;
  let config: GatewayConfig;
  let gw: Gateway;
  let http: HttpClient;
  const rUser = new TestReceiver();
  const rProvider = new TestReceiver();
  const client: Record<string, ProtocolClient> = {};
  const signer = (role: keyof typeof ROLE): JsonRpcSigner => live.signers[ROLE[role]];
  const userKeys = generateAccessKeyPair();
  /** Redemption ids by name, as the scenario creates them. */
  const ids: Record<string, bigint> = {};
  let leaseEnd = 0n;

  const chainNow = async () => BigInt((await live.rpc.getBlock("latest"))!.timestamp);
  /** Moves the chain's clock on and mines a block at the new time (what the gateway's clock follows). */
  const jump = async (seconds: number) => {
    await live.rpc.send("evm_increaseTime", [seconds]);
    await live.rpc.send("evm_mine", []);
  };
  /** A redemption of `amount` sSTB by `role` with provider A; returns its id. */
  const redeemAs = async (role: "user" | "user2", amount: string, accessPublicKey?: string) => {
    await approveRedemptionSync(client[role], { amount: parseEther(amount) });
    const { redemptionId } = await initiateRedemptionSync(client[role], {
      amount: parseEther(amount),
      provider: signer("providerA").address,
      ...(accessPublicKey === undefined ? {} : { accessPublicKey }),
    });
    return redemptionId;
  };
  /** A redemption by the keeper (an account with no access key on-chain); returns its id. */
  const redeemAsKeeper = async () => {
    await approveRedemptionSync(client.keeper, { amount: parseEther("1") });
    const { redemptionId } = await initiateRedemptionSync(client.keeper, {
      amount: parseEther("1"),
      provider: signer("providerA").address,
    });
    return redemptionId;
  };
  const fulfilWithLease = async (redemptionId: bigint, end: bigint) =>
    fulfilRedemptionWithLeaseSync(client.providerA, { redemptionId, details: detailsOf(redemptionId), leaseEnd: end });
  const synced = async (gateway = gw) => {
    await gateway.synced();
  };
  const about = (r: TestReceiver, event: string, redemptionId: bigint): Received[] =>
    r.of(event).filter((x) => x.payload.data.redemption_id === String(redemptionId));

  before(async function () {
    live = await sharedLiveDeployment("leases", { satellite: false });
    smtp = await new SmtpCatcher().start();
    for (const r of [rUser, rProvider]) await r.start();
    await registerProvider(live, signer("providerA"), sampleProfile("Acme Compute"), 0);
    await mintUnit(live, signer("providerA"), parseEther("100"));
    for (const role of ["user", "user2"] as const) {
      await (await live.d.sstb.connect(signer("providerA")).transfer(signer(role).address, parseEther("30"))).wait();
    }
    for (const role of ["user", "user2", "providerA", "keeper"] as const)
      client[role] = await protocolClientOf(live, role);
    config = testConfig(live, {
      webhooks: {
        pollMs: 50,
        backoffBaseMs: 300,
        leaseExpiringLeadSeconds: LEAD,
        leaseNoticeIntervalMs: 100,
        smtpUrl: smtp.url,
        smtpFrom: "gateway@devnet.example",
      },
    });
    await resetDatabase();
    gw = await startGateway(config, { log: (line) => console.error(`    [gateway] ${line}`) });
    await synced();
    const key = (role: keyof typeof ROLE) =>
      gw.keys.create({ tier: "premium", account: signer(role).address, scopes: ["read", "write"] });
    http = new HttpClient(gw.url, (await key("keeper")).token);
    for (const [r, role] of [
      [rUser, "user"],
      [rProvider, "providerA"],
    ] as const) {
      const sub = await gw.webhooks.subscriptions.create(signer(role).address, {
        url: r.url,
        events: [...WEBHOOK_EVENTS],
        own_events_only: true,
      });
      r.secrets = [sub.secret];
    }
  });

  after(async function () {
    await gw?.close();
    for (const r of [rUser, rProvider]) await r.stop();
    await smtp?.stop();
    await live?.stop();
  });

  describe("access keys", function () {
    it("shows the user's registered key on its redemptions, and null for a user without one", async function () {
      ids.keyless = await redeemAs("user2", "1");
      ids.first = await redeemAs("user", "3", userKeys.publicKey); // registers the key in the same transaction
      await synced();
      const first = await http.data(`/v1/redemptions/${ids.first}`);
      expect(first.access_public_key).to.equal(userKeys.publicKey);
      expect(first.lease).to.equal(null);
      const keyless = await http.data(`/api/v1/redemptions/${ids.keyless}`);
      expect(keyless.access_public_key).to.equal(null);

      // a replaced key shows at once on every redemption of the user (the key a provider must use now)
      const replacement = generateAccessKeyPair();
      await registerAccessKeySync(client.user2, { publicKey: replacement.publicKey });
      await synced();
      expect((await http.data(`/v1/redemptions/${ids.keyless}`)).access_public_key).to.equal(replacement.publicKey);
    });

    it("announces redemption.initiated to the provider with the user's access_public_key (null without one)", async function () {
      await rProvider.waitFor((r) => about(rProvider, "redemption.initiated", ids.first).length === 1);
      const [withKey] = about(rProvider, "redemption.initiated", ids.first);
      expect(withKey.payload.data.access_public_key).to.equal(userKeys.publicKey);
      expect(withKey.payload.data.lease).to.equal(null);
      // user2 registered no key before redeeming: the provider sees that it must wait
      await rProvider.waitFor((r) => about(rProvider, "redemption.initiated", ids.keyless).length === 1);
      expect(about(rProvider, "redemption.initiated", ids.keyless)[0].payload.data.access_public_key).to.equal(null);
      // the e-mail alert tells the provider which key (or that there is none yet)
      const mail = await eventually(
        async () => smtp.mails.find((m) => m.subject.startsWith(`Redemption ${ids.first}:`)),
        20_000,
        "the provider's e-mail",
      );
      // the body is quoted-printable: a line longer than 76 characters is cut by soft breaks (`=` at the end)
      expect(mail.raw.replace(/=\r?\n/g, "")).to.include(`User's access key: ${userKeys.publicKey}`);
    });
  });

  describe("a lease: fulfilled with an end, offered, renewed, terminated", function () {
    it("carries the stated end from the fulfilment on (API and redemption.fulfilled)", async function () {
      leaseEnd = (await chainNow()) + 30n * BigInt(DAY);
      await fulfilWithLease(ids.first, leaseEnd);
      await synced();
      const r = await http.data(`/v1/redemptions/${ids.first}`);
      expect(r.status).to.equal("fulfilled");
      expect(r.lease).to.deep.equal({
        lease_id: String(ids.first),
        status: "active",
        expires_at: Number(leaseEnd),
        terminated_at: null,
        renewal_offer: null,
        renewals: [],
      });
      await rUser.waitFor((x) => about(rUser, "redemption.fulfilled", ids.first).length === 1);
      const [fulfilled] = about(rUser, "redemption.fulfilled", ids.first);
      // LeaseStarted follows RedemptionFulfilled in the same transaction: the webhook already has the end
      expect(fulfilled.payload.data.lease.expires_at).to.equal(Number(leaseEnd));
      expect(fulfilled.payload.data.access_details).to.match(/^stbad1\./);
    });

    it("shows a standing renewal offer (redemption.renewal_offered) and its withdrawal", async function () {
      const validUntil = leaseEnd - BigInt(DAY);
      await offerRenewalSync(client.providerA, {
        leaseId: ids.first,
        price: parseEther("5"),
        extension: EXTENSION,
        validUntil,
      });
      await synced();
      expect((await http.data(`/v1/redemptions/${ids.first}`)).lease.renewal_offer).to.deep.equal({
        price: 5,
        price_base_units: parseEther("5").toString(),
        extension: Number(EXTENSION),
        valid_until: Number(validUntil),
      });
      await withdrawRenewalOfferSync(client.providerA, { leaseId: ids.first });
      await synced();
      expect((await http.data(`/v1/redemptions/${ids.first}`)).lease.renewal_offer).to.equal(null);
      await offerRenewalSync(client.providerA, { leaseId: ids.first, price: PRICE, extension: EXTENSION, validUntil });
      await synced();
      await rUser.waitFor(() => about(rUser, "redemption.renewal_offered", ids.first).length === 2);
      const offers = about(rUser, "redemption.renewal_offered", ids.first).map(
        (x) => x.payload.data.lease.renewal_offer,
      );
      expect(offers).to.deep.equal([
        {
          price: 5,
          price_base_units: parseEther("5").toString(),
          extension: Number(EXTENSION),
          valid_until: Number(validUntil),
        },
        { price: 2, price_base_units: PRICE.toString(), extension: Number(EXTENSION), valid_until: Number(validUntil) },
      ]);
    });

    it("records an accepted renewal as a redemption of its own, moves the end (redemption.renewed)", async function () {
      await approveRedemptionSync(client.user, { amount: PRICE });
      const renewal = await acceptRenewalSync(client.user, { leaseId: ids.first, price: PRICE, extension: EXTENSION });
      ids.renewal = renewal.renewalId;
      leaseEnd += EXTENSION;
      await synced();
      const block = await live.rpc.getBlock(renewal.receipt.blockNumber);
      const lease = (await http.data(`/v1/redemptions/${ids.first}`)).lease;
      expect(lease).to.deep.include({ expires_at: Number(leaseEnd), renewal_offer: null, status: "active" });
      expect(lease.renewals).to.deep.equal([
        {
          redemption_id: String(ids.renewal),
          sstb_amount: 2,
          sstb_amount_base_units: PRICE.toString(),
          renewed_at: block!.timestamp,
          expires_at: Number(leaseEnd),
        },
      ]);
      const r = await http.data(`/v1/redemptions/${ids.renewal}`);
      expect(r).to.deep.include({
        status: "fulfilled",
        sstb_amount: 2,
        provider_id: signer("providerA").address,
        user: signer("user").address,
        fulfilled_at: block!.timestamp,
        estimated_fulfillment_time: block!.timestamp,
        access_public_key: userKeys.publicKey,
      });
      expect(r.lease).to.deep.equal(lease); // a renewal shows the lease it renewed

      for (const receiver of [rUser, rProvider]) {
        await receiver.waitFor(() => about(receiver, "redemption.renewed", ids.first).length === 1);
        const [renewed] = about(receiver, "redemption.renewed", ids.first);
        expect(renewed.payload.data.renewal).to.deep.equal({
          redemption_id: String(ids.renewal),
          fee: 0.002,
          fee_base_units: parseEther("0.002").toString(),
          expires_at: Number(leaseEnd),
        });
        expect(renewed.payload.data.lease.expires_at).to.equal(Number(leaseEnd));
      }
      // a renewal is born fulfilled: no redemption.initiated for it (the provider committed by offering)
      expect(about(rProvider, "redemption.initiated", ids.renewal)).to.deep.equal([]);
    });

    it("marks a termination, tells both parties (redemption.terminated) and e-mails the provider to reclaim", async function () {
      const { receipt } = await terminateLeaseSync(client.user, { leaseId: ids.first });
      const at = (await live.rpc.getBlock(receipt.blockNumber))!.timestamp;
      await synced();
      const r = await http.data(`/v1/redemptions/${ids.first}`);
      expect(r.status).to.equal("fulfilled"); // the redemption keeps its state (confirm or dispute)
      expect(r.lease).to.deep.include({ status: "terminated", terminated_at: at, expires_at: Number(leaseEnd) });
      for (const receiver of [rUser, rProvider]) {
        await receiver.waitFor(() => about(receiver, "redemption.terminated", ids.first).length === 1);
        expect(about(receiver, "redemption.terminated", ids.first)[0].payload.data.lease.terminated_at).to.equal(at);
      }
      const mail = await eventually(
        async () => smtp.mails.find((m) => m.subject === `Lease ${ids.first} terminated: reclaim the resources`),
        20_000,
        "the termination e-mail",
      );
      expect(mail.to).to.deep.equal(["ops@acme.example"]);
      expect(mail.raw).to.include(signer("user").address).and.include("Terminated at:");
    });
  });

  describe("GET /redemptions (the account's list)", function () {
    const idsOf = (list: Record<string, any>) =>
      (list.redemptions as Array<{ redemption_id: string }>).map((r) => r.redemption_id);

    it("filters the provider's and the user's redemptions by status and lease status, under both prefixes", async function () {
      const asProvider = new HttpClient(
        gw.url,
        (await gw.keys.create({ tier: "premium", account: signer("providerA").address, scopes: ["read"] })).token,
      );
      const asUser = new HttpClient(
        gw.url,
        (await gw.keys.create({ tier: "premium", account: signer("user").address, scopes: ["read"] })).token,
      );
      for (const prefix of ["/api/v1", "/v1"]) {
        const all = await asProvider.data(`${prefix}/redemptions?role=provider&limit=2`);
        expect(all.total).to.equal(3);
        expect(idsOf(all)).to.deep.equal([String(ids.renewal), String(ids.first)]);
        const page2 = await asProvider.data(`${prefix}/redemptions?role=provider&limit=2&page=2`);
        expect(idsOf(page2)).to.deep.equal([String(ids.keyless)]);
      }
      const pending = await asProvider.data(`/v1/redemptions?role=provider&status=pending`);
      expect(idsOf(pending)).to.deep.equal([String(ids.keyless)]);
      const none = await asProvider.data(`/v1/redemptions?role=provider&lease_status=none`);
      expect(idsOf(none)).to.deep.equal([String(ids.keyless)]);
      expect((await asProvider.data(`/v1/redemptions?role=provider&lease_status=active`)).total).to.equal(0);

      const terminated = await asUser.data(`/v1/redemptions?lease_status=terminated`);
      expect(idsOf(terminated)).to.deep.equal([String(ids.renewal), String(ids.first)]);
      const first = terminated.redemptions[1];
      expect(first.lease).to.deep.include({ lease_id: String(ids.first), status: "terminated" });
      expect(first.access_public_key).to.equal(userKeys.publicKey);
      expect(first.user_access_key).to.equal(userKeys.publicKey);
      // another account (the keeper's key) sees none of them
      expect((await http.data(`/v1/redemptions?lease_status=terminated`)).total).to.equal(0);

      const bad = await asUser.get(`/v1/redemptions?lease_status=gone`);
      expect(bad.status).to.equal(400);
      expect((bad.body as any).error.details.parameter).to.equal("lease_status");
    });

    it("serves the on-chain access key over a key registered in a portal session, and the session's until one is on-chain", async function () {
      const sessionKey = generateAccessKeyPair().publicKey;
      const now = Math.floor(Date.now() / 1000);
      for (const role of ["user2", "keeper"] as const) {
        await gw.store.db
          .insert(accessPublicKeys)
          .values({ addressLower: signer(role).address.toLowerCase(), publicKey: sessionKey, updatedAt: now });
      }
      const asUser2 = new HttpClient(
        gw.url,
        (await gw.keys.create({ tier: "premium", account: signer("user2").address, scopes: ["read"] })).token,
      );
      const [keyless] = (await asUser2.data(`/v1/redemptions`)).redemptions;
      expect(keyless.redemption_id).to.equal(String(ids.keyless));
      expect(keyless.access_public_key).to.not.equal(sessionKey); // user2 registered one on-chain
      expect(keyless.user_access_key).to.equal(keyless.access_public_key);

      // a user who never registered on-chain: the provider's list shows the session key, the API's key stays null
      await (await live.d.sstb.connect(signer("providerA")).transfer(signer("keeper").address, parseEther("2"))).wait();
      const keeper = await redeemAsKeeper();
      await synced();
      const asProvider = new HttpClient(
        gw.url,
        (await gw.keys.create({ tier: "premium", account: signer("providerA").address, scopes: ["read"] })).token,
      );
      const [latest] = (await asProvider.data(`/v1/redemptions?role=provider&status=pending`)).redemptions;
      expect(latest.redemption_id).to.equal(String(keeper));
      expect(latest.access_public_key).to.equal(null);
      expect(latest.user_access_key).to.equal(sessionKey);
      expect((await http.data(`/v1/redemptions/${keeper}`)).access_public_key).to.equal(null);
    });

    it("documents the lease and the access key in the OpenAPI document, with no write route for renew or terminate", async function () {
      const doc = (await http.get("/api/v1/openapi.json", { token: null })).body as any;
      // the resources are named schemas, referred to by $ref (issue 25)
      const named = (ref: string) => doc.components.schemas[ref.replace("#/components/schemas/", "")];
      const data =
        doc.paths["/api/v1/redemptions/{redemptionId}"].get.responses["200"].content["application/json"].schema
          .properties.data;
      expect(data.$ref).to.equal("#/components/schemas/Redemption");
      const schema = named(data.$ref);
      expect(schema.required).to.include.members(["lease", "access_public_key"]);
      expect(schema.properties.lease.anyOf).to.deep.include({ $ref: "#/components/schemas/Lease" });
      const offer = named("Lease").properties.renewal_offer.anyOf.find((s: { type: string }) => s.type === "object");
      expect(offer.required).to.deep.equal(["price", "price_base_units", "extension", "valid_until"]);
      expect(doc.paths["/api/v1/redemptions"].get.operationId).to.equal("listAccountRedemptions");
      expect(doc.paths["/api/v1/redemptions"].get.parameters.map((p: { name: string }) => p.name)).to.include(
        "lease_status",
      );
      const writes = Object.keys(doc.paths).filter((p) => /renew|terminat|lease/.test(p));
      expect(writes).to.deep.equal([]);
    });
  });

  describe("time-based notices: redemption.lease_expiring and redemption.lease_ended", function () {
    it("sends lease_expiring once, the lead before the end, then lease_ended once at the end", async function () {
      ids.timed = await redeemAs("user", "1");
      const end = (await chainNow()) + BigInt(2 * HOUR);
      await fulfilWithLease(ids.timed, end);
      await synced();
      // well before the lead: nothing
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(about(rUser, "redemption.lease_expiring", ids.timed)).to.deep.equal([]);

      await jump(HOUR + 60); // inside the last hour
      await synced();
      await rUser.waitFor(() => about(rUser, "redemption.lease_expiring", ids.timed).length === 1);
      await rProvider.waitFor(() => about(rProvider, "redemption.lease_expiring", ids.timed).length === 1);
      const [expiring] = about(rUser, "redemption.lease_expiring", ids.timed);
      expect(expiring.payload.id).to.equal(`lease:42161:${ids.timed}:${end}:redemption.lease_expiring`);
      expect(expiring.payload.data.lease).to.deep.include({ status: "active", expires_at: Number(end) });
      expect(expiring.payload.data.seconds_left).to.be.within(HOUR - 120, HOUR - 60);
      await new Promise((resolve) => setTimeout(resolve, 600)); // several scheduler passes later: still one
      expect(about(rUser, "redemption.lease_expiring", ids.timed)).to.have.length(1);

      await jump(HOUR);
      await synced();
      await rUser.waitFor(() => about(rUser, "redemption.lease_ended", ids.timed).length === 1);
      const [ended] = about(rUser, "redemption.lease_ended", ids.timed);
      expect(ended.payload.data.lease.status).to.equal("ended");
      expect(ended.payload.data.seconds_left).to.equal(0);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(about(rUser, "redemption.lease_ended", ids.timed)).to.have.length(1);
      expect(about(rUser, "redemption.lease_expiring", ids.timed)).to.have.length(1);
      expect((await http.data(`/v1/redemptions/${ids.timed}`)).lease.status).to.equal("ended");
    });

    it("announces a lease shorter than the lead as expiring at once, a renewed end anew, a terminated lease never", async function () {
      ids.short = await redeemAs("user", "1");
      const end = (await chainNow()) + BigInt(HOUR / 2);
      await fulfilWithLease(ids.short, end);
      await synced();
      await rUser.waitFor(() => about(rUser, "redemption.lease_expiring", ids.short).length === 1);

      const validUntil = end - 60n;
      await offerRenewalSync(client.providerA, {
        leaseId: ids.short,
        price: parseEther("1"),
        extension: 3n * BigInt(HOUR),
        validUntil,
      });
      await approveRedemptionSync(client.user, { amount: parseEther("1") });
      const renewed = await acceptRenewalSync(client.user, {
        leaseId: ids.short,
        price: parseEther("1"),
        extension: 3n * BigInt(HOUR),
      });
      await synced();
      // the new end is more than the lead away: no notice until the lead before it
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(about(rUser, "redemption.lease_expiring", ids.short)).to.have.length(1);
      await jump(3 * HOUR);
      await synced();
      await rUser.waitFor(() => about(rUser, "redemption.lease_expiring", ids.short).length === 2);
      const ends = about(rUser, "redemption.lease_expiring", ids.short).map((x) => x.payload.data.lease.expires_at);
      expect(ends).to.deep.equal([Number(end), Number(renewed.end)]);

      ids.terminated = await redeemAs("user", "1");
      await fulfilWithLease(ids.terminated, (await chainNow()) + BigInt(2 * HOUR));
      await terminateLeaseSync(client.user, { leaseId: ids.terminated });
      await synced();
      await jump(3 * HOUR);
      await synced();
      await rUser.waitFor(() => about(rUser, "redemption.lease_ended", ids.short).length === 1);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(
        rUser.received.filter((x) => x.payload.data.redemption_id === String(ids.terminated)).map((x) => x.event),
      ).to.not.include.members(["redemption.lease_expiring", "redemption.lease_ended"]);
      const rows = await gw.store.db
        .select()
        .from(leaseNotices)
        .where(eq(leaseNotices.leaseId, Number(ids.terminated)));
      expect(rows).to.deep.equal([]);
    });

    it("sends what fell due while the gateway was down once after a restart, and nothing twice", async function () {
      ids.restart = await redeemAs("user", "1");
      const end = (await chainNow()) + BigInt(2 * HOUR);
      await fulfilWithLease(ids.restart, end);
      await synced();
      const before = await gw.store.db.select().from(leaseNotices);
      await gw.close();

      await jump(HOUR + 60); // the lead passes while no gateway runs
      gw = await startGateway(config, { log: (line) => console.error(`    [gateway] ${line}`) });
      await synced();
      http = new HttpClient(gw.url, http.token);
      await rUser.waitFor(() => about(rUser, "redemption.lease_expiring", ids.restart).length === 1);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(about(rUser, "redemption.lease_expiring", ids.restart)).to.have.length(1);
      const after = await gw.store.db.select().from(leaseNotices);
      expect(after.length).to.equal(before.length + 1);
      // every notice ever sent went to each receiver under one event id, once
      for (const receiver of [rUser, rProvider]) {
        const notices = receiver.received.filter((x) => /lease_(expiring|ended)$/.test(x.event));
        expect(new Set(notices.map((x) => x.payload.id)).size).to.equal(notices.length);
      }
    });

    for (const db of process.env.DATABASE_URL ? ["PostgreSQL"] : []) {
      it(`neither drops nor doubles a notice with two gateways on one ${db} database`, async function () {
        const second = await startGateway(
          { ...config, dataDir: path.join(live.dir, "second"), port: 0 },
          { log: (line) => console.error(`    [gateway 2] ${line}`) },
        );
        try {
          const leaseIds: bigint[] = [];
          for (let i = 0; i < 4; i++) {
            const id = await redeemAs("user", "1");
            await fulfilWithLease(id, (await chainNow()) + BigInt(2 * HOUR));
            leaseIds.push(id);
          }
          await synced();
          await synced(second);
          await jump(HOUR + 60);
          await Promise.all([synced(), synced(second)]);
          for (const id of leaseIds) {
            await rUser.waitFor(() => about(rUser, "redemption.lease_expiring", id).length >= 1);
          }
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          for (const id of leaseIds) {
            expect(about(rUser, "redemption.lease_expiring", id), `lease ${id}`).to.have.length(1);
            expect(about(rProvider, "redemption.lease_expiring", id), `lease ${id}`).to.have.length(1);
            const rows = await gw.store.db
              .select()
              .from(webhookDeliveries)
              .where(eq(webhookDeliveries.event, "redemption.lease_expiring"));
            expect(rows.filter((r) => r.body.includes(`"redemption_id":"${id}"`))).to.have.length(2);
          }
        } finally {
          await second.close();
        }
      });
    }
  });

  describe("an older database", function () {
    it("rebuilds the lease projections from the stored events when an older projection version built them", async function () {
      const chainId = 42161;
      const expected = await http.data(`/v1/redemptions/${ids.first}`);
      await gw.close();
      // as a database an older gateway indexed: the events are stored, the new projections are not
      const { openStore } = await import("../../../gateway/store/db.js");
      const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      await store.db.delete(leases).where(eq(leases.chainId, chainId));
      await store.db.update(cursors).set({ projectionVersion: 0 }).where(eq(cursors.chainId, chainId));
      await store.close();

      const lines: string[] = [];
      gw = await startGateway(config, { log: (line) => lines.push(line) });
      await synced();
      http = new HttpClient(gw.url, http.token);
      expect(await http.data(`/v1/redemptions/${ids.first}`)).to.deep.equal(expected);
      const [cursor] = await gw.store.db
        .select()
        .from(cursors)
        .where(and(eq(cursors.chainId, chainId)));
      expect(cursor.projectionVersion).to.equal(PROJECTION_VERSION);
      expect(lines.some((l) => l.includes("projections rebuilt from the stored events"))).to.equal(true);
    });
  });

  describe("configuration", function () {
    it("reads the expiring lead from GATEWAY_LEASE_EXPIRING_LEAD (seconds) and refuses a bad one", function () {
      expect(webhookSettingsFromEnv({ GATEWAY_LEASE_EXPIRING_LEAD: "7200" })).to.deep.equal({
        leaseExpiringLeadSeconds: 7_200,
      });
      expect(() => webhookSettingsFromEnv({ GATEWAY_LEASE_EXPIRING_LEAD: "-1" })).to.throw(
        "GATEWAY_LEASE_EXPIRING_LEAD must be a positive integer",
      );
    });
  });
});
