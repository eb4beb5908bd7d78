import { randomBytes } from "node:crypto";

import { expect } from "chai";
import { parseEther } from "ethers";
import type { JsonRpcSigner } from "ethers";

import type { Gateway } from "../../../gateway/server.js";
import { idempotencyKeys, webhookSubscriptions } from "../../../gateway/store/schema.js";
import { sampleProfile } from "../../../devnet/samples.js";
import { ROLE, registerProvider, startLiveDeployment, startTestGateway } from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";
import { dataOf, HttpClient } from "../../helpers/http.js";
import { mintVerified, signedReport } from "../../helpers/verification.js";
import { TestReceiver } from "../../../testing/local-servers.js";
import type { Received } from "../../../testing/local-servers.js";
import { fulfil, post } from "../../helpers/writes.js";

/**
 * Issue 13's promise, end to end on a real `hardhat node` and real HTTP: a provider and a user with
 * nothing but API keys verify hardware, mint, redeem, confirm, dispute and move sSTB over HTTP, and
 * each hears of every step through signed webhooks at a receiver of its own (the receiver helper
 * checks every signature; a body under a wrong signature would be refused and never counted).
 */
describe(`Gateway end to end on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}: writes over HTTP, signed webhooks`, function () {
  this.timeout(300_000);

  let live: LiveDeployment;
  let gw: Gateway;
  let provider: JsonRpcSigner;
  /** The user's managed account: the gateway holds its key. */
  let user: string;
  const http = {} as { provider: HttpClient; user: HttpClient };
  const hooks = { provider: new TestReceiver(), user: new TestReceiver() };

  /** The first webhook of `event` at `receiver` whose data matches `match`, once it has arrived. */
  async function webhook(
    receiver: TestReceiver,
    event: string,
    match: (data: Record<string, any>) => boolean,
  ): Promise<Received> {
    const find = (all: Received[]) => all.find((r) => r.event === event && match(r.payload.data));
    await receiver.waitFor((all) => find(all) !== undefined, 30_000, event);
    return find(receiver.received)!;
  }

  before(async function () {
    live = await startLiveDeployment("lifecycle", { satellite: false });
    provider = live.signers[ROLE.providerA];
    await registerProvider(live, provider, sampleProfile("Acme Compute"), 1);
    gw = await startTestGateway(live, {
      verifierKeys: live.verifierKeys.map((w) => w.privateKey),
      accountKey: randomBytes(32).toString("hex"),
      webhooks: { pollMs: 50 },
    });
    user = (await gw.accounts.create("e2e user")).address;
    await (await live.signers[0].sendTransaction({ to: user, value: parseEther("10") })).wait();
    const key = async (account: string) =>
      (await gw.keys.create({ tier: "premium", account, scopes: ["read", "write"] })).token;
    http.provider = new HttpClient(gw.url, await key(provider.address));
    http.user = new HttpClient(gw.url, await key(user));

    // each party subscribes its own receiver, through the API, to the events that involve it
    const subscribe = async (client: HttpClient, receiver: TestReceiver, events: string[]) => {
      await receiver.start();
      const r = await post(client, "/api/v1/webhooks", { url: receiver.url, events, own_events_only: true });
      expect(r.status, r.text).to.equal(201);
      receiver.secrets = [(r.body as { data: { secret: string } }).data.secret];
    };
    await subscribe(http.provider, hooks.provider, [
      "verification.completed",
      "cu.verified",
      "sstb.minted",
      "redemption.initiated",
      "redemption.confirmed",
      "redemption.disputed",
    ]);
    await subscribe(http.user, hooks.user, [
      "sstb.transferred",
      "redemption.initiated",
      "redemption.fulfilled",
      "redemption.confirmed",
      "redemption.disputed",
    ]);
  });

  after(async function () {
    await gw?.close();
    await Promise.all([hooks.provider.stop(), hooks.user.stop()]);
    await live?.stop();
  });

  describe("verification -> mint -> redemption -> fulfilment -> confirmation", function () {
    it("verifies the provider's hardware over HTTP and announces the verdict and the mint", async function () {
      const verified = dataOf(
        await post(http.provider, "/api/v1/verification/submit", await signedReport(live, provider)),
      );
      expect(verified.status).to.equal("verified");
      const completed = await webhook(
        hooks.provider,
        "verification.completed",
        (d) => d.verification_id === verified.verification_id,
      );
      expect(completed.payload.data).to.include({
        status: "verified",
        provider_id: provider.address,
        proof: verified.proof,
      });

      const receipt = await mintVerified(live, provider, verified as Parameters<typeof mintVerified>[2]);
      const minted = await webhook(hooks.provider, "sstb.minted", (d) => d.transactionHash === receipt!.hash);
      expect(minted.payload.data).to.include({
        provider_id: provider.address,
        owner: provider.address,
        sstb_amount: 100,
        cu_value: 100,
      });
      expect(minted.payload.timestamp).to.equal((await live.rpc.getBlock(receipt!.blockNumber))!.timestamp);
      await webhook(hooks.provider, "cu.verified", (d) => d.cu_hash === verified.cu_hash);
    });

    it("redeems for the user over HTTP, notifies the provider, and confirms after the provider fulfils", async function () {
      await (await live.d.sstb.connect(provider).transfer(user, parseEther("30"))).wait();
      await webhook(hooks.user, "sstb.transferred", (d) => d.to === user && d.sstb_amount === 30);

      const redemption = dataOf(
        await post(
          http.user,
          "/v1/redemptions",
          { sstb_amount: 10, provider_id: provider.address },
          { "Idempotency-Key": "e2e-1" },
        ),
      );
      expect(redemption).to.include({
        mode: "managed",
        status: "pending",
        sstb_amount: 10,
        provider_id: provider.address,
      });
      const id = redemption.redemption_id as string;
      const shown = await http.user.data(`/v1/redemptions/${id}`);
      expect(redemption.estimated_fulfillment_time).to.equal(shown.estimated_fulfillment_time);
      expect(shown.estimated_fulfillment_time).to.be.greaterThan(redemption.initiated_at);

      // the provider hears of it (its off-chain notification) with the deadline it must meet
      const initiated = await webhook(hooks.provider, "redemption.initiated", (d) => d.redemption_id === id);
      expect(initiated.payload.data).to.include({
        user,
        sstb_amount: 10,
        estimated_fulfillment_time: shown.estimated_fulfillment_time,
      });

      await fulfil(live, provider, BigInt(id));
      const fulfilled = await webhook(hooks.user, "redemption.fulfilled", (d) => d.redemption_id === id);
      expect(fulfilled.payload.data.access_details).to.be.a("string").and.not.equal("");

      expect(dataOf(await post(http.user, `/v1/redemptions/${id}/confirm`))).to.include({ status: "confirmed" });
      for (const receiver of [hooks.provider, hooks.user]) {
        await webhook(receiver, "redemption.confirmed", (d) => d.redemption_id === id && d.status === "confirmed");
      }
      expect((await http.user.data(`/v1/redemptions/${id}`)).status).to.equal("confirmed");
    });
  });

  describe("dispute", function () {
    it("opens a dispute over HTTP with off-chain evidence whose hash the provider is told", async function () {
      const { redemption_id: id } = dataOf(
        await post(http.user, "/v1/redemptions", { sstb_amount: 5, provider_id: provider.address }),
      );
      await fulfil(live, provider, BigInt(id));
      await webhook(hooks.user, "redemption.fulfilled", (d) => d.redemption_id === id);
      const evidence = { log: "Permission denied (publickey)", attempts: 3 };
      const disputed = dataOf(
        await post(http.user, `/v1/redemptions/${id}/dispute`, {
          issue_type: "access_failure",
          description: "SSH refuses the key from the access details",
          evidence,
        }),
      );
      expect(disputed).to.include({ status: "disputed", issue_type: "access_failure" });
      const heard = await webhook(hooks.provider, "redemption.disputed", (d) => d.redemption_id === id);
      expect(heard.payload.data).to.include({ issue_type: "access_failure", evidence_hash: disputed.evidence_hash });
      // the provider reads the evidence the hash stands for
      const stored = await http.provider.data(`/v1/redemptions/${id}/dispute`);
      expect(stored.evidence_hash).to.equal(disputed.evidence_hash);
    });
  });

  describe("transfer", function () {
    it("moves sSTB over HTTP and announces the transfer to the sender", async function () {
      const to = live.signers[ROLE.user2].address;
      const sent = dataOf(await post(http.user, "/v1/sstb/transfer", { to, sstb_amount: 1.5 }));
      expect(sent).to.include({ mode: "managed", to, sstb_amount: 1.5 });
      const heard = await webhook(hooks.user, "sstb.transferred", (d) => d.transactionHash === sent.transaction_hash);
      expect(heard.payload.data).to.include({ from: user, to, sstb_amount: 1.5 });
      expect(await live.d.sstb.balanceOf(to)).to.equal(parseEther("1.5"));
    });
  });

  describe("secrets at rest", function () {
    it("keeps subscription secrets and replayable responses sealed under the master key", async function () {
      const body = { url: hooks.user.url, events: ["sstb.minted"] };
      const first = await post(http.user, "/api/v1/webhooks", body, { "Idempotency-Key": "sub-1" });
      const replay = await post(http.user, "/api/v1/webhooks", body, { "Idempotency-Key": "sub-1" });
      expect(first.status).to.equal(201);
      expect(replay.headers.get("idempotent-replayed")).to.equal("true");
      const { secret, subscription_id: id } = (first.body as { data: { secret: string; subscription_id: string } })
        .data;
      expect((replay.body as { data: { secret: string } }).data.secret).to.equal(secret); // shown again on a replay
      const subscriptions = await gw.store.db.select().from(webhookSubscriptions);
      expect(subscriptions.length).to.be.greaterThan(2);
      for (const row of subscriptions) expect(row.secret).to.match(/^v1\./).and.not.include("whsec_");
      const responses = await gw.store.db.select().from(idempotencyKeys);
      expect(responses.length).to.be.greaterThan(0);
      for (const row of responses) expect(row.response).to.match(/^v1\./).and.not.include(secret.slice(6));
      expect(dataOf(await http.user.request("DELETE", `/api/v1/webhooks/${id}`))).to.include({ deleted: true });
    });
  });

  describe("signatures", function () {
    it("delivered every webhook under a signature the receivers verified, once per delivery id", function () {
      for (const receiver of [hooks.provider, hooks.user]) {
        expect(receiver.hits.filter((h) => h.answer !== "accepted")).to.deep.equal([]);
        const ids = receiver.received.map((r) => r.deliveryId);
        expect(new Set(ids).size).to.equal(ids.length);
      }
      // own_events_only: the user never heard of the provider's verification or mint
      expect(hooks.user.received.map((r) => r.event)).to.not.include.members(["verification.completed", "sstb.minted"]);
    });
  });
});
