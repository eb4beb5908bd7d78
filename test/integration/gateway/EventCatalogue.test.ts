import http from "node:http";
import type { AddressInfo } from "node:net";

import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "chai";
import { MaxUint256, parseEther, parseUnits } from "ethers";
import type { JsonRpcSigner } from "ethers";

import {
  IssueType,
  acceptRenewalSync,
  approveRedemptionSync,
  fulfilRedemptionWithLeaseSync,
  generateAccessKeyPair,
  initiateRedemptionSync,
  offerRenewalSync,
  terminateLeaseSync,
} from "@compute-capacity/sdk";
import type { ProtocolClient } from "@compute-capacity/sdk";
import type { Gateway } from "../../../gateway/server.js";
import { webhookHandler } from "../../../gateway/webhooks/receiver.js";
import { DELIVERY_EVENTS, TWIN_EVENTS, WEBHOOK_EVENTS } from "../../../gateway/webhooks/event-names.js";
import { sampleAccessDetails } from "../../../devnet/samples.js";
import {
  ROLE,
  bridgeSstbToEthereum,
  relayMessages,
  runLiveScenario,
  sharedLiveDeployment,
  startTestGateway,
  protocolClientOf,
} from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";
import { fulfilEncrypted } from "../../../testing/redemption.js";
import { MockBlacklistStablecoin__factory } from "../../../typechain-types/index.js";
import { HttpClient } from "../../helpers/http.js";
import { signedReport } from "../../helpers/verification.js";

const HOUR = 3_600;
const database = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";

/** A body the receiver took: valid against its event's schema, or why not. */
interface Checked {
  event: string;
  body: { id: string; fact_id: string; event: string; data: Record<string, any> };
  errors: string | null;
}

/**
 * A webhook receiver as an integrator writes it from the document: it verifies each delivery with
 * the SDK (both signatures, the timestamp within 5 minutes) and validates the body against the
 * schema the document's `webhooks` section names for its event, keeping the outcome.
 */
class ValidatingReceiver {
  readonly checked: Checked[] = [];
  secrets: string[] = [];
  private server: http.Server | undefined;
  private validators = new Map<string, ValidateFunction>();

  constructor(document: Record<string, any>) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: "https://gateway.test/openapi.json", components: document.components });
    for (const [event, item] of Object.entries(document.webhooks as Record<string, any>)) {
      const schema = item.post.requestBody.content["application/json"].schema;
      this.validators.set(event, ajv.compile({ $ref: `https://gateway.test/openapi.json${schema.$ref as string}` }));
    }
  }

  async start(): Promise<this> {
    this.server = http.createServer(
      webhookHandler({ secrets: () => this.secrets, tolerance: 300 }, ({ payload }) => {
        const validate = this.validators.get(payload.event);
        const valid = validate !== undefined && validate(payload);
        this.checked.push({
          event: payload.event,
          body: payload as unknown as Checked["body"],
          errors: valid ? null : JSON.stringify(validate?.errors ?? "no schema for this event"),
        });
      }),
    );
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hooks`;
  }

  of(event: string): Checked[] {
    return this.checked.filter((c) => c.event === event);
  }

  async waitFor(events: readonly string[], timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (events.some((e) => this.of(e).length === 0)) {
      if (Date.now() > until) {
        const missing = events.filter((e) => this.of(e).length === 0);
        throw new Error(`receiver: no ${missing.join(", ")} after ${timeoutMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe(`The event catalogue on ${database}: every event delivered to a receiver that validates it`, function () {
  this.timeout(1_200_000);
  let live: LiveDeployment;
  let gw: Gateway;
  let receiver: ValidatingReceiver;
  let api: HttpClient;
  let created: Record<string, any>;
  const client: Record<string, ProtocolClient> = {};
  const signer = (role: keyof typeof ROLE): JsonRpcSigner => live.signers[ROLE[role]];
  const chainNow = async () => BigInt((await live.rpc.getBlock("latest"))!.timestamp);
  const jump = async (seconds: number) => {
    await live.rpc.send("evm_increaseTime", [seconds]);
    await live.rpc.send("evm_mine", []);
  };
  const redeemAs = async (role: "user" | "user2", amount: string, accessPublicKey?: string) => {
    await approveRedemptionSync(client[role], { amount: parseEther(amount) });
    const { redemptionId } = await initiateRedemptionSync(client[role], {
      amount: parseEther(amount),
      provider: signer("providerA").address,
      ...(accessPublicKey === undefined ? {} : { accessPublicKey }),
    });
    return redemptionId;
  };

  before(async function () {
    const step = (name: string) => console.error(`    [${new Date().toISOString()}] ${name}`);
    step("deploying");
    live = await sharedLiveDeployment("catalogue");
    step("starting the gateway");
    gw = await startTestGateway(
      live,
      {
        verifierKeys: live.verifierKeys.map((w) => w.privateKey),
        webhooks: { pollMs: 50, backoffBaseMs: 300, leaseExpiringLeadSeconds: HOUR, leaseNoticeIntervalMs: 100 },
      },
      { log: (line) => console.error(`    [gateway] ${line}`) },
    );
    step("reading the document");
    // the document as the gateway serves it: what an integrator builds a receiver from
    const document = await new HttpClient(gw.url).request("GET", "/api/v1/openapi.json");
    expect(document.status, document.text.slice(0, 200)).to.equal(200);
    receiver = await new ValidatingReceiver(document.body as never).start();
    step("subscribing");
    // the provider's own subscription: every event, its off-chain verification.completed included
    const token = (
      await gw.keys.create({ tier: "premium", account: signer("providerA").address, scopes: ["read", "write"] })
    ).token;
    api = new HttpClient(gw.url, token);
    const answer = await api.request("POST", "/api/v1/webhooks", {
      body: JSON.stringify({ url: receiver.url, events: [...WEBHOOK_EVENTS] }),
      headers: { "content-type": "application/json" },
    });
    expect(answer.status, answer.text).to.equal(201);
    created = (answer.body as { data: Record<string, any> }).data;
    receiver.secrets = [created.secret];
    for (const role of ["user", "user2", "providerA"] as const) client[role] = await protocolClientOf(live, role);
  });

  after(async function () {
    await gw?.close();
    await receiver?.stop();
    await live?.stop();
  });

  it("warns a subscription to both events of a fact, pair by pair", function () {
    expect(created.warnings.map((w: { events: string[] }) => w.events)).to.deep.equal(
      TWIN_EVENTS.map((pair) => [...pair]),
    );
    expect(created.warnings.every((w: { code: string }) => w.code === "twin_events")).to.equal(true);
  });

  it("delivers every event of the catalogue, each body valid against its event's schema", async function () {
    const { sstb, redemptionManager: manager, spotMarket: spot, collateral } = live.d;
    // the demo scenario: provider A registered and verified (cu.verified, sstb.minted), a spot listing
    // bought, a future settled, a call exercised, a redemption confirmed and one expired
    await runLiveScenario(live);
    await (await sstb.connect(signer("providerA")).transfer(signer("user2").address, parseEther("40"))).wait();
    await (await sstb.connect(signer("providerA")).transfer(signer("user").address, parseEther("10"))).wait();

    // a buy order (marketplace.order_created)
    await (await collateral.connect(signer("user2")).mint(signer("user2").address, parseUnits("100", 6))).wait();
    await (await collateral.connect(signer("user2")).approve(await spot.getAddress(), MaxUint256)).wait();
    const now = await chainNow();
    await (
      await spot.connect(signer("user2")).createBuyOrder(parseEther("2"), parseUnits("1.5", 6), now + 86_400n)
    ).wait();

    // a dispute and its ruling
    const keys = generateAccessKeyPair();
    const disputed = await redeemAs("user", "2");
    await fulfilEncrypted(
      manager,
      signer("providerA"),
      disputed,
      sampleAccessDetails(disputed),
      keys.publicKey,
      42161n,
    );
    await (
      await manager.connect(signer("user")).openDispute(disputed, IssueType.ResourceMismatch, `0x${"ab".repeat(32)}`)
    ).wait();
    await (await manager.connect(signer("arbitrator")).resolveDispute(disputed, true, false)).wait();

    // a lease: offered a renewal, renewed, terminated; another that runs out (the time-based notices)
    const { publicKey } = generateAccessKeyPair();
    const leased = await redeemAs("user2", "3", publicKey);
    const details = (id: bigint) => {
      const { expiration: _expiration, ...rest } = sampleAccessDetails(id);
      return rest;
    };
    await fulfilRedemptionWithLeaseSync(client.providerA, {
      redemptionId: leased,
      details: details(leased),
      leaseEnd: (await chainNow()) + BigInt(10 * 86_400),
    });
    const validUntil = (await chainNow()) + 86_400n;
    await offerRenewalSync(client.providerA, {
      leaseId: leased,
      price: parseEther("2"),
      extension: 86_400n,
      validUntil,
    });
    await approveRedemptionSync(client.user2, { amount: parseEther("2") });
    await acceptRenewalSync(client.user2, { leaseId: leased, price: parseEther("2"), extension: 86_400n });
    await terminateLeaseSync(client.user2, { leaseId: leased });
    const timed = await redeemAs("user2", "1", publicKey);
    await fulfilRedemptionWithLeaseSync(client.providerA, {
      redemptionId: timed,
      details: details(timed),
      leaseEnd: (await chainNow()) + BigInt(2 * HOUR),
    });
    await gw.synced();
    await jump(HOUR + 60);
    await gw.synced();
    await receiver.waitFor(["redemption.lease_expiring"]);
    await jump(HOUR);
    await gw.synced();
    await receiver.waitFor(["redemption.lease_ended"]);

    // a payment the seller cannot receive (blacklisted in the payment token), then withdrawn elsewhere
    const usdc = MockBlacklistStablecoin__factory.connect(await collateral.getAddress(), live.signers[0]);
    await (await sstb.connect(signer("providerA")).approve(await spot.getAddress(), MaxUint256)).wait();
    const listed = await (
      await spot
        .connect(signer("providerA"))
        .createListing(parseEther("4"), parseUnits("2", 6), (await chainNow()) + 86_400n)
    ).wait();
    const listingId = spot.interface.parseLog(listed!.logs.find((l) => l.address === listed!.to)!)!.args
      .listingId as bigint;
    await (await usdc.blacklist(signer("providerA").address)).wait();
    await (await spot.connect(signer("user2")).buy(listingId, parseEther("4"), parseUnits("2", 6))).wait();
    await gw.synced();
    const claimable = await api.data(`/api/v1/marketplace/claimable`);
    expect(claimable.claimable_balances).to.have.length(1);
    expect(claimable.claimable_balances[0]).to.include({
      account: signer("providerA").address,
      market_type: "spot",
      token: await collateral.getAddress(),
      token_decimals: 6,
    });
    const owed = BigInt(claimable.claimable_balances[0].amount_base_units);
    expect(owed).to.equal(await spot.claimable(signer("providerA").address, await collateral.getAddress()));
    expect(owed > 0n).to.equal(true);
    await (
      await spot.connect(signer("providerA")).withdrawClaimable(await collateral.getAddress(), signer("keeper").address)
    ).wait();

    // a bridge transfer, sent and relayed
    await bridgeSstbToEthereum(live, signer("user"), parseEther("1"));
    await relayMessages(live);

    // a verification the gateway's verifiers decide (off-chain: the provider's own subscriptions)
    const report = await signedReport(live, signer("providerA"));
    const verified = await api.request("POST", "/api/v1/verification/submit", {
      body: JSON.stringify(report),
      headers: { "content-type": "application/json" },
    });
    expect(verified.status, verified.text).to.equal(200);

    // and a test delivery
    const test = await api.request("POST", `/api/v1/webhooks/${created.subscription_id as string}/test`, {
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(test.status, test.text).to.equal(202);

    await gw.synced();
    await receiver.waitFor(DELIVERY_EVENTS, 120_000);
    const invalid = receiver.checked.filter((c) => c.errors !== null).map((c) => `${c.event}: ${c.errors}`);
    expect(invalid).to.deep.equal([]);
    const covered = [...new Set(receiver.checked.map((c) => c.event))].sort();
    expect(covered).to.deep.equal([...DELIVERY_EVENTS].sort());
    console.log(`      ${receiver.checked.length} deliveries of ${covered.length} events, every body valid`);
  });

  it("gives the two events of one fact the same fact_id, and other facts other ones", function () {
    const factsOf = (event: string, key: (c: Checked) => string) =>
      new Map(receiver.of(event).map((c) => [key(c), c.body.fact_id]));
    // a listing's creation under both names
    const created = factsOf("listing.created", (c) => String(c.body.data.listing_id));
    const createdToo = factsOf("marketplace.listing_created", (c) => String(c.body.data.listing_id));
    expect(created.size).to.be.greaterThan(0);
    expect(createdToo).to.deep.equal(created);
    // a redemption's initiation: sstb.redeemed and redemption.initiated (a new redemption) or
    // redemption.renewed (a renewal is a redemption of its own)
    const redeemed = factsOf("sstb.redeemed", (c) => String(c.body.data.redemption_id));
    for (const c of receiver.of("redemption.initiated")) {
      expect(redeemed.get(c.body.data.redemption_id), c.body.id).to.equal(c.body.fact_id);
    }
    const [renewed] = receiver.of("redemption.renewed");
    expect(redeemed.get(renewed.body.data.renewal.redemption_id)).to.equal(renewed.body.fact_id);
    expect(receiver.of("redemption.initiated").length + 1).to.equal(redeemed.size);
    // a spot purchase: listing.purchased and its marketplace.trade_executed
    const [purchase] = receiver.of("listing.purchased");
    const trade = receiver.of("marketplace.trade_executed").find((c) => c.body.fact_id === purchase.body.fact_id);
    expect(trade?.body.data.listing_id).to.equal(purchase.body.data.listing_id);
    // every other pair of deliveries names different facts: ids unique, facts shared only by twins
    const ids = receiver.checked.map((c) => c.body.id);
    expect(new Set(ids).size).to.equal(ids.length);
    const twin = (a: string, b: string) => TWIN_EVENTS.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
    const byFact = new Map<string, string[]>();
    for (const c of receiver.checked) byFact.set(c.body.fact_id, [...(byFact.get(c.body.fact_id) ?? []), c.event]);
    for (const [fact, events] of byFact) {
      if (events.length === 1) continue;
      expect(events, fact).to.have.length(2);
      expect(twin(events[0], events[1]), `${fact}: ${events.join(", ")}`).to.equal(true);
    }
  });

  it("announces a claimable payment and its withdrawal, and serves the balance by account and in GraphQL", async function () {
    const [credited] = receiver.of("marketplace.claimable_credited");
    const [withdrawn] = receiver.of("marketplace.claimable_withdrawn");
    expect(credited.body.data).to.include({
      account: signer("providerA").address,
      market_type: "spot",
      token_decimals: 6,
    });
    expect(credited.body.data.claimable_base_units).to.equal(credited.body.data.amount_base_units);
    expect(withdrawn.body.data).to.include({
      account: signer("providerA").address,
      to: signer("keeper").address,
      amount_base_units: credited.body.data.amount_base_units,
      claimable_base_units: "0",
    });
    // withdrawn: nothing left to show, unless asked for the history
    expect((await api.data("/v1/marketplace/claimable")).claimable_balances).to.deep.equal([]);
    const history = await api.data(
      `/api/v1/marketplace/claimable?include_empty=true&account=${signer("providerA").address}&token=${await live.d.collateral.getAddress()}`,
    );
    expect(history.claimable_balances).to.have.length(1);
    expect(history.claimable_balances[0]).to.include({
      amount: 0,
      amount_base_units: "0",
      credited_total_base_units: credited.body.data.amount_base_units,
    });
    const graphql = await api.request("POST", "/graphql", {
      body: JSON.stringify({
        query: `query($a: ID!) { claimableBalances(account: $a, includeEmpty: true) { marketType tokenSymbol amountBaseUnits creditedTotalBaseUnits } }`,
        variables: { a: signer("providerA").address },
      }),
      headers: { "content-type": "application/json" },
    });
    expect(graphql.status, graphql.text).to.equal(200);
    expect((graphql.body as any).data.claimableBalances).to.deep.equal([
      {
        marketType: "spot",
        tokenSymbol: await live.d.collateral.symbol(),
        amountBaseUnits: "0",
        creditedTotalBaseUnits: credited.body.data.amount_base_units,
      },
    ]);
  });
});
