import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";

import { expect } from "chai";
import { AbiCoder, JsonRpcProvider, JsonRpcSigner, formatEther, formatUnits, getAddress, parseEther } from "ethers";

import { Redis } from "ioredis";

import { chainSelectorOf, parseDeploymentFile } from "@compute-capacity/sdk";
import { CHAIN_LABELS } from "../../../gateway/config.js";
import { createLogger } from "../../../gateway/observability/log.js";
import { buildApp } from "../../../gateway/http/app.js";
import type { Gateway } from "../../../gateway/server.js";
import { ReadModel } from "../../../gateway/store/queries.js";
import { BridgeReader } from "../../../gateway/chain/bridge-reader.js";
import {
  ROLE,
  bridgeSstbToEthereum,
  populate,
  relayMessages,
  sharedLiveDeployment,
  startTestGateway,
} from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";
import { Bridge__factory } from "../../../typechain-types/index.js";
import { dataOf, expectError, HttpClient } from "../../helpers/http.js";
import type { Recorded } from "../../helpers/http.js";
import { LocalRedis, REDIS_SERVER } from "../../helpers/redis.js";
import { TestReceiver } from "../../../testing/local-servers.js";

const STATUS = ["none", "pending", "active", "suspended"];
const sstb = (wei: bigint) => Number(formatEther(wei));

describe(`Gateway HTTP API on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"} (indexed devnet-style deployment)`, function () {
  this.timeout(180_000);

  let live: LiveDeployment;
  let gw: Gateway;
  let http: HttpClient;
  let user: string;
  let providers: { A: string; B: string; C: string; D: string };
  /** The gateway's log, one JSON object per line (a line per answered request among them). */
  const logged: Array<Record<string, any>> = [];
  /** The request lines. */
  const requestLines = () => logged.filter((l) => l.statusCode !== undefined);
  /** Everything else the gateway logged (internal errors with their stacks). */
  const logLines = () => logged.filter((l) => l.statusCode === undefined).map((l) => JSON.stringify(l));

  before(async function () {
    live = await sharedLiveDeployment("api");
    await populate(live);
    gw = await startTestGateway(
      live,
      {},
      {
        logger: createLogger({
          level: "info",
          destination: {
            write(chunk: string) {
              const line = JSON.parse(chunk) as Record<string, any>;
              logged.push(line);
              if (line.statusCode === undefined) console.error(`    [gateway] ${chunk.trim()}`);
            },
          },
        }),
      },
    );
    user = live.signers[ROLE.user].address;
    providers = {
      A: live.signers[ROLE.providerA].address,
      B: live.signers[ROLE.providerB].address,
      C: live.signers[ROLE.providerC].address,
      D: live.signers[ROLE.providerD].address,
    };
    const { token } = await gw.keys.create({ tier: "premium", account: user, scopes: ["read"] });
    http = new HttpClient(gw.url, token);
  });

  after(async function () {
    await gw?.close();
    await live?.stop();
  });

  describe("compute units: GET /api/v1/cu/list and /cu/:cu_id", function () {
    it("lists every unit with the spec's fields, as on-chain, in id order", async function () {
      const data = await http.data("/api/v1/cu/list");
      expect(data.total).to.equal(4);
      expect([data.page, data.limit]).to.deep.equal([1, 20]);
      expect(data.compute_units.map((u: { cu_id: number }) => u.cu_id)).to.deep.equal([1, 2, 3, 4]);
      for (const unit of data.compute_units) {
        const onChain = await live.d.cuToken.computeUnit(unit.cu_id);
        expect(Object.keys(unit).sort()).to.deep.equal(
          [
            "cu_hash",
            "cu_id",
            "cu_value",
            "cu_value_base_units",
            "metadata",
            "provider_id",
            "verification_timestamp",
          ].sort(),
        );
        expect(unit.cu_hash).to.equal(onChain.cuHash);
        expect(unit.cu_value).to.equal(sstb(onChain.cuValue));
        expect(unit.cu_value_base_units).to.equal(onChain.cuValue.toString());
        expect(unit.provider_id).to.equal(onChain.provider);
        expect(unit.verification_timestamp).to.equal(Number(onChain.verifiedAt));
        expect(unit.metadata).to.deep.equal({
          cpu_cores: Number(onChain.specs.cpuCores),
          ram_gb: Number(onChain.specs.ramGb),
          storage_gb: Number(onChain.specs.storageGb),
          network_mbps: Number(onChain.specs.networkMbps),
        });
      }
      expect(data.compute_units[2].cu_value).to.equal(250.5);
    });

    it("filters by provider_id, min_value and max_value (whole sSTB, bounds included)", async function () {
      const ids = async (query: string) =>
        (await http.data(`/api/v1/cu/list?${query}`)).compute_units.map((u: { cu_id: number }) => u.cu_id);
      expect(await ids(`provider_id=${providers.B}`)).to.deep.equal([2, 3]);
      expect(await ids(`provider_id=${providers.B.toLowerCase()}`)).to.deep.equal([2, 3]);
      expect(await ids(`provider_id=${providers.C}`)).to.deep.equal([]);
      expect(await ids("min_value=40")).to.deep.equal([1, 2, 3]);
      expect(await ids("max_value=40")).to.deep.equal([2, 4]);
      expect(await ids("min_value=40.5&max_value=250.5")).to.deep.equal([1, 3]);
      expect(await ids(`min_value=30&provider_id=${providers.B}`)).to.deep.equal([2, 3]);
      expect((await http.data("/api/v1/cu/list?min_value=100")).total).to.equal(2);
      expectError(await http.get("/api/v1/cu/list?min_value=50&max_value=10"), "invalid_parameter", 400, "min_value");
    });

    it("pages with page and limit (default 1 and 20, at most 100) and reports the total", async function () {
      const second = await http.data("/api/v1/cu/list?page=2&limit=3");
      expect(second.compute_units.map((u: { cu_id: number }) => u.cu_id)).to.deep.equal([4]);
      expect([second.total, second.page, second.limit]).to.deep.equal([4, 2, 3]);
      const beyond = await http.data("/api/v1/cu/list?page=9&limit=100");
      expect([beyond.compute_units.length, beyond.total, beyond.limit]).to.deep.equal([0, 4, 100]);
      expectError(await http.get("/api/v1/cu/list?limit=101"), "invalid_parameter", 400, "limit");
      expectError(await http.get("/api/v1/cu/list?page=0"), "invalid_parameter", 400, "page");
    });

    it("shows a unit's detail form: owner, location and benchmark results", async function () {
      const unit = await http.data("/api/v1/cu/3");
      const onChain = await live.d.cuToken.computeUnit(3);
      expect(unit.owner).to.equal(providers.B);
      expect(unit.metadata.location).to.deep.equal({ country: "CA", region: "na-east" });
      expect(unit.metadata.benchmark_results).to.deep.equal({
        cpu_score: Number(onChain.specs.cpuScore),
        memory_score: Number(onChain.specs.memoryScore),
        storage_score: Number(onChain.specs.storageScore),
        network_score: Number(onChain.specs.networkScore),
      });
      expect(unit.metadata.cpu_cores).to.equal(128);
      expectError(await http.get("/api/v1/cu/99"), "resource_not_found", 404);
      expectError(await http.get("/api/v1/cu/abc"), "invalid_parameter", 400, "cu_id");
    });
  });

  describe("compute resources (short set)", function () {
    it("serves the compute units under /v1/compute-resources, by id and by provider", async function () {
      const all = await http.data("/v1/compute-resources?limit=2");
      expect(all.compute_resources.map((u: { cu_id: number }) => u.cu_id)).to.deep.equal([1, 2]);
      expect(all.total).to.equal(4);
      expect(await http.data("/v1/compute-resources/2")).to.deep.equal(await http.data("/api/v1/cu/2"));
      for (const path of [
        `/v1/compute-resources/provider/${providers.B}`,
        `/v1/providers/${providers.B}/compute-resources`,
      ]) {
        const data = await http.data(path);
        expect(
          data.compute_resources.map((u: { cu_id: number }) => u.cu_id),
          path,
        ).to.deep.equal([2, 3]);
        expect(data.total).to.equal(2);
      }
      expect((await http.data(`/v1/providers/${providers.B}/compute-resources?min_value=100`)).total).to.equal(1);
      expect((await http.data(`/v1/providers/${providers.C}/compute-resources`)).total).to.equal(0);
      const stranger = getAddress("0x" + "12".repeat(20));
      expectError(await http.get(`/v1/compute-resources/provider/${stranger}`), "resource_not_found", 404);
    });

    it("answers every route under both prefixes alike", async function () {
      for (const path of [
        "/cu/list?limit=3",
        "/providers/list",
        `/providers/${providers.A}`,
        "/redemptions/1",
        "/compute-resources",
        "/sstb/balance",
      ]) {
        expect(await http.data(`/v1${path}`), path).to.deep.equal(await http.data(`/api/v1${path}`));
      }
    });
  });

  describe("providers", function () {
    it("lists providers with the spec's fields, as on-chain", async function () {
      const data = await http.data("/api/v1/providers/list");
      expect(data.total).to.equal(4);
      expect(data.providers.map((p: { provider_id: string }) => p.provider_id)).to.deep.equal([
        providers.A,
        providers.B,
        providers.C,
        providers.D,
      ]);
      for (const p of data.providers) {
        const info = await live.d.registry.providerInfo(p.provider_id);
        expect(p).to.deep.equal({
          provider_id: info.provider,
          name: info.profile.name,
          status: STATUS[Number(info.account.status)],
          reputation_score: Number(info.account.reputation) / 100,
          location: { country: info.profile.country, region: info.profile.region },
          total_cu_value: sstb(info.account.totalCU),
          total_cu_value_base_units: info.account.totalCU.toString(),
          available_cu_value: sstb(info.account.availableCU),
          available_cu_value_base_units: info.account.availableCU.toString(),
        });
      }
      expect(await http.data("/v1/providers")).to.deep.equal(data);
    });

    it("filters by status, min_reputation and location (country or region, any case)", async function () {
      const ids = async (query: string) =>
        (await http.data(`/api/v1/providers/list?${query}`)).providers.map((p: { name: string }) => p.name);
      expect(await ids("status=active")).to.deep.equal(["Acme Compute", "Borealis Cloud"]);
      expect(await ids("status=pending")).to.deep.equal(["Cirrus Labs"]);
      expect(await ids("status=suspended")).to.deep.equal(["Delta Hosting"]);
      expect(await ids("location=DE")).to.deep.equal(["Acme Compute", "Delta Hosting"]);
      expect(await ids("location=de")).to.deep.equal(["Acme Compute", "Delta Hosting"]);
      expect(await ids("location=eu-west")).to.deep.equal(["Delta Hosting"]);
      expect(await ids("location=Mars")).to.deep.equal([]);
      expect(await ids("status=active&location=CA")).to.deep.equal(["Borealis Cloud"]);
      const reputations = await Promise.all(
        Object.values(providers).map(async (p) => Number((await live.d.registry.accountOf(p)).reputation) / 100),
      );
      const top = Math.max(...reputations);
      const expected = Object.values(providers).filter((_, i) => reputations[i] >= top).length;
      expect((await http.data(`/api/v1/providers/list?min_reputation=${top}`)).total).to.equal(expected);
      expect((await http.data("/api/v1/providers/list?min_reputation=0")).total).to.equal(4);
      expect((await http.data("/api/v1/providers/list?min_reputation=100")).total).to.equal(
        reputations.filter((r) => r >= 100).length,
      );
      expectError(await http.get("/api/v1/providers/list?status=retired"), "invalid_parameter", 400, "status");
      expectError(
        await http.get("/api/v1/providers/list?min_reputation=101"),
        "invalid_parameter",
        400,
        "min_reputation",
      );
    });

    it("shows a provider's detail form with contact, hardware and statistics as on-chain", async function () {
      for (const id of Object.values(providers)) {
        const p = await http.data(`/api/v1/providers/${id}`);
        const info = await live.d.registry.providerInfo(id);
        const [total, successful, average] = await live.d.registry.providerStats(id);
        const registered = (await live.d.registry.accountOf(id)).registeredAt;
        expect(p.registration_date).to.equal(Number(registered));
        expect(p.contact_info).to.deep.equal({ email: info.profile.email, website: info.profile.website });
        expect(p.hardware_specifications).to.deep.equal({
          cpu_type: info.profile.cpuType,
          total_cpu_cores: Number(info.profile.totalCpuCores),
          total_ram_gb: Number(info.profile.totalRamGb),
          total_storage_gb: Number(info.profile.totalStorageGb),
          network_capacity_mbps: Number(info.profile.networkCapacityMbps),
        });
        expect(p.statistics).to.deep.equal({
          total_cu_value: sstb(info.account.totalCU),
          total_cu_value_base_units: info.account.totalCU.toString(),
          available_cu_value: sstb(info.account.availableCU),
          available_cu_value_base_units: info.account.availableCU.toString(),
          total_redemptions: Number(total),
          successful_redemptions: Number(successful),
          average_response_time: Number(average),
        });
      }
      expect(await http.data(`/api/v1/providers/${providers.A.toLowerCase()}`)).to.deep.equal(
        await http.data(`/api/v1/providers/${providers.A}`),
      );
      expectError(await http.get(`/api/v1/providers/${getAddress("0x" + "34".repeat(20))}`), "resource_not_found", 404);
      expectError(await http.get("/api/v1/providers/acme"), "invalid_parameter", 400, "providerId");
    });
  });

  describe("marketplace: GET /api/v1/marketplace/listings and /marketplace/listings/:listing_id", function () {
    const market = (id: number) => [live.d.spotMarket, live.d.futuresMarket, live.d.optionsMarket][(id - 1) % 3];

    it("lists the open listings of the three markets with the spec's fields, as on-chain", async function () {
      const data = await http.data("/api/v1/marketplace/listings");
      expect(data.listings.map((l: { listing_id: number }) => l.listing_id)).to.deep.equal([1, 4, 5, 6]);
      expect(data.total).to.equal(4);
      for (const l of data.listings) {
        const onChain = await market(l.listing_id).listingOf(l.listing_id);
        expect(l).to.deep.equal({
          listing_id: Number(onChain.listingId),
          market_type: ["none", "spot", "futures", "options"][Number(onChain.marketType)],
          token_type: onChain.tokenType,
          seller: onChain.seller,
          amount: sstb(onChain.amount),
          amount_base_units: onChain.amount.toString(),
          price_per_token: Number(formatUnits(onChain.pricePerToken, 6)),
          price_per_token_base_units: onChain.pricePerToken.toString(),
          total_price: Number(formatUnits(onChain.totalPrice, 6)),
          total_price_base_units: onChain.totalPrice.toString(),
          listed_at: Number(onChain.listedAt),
          expiration: Number(onChain.expiration),
        });
      }
    });

    it("filters by market_type, provider_id, min_price and max_price (whole USDC per sSTB)", async function () {
      const ids = async (query: string) =>
        (await http.data(`/api/v1/marketplace/listings?${query}`)).listings.map(
          (l: { listing_id: number }) => l.listing_id,
        );
      expect(await ids("market_type=spot")).to.deep.equal([1, 4]);
      expect(await ids("market_type=futures")).to.deep.equal([5]);
      expect(await ids("market_type=options")).to.deep.equal([6]);
      expect(await ids(`provider_id=${providers.B}`)).to.deep.equal([4, 5, 6]);
      expect(await ids(`provider_id=${providers.A}`)).to.deep.equal([1]);
      expect(await ids("min_price=1.9")).to.deep.equal([4, 5]);
      expect(await ids("max_price=1.5")).to.deep.equal([1, 6]);
      expect(await ids("min_price=0.2&max_price=0.2")).to.deep.equal([6]);
      expect(await ids(`market_type=spot&provider_id=${providers.B}&min_price=2`)).to.deep.equal([4]);
      expect((await http.data("/v1/marketplace/listings?limit=1&page=2")).listings[0].listing_id).to.equal(4);
      expectError(
        await http.get("/api/v1/marketplace/listings?market_type=swap"),
        "invalid_parameter",
        400,
        "market_type",
      );
      expectError(
        await http.get("/api/v1/marketplace/listings?min_price=3&max_price=1"),
        "invalid_parameter",
        400,
        "min_price",
      );
    });

    it("shows any listing's detail form with its status", async function () {
      const statuses = ["active", "settled", "exercised", "active", "active", "active", "cancelled"];
      const names = [
        "none",
        "active",
        "filled",
        "cancelled",
        "expired",
        "matched",
        "settled",
        "sold",
        "exercised",
        "reclaimed",
      ];
      for (const [i, status] of statuses.entries()) {
        const id = i + 1;
        const l = await http.data(`/api/v1/marketplace/listings/${id}`);
        const onChain = await market(id).listingOf(id);
        expect(names[Number(onChain.status)]).to.equal(status);
        expect(l).to.deep.equal({
          listing_id: id,
          token_type: "sSTB",
          seller: onChain.seller,
          amount: sstb(onChain.amount),
          amount_base_units: onChain.amount.toString(),
          price_per_token: Number(formatUnits(onChain.pricePerToken, 6)),
          price_per_token_base_units: onChain.pricePerToken.toString(),
          created_at: Number(onChain.listedAt),
          status,
        });
      }
      expectError(await http.get("/api/v1/marketplace/listings/99"), "resource_not_found", 404);
      expectError(await http.get("/api/v1/marketplace/listings/x"), "invalid_parameter", 400, "listing_id");
    });

    it("feeds GraphQL marketplaceActivity from the trades, newest first", async function () {
      const r = await http.graphql(
        "{ marketplaceActivity(limit: 10) { id timestamp activityType tokenType amount price buyer { id address } seller { id address } } }",
      );
      const activity = (r.body as any).data.marketplaceActivity;
      expect(activity.map((a: { activityType: string }) => a.activityType)).to.deep.equal([
        "option_exercise",
        "option_premium",
        "future_settlement",
        "spot_fill",
      ]);
      expect(activity[3]).to.deep.include({ tokenType: "sSTB", amount: 10, price: 1.5 });
      expect(activity[3].buyer).to.deep.equal({ id: user, address: user });
      expect(activity[3].seller).to.deep.equal({ id: providers.A, address: providers.A });
      expect(activity[0].timestamp).to.be.at.least(activity[3].timestamp);
      const two = await http.graphql("{ marketplaceActivity(limit: 2) { id } }");
      expect((two.body as any).data.marketplaceActivity).to.have.length(2);
    });
  });

  describe("redemptions: GET /v1/redemptions/{id}", function () {
    it("shows each redemption's status, amount, provider and on-chain deadline", async function () {
      const expected = ["confirmed", "expired", "pending", "disputed", "fulfilled"];
      for (const [i, status] of expected.entries()) {
        const id = i + 1;
        const r = await http.data(`/v1/redemptions/${id}`);
        const stored = await live.d.redemptionViews.redemptionOf(id);
        expect(r.redemption_id).to.equal(String(id));
        expect(r.status).to.equal(status);
        expect(r.sstb_amount).to.equal(sstb(stored.amount));
        expect(r.provider_id).to.equal(stored.provider);
        expect(r.user).to.equal(stored.user);
        expect(r.initiated_at).to.equal(Number(stored.timestamp));
        expect(r.estimated_fulfillment_time).to.equal(Number(stored.deadline));
        expect(r.fulfilled_at).to.equal(stored.fulfilledAt === 0n ? null : Number(stored.fulfilledAt));
      }
      expectError(await http.get("/v1/redemptions/99"), "resource_not_found", 404);
      expectError(await http.get("/v1/redemptions/0"), "invalid_parameter", 400, "redemptionId");
    });
  });

  describe("sSTB balance and verification", function () {
    it("gives the key's account its sSTB balance, as a number and exactly", async function () {
      const b = await http.data("/v1/sstb/balance");
      const onChain = await live.d.sstb.balanceOf(user);
      expect(b.account).to.equal(user);
      expect(b.sstb_balance_base_units).to.equal(onChain.toString());
      expect(b.sstb_balance).to.equal(sstb(onChain));
      expect(b.balances).to.deep.equal([
        {
          chain: "arbitrum",
          native_chain_id: 42161,
          sstb_balance: sstb(onChain),
          sstb_balance_base_units: onChain.toString(),
        },
      ]);
      const { token } = await gw.keys.create({ tier: "standard", account: providers.B });
      const other = await http.get("/v1/sstb/balance", { token });
      expect((other.body as any).data.sstb_balance_base_units).to.equal(
        (await live.d.sstb.balanceOf(providers.B)).toString(),
      );
    });

    it("shows the verification of each unit under its cuHash, with the proof that was consumed", async function () {
      const unit = await live.d.cuToken.computeUnit(2);
      const v = await http.data(`/api/v1/verification/${unit.cuHash}`);
      expect(v).to.include({
        verification_id: unit.cuHash,
        provider_id: providers.B,
        verification_method: "attestation",
        status: "verified",
      });
      expect(v.created_at).to.equal(Number(unit.verifiedAt));
      expect(v.verified_at).to.equal(Number(unit.verifiedAt));
      const [attestation] = AbiCoder.defaultAbiCoder().decode(
        [
          "tuple(address,bytes32,uint256,tuple(uint32,uint32,uint32,uint32,uint24,uint24,uint24,uint24),uint64,uint256)",
          "bytes[]",
        ],
        v.proof,
      );
      expect(attestation[1]).to.equal(unit.cuHash);
      expect(attestation[2]).to.equal(parseEther("40"));
      expect(await http.data(`/api/v1/verification/${unit.cuHash.toUpperCase().replace("0X", "0x")}`)).to.deep.equal(v);
      expectError(await http.get(`/api/v1/verification/0x${"ab".repeat(32)}`), "resource_not_found", 404);
      expectError(await http.get("/api/v1/verification/42"), "invalid_parameter", 400, "verification_id");
    });

    it("lists the deployment's chains for the bridge with total, page and limit like every list", async function () {
      const data = await http.data("/api/v1/bridge/chains");
      expect(
        data.chains.map((c: { chain_id: string; native_chain_id: number }) => [c.chain_id, c.native_chain_id]),
      ).to.deep.equal([
        ["arbitrum", 42161],
        ["ethereum", 1],
      ]);
      expect(data.chains[0]).to.include({ name: "Arbitrum One", is_evm_compatible: true });
      expect([data.total, data.page, data.limit]).to.deep.equal([2, 1, 20]);
      const second = await http.data("/v1/bridge/chains?page=2&limit=1");
      expect(second.chains.map((c: { chain_id: string }) => c.chain_id)).to.deep.equal(["ethereum"]);
      expect([second.total, second.page, second.limit]).to.deep.equal([2, 2, 1]);
      expectError(await http.get("/api/v1/bridge/chains?limit=101"), "invalid_parameter", 400, "limit");
    });
  });

  describe("bridge: GET /api/v1/bridge/fees and /bridge/status/:message_id", function () {
    let sent: { messageId: string; txHash: string };
    const hooks = new TestReceiver();

    before(async function () {
      // the user's receiver hears of its transfer on both chains (webhooks bridge.message_sent / _received)
      await hooks.start();
      const { token } = await gw.keys.create({ tier: "premium", account: user, scopes: ["read", "write"] });
      const subscribed = await new HttpClient(gw.url, token).request("POST", "/api/v1/webhooks", {
        body: JSON.stringify({
          url: hooks.url,
          events: ["bridge.message_sent", "bridge.message_received"],
          own_events_only: true,
        }),
        headers: { "content-type": "application/json" },
      });
      expect(subscribed.status, subscribed.text).to.equal(201);
      hooks.secrets = [(subscribed.body as { data: { secret: string } }).data.secret];
      sent = await bridgeSstbToEthereum(live, live.signers[ROLE.user], parseEther("2.5"));
      await gw.synced();
    });

    after(async function () {
      await hooks.stop();
    });

    it("quotes every fee option and the transport fee as the source chain's bridge does", async function () {
      const { bridge, sstb: token, collateral, governanceToken } = live.d;
      for (const [symbol, address, amount] of [
        ["sSTB", await token.getAddress(), 100],
        ["STBGOV", await governanceToken.getAddress(), 0.5],
      ] as const) {
        const q = await bridge.quoteFee(chainSelectorOf(1n), address, parseEther(String(amount)));
        const expected = {
          source_chain: "arbitrum",
          destination_chain: "ethereum",
          token: symbol,
          amount,
          amount_base_units: parseEther(String(amount)).toString(),
          fees: {
            default: {
              token: await collateral.symbol(),
              amount: Number(formatUnits(q.defaultFee, 6)),
              amount_base_units: q.defaultFee.toString(),
            },
            service: {
              token: "sSTB",
              amount: sstb(q.serviceFee),
              amount_base_units: q.serviceFee.toString(),
              discount: `${Number(q.serviceDiscountBps) / 100}%`,
            },
            stb_gov: {
              token: "STBGOV",
              amount: sstb(q.governanceFee),
              amount_base_units: q.governanceFee.toString(),
              discount: `${Number(q.governanceDiscountBps) / 100}%`,
            },
          },
          transport_fee: { token: "ETH", amount: sstb(q.transportFee), amount_base_units: q.transportFee.toString() },
        };
        expect(q.defaultFee).to.be.greaterThan(0n); // the devnet's prices are not all zero: the comparison means something
        for (const prefix of ["/api/v1", "/v1"]) {
          const path = `${prefix}/bridge/fees?source_chain=arbitrum&destination_chain=ethereum&amount=${amount}&token=${symbol}`;
          expect(await http.data(path)).to.deep.equal(expected);
        }
      }
      expect(
        await http.data("/api/v1/bridge/fees?source_chain=ethereum&destination_chain=arbitrum&amount=1"),
      ).to.include({
        source_chain: "ethereum",
        destination_chain: "arbitrum",
        token: "sSTB",
      });
    });

    it("refuses a quote for an unknown chain, a route to itself, a bad amount or a missing parameter", async function () {
      const base = "/api/v1/bridge/fees?";
      for (const [query, parameter] of [
        ["source_chain=solana&destination_chain=ethereum&amount=1", "source_chain"],
        ["source_chain=arbitrum&destination_chain=polygon&amount=1", "destination_chain"],
        ["source_chain=arbitrum&destination_chain=arbitrum&amount=1", "destination_chain"],
        ["source_chain=arbitrum&destination_chain=ethereum&amount=0", "amount"],
        ["source_chain=arbitrum&destination_chain=ethereum&amount=-1", "amount"],
        ["source_chain=arbitrum&destination_chain=ethereum&amount=0.0000000000000000001", "amount"],
        ["source_chain=arbitrum&destination_chain=ethereum&amount=1e90", "amount"],
        ["source_chain=arbitrum&destination_chain=ethereum&amount=abc", "amount"],
        ["source_chain=arbitrum&destination_chain=ethereum", "amount"],
        ["destination_chain=ethereum&amount=1", "source_chain"],
        ["source_chain=arbitrum&destination_chain=ethereum&amount=1&token=USDC", "token"],
      ] as const) {
        expectError(await http.get(base + query), "invalid_parameter", 400, parameter);
      }
    });

    it("shows a sent transfer as pending until the destination has it, then completed with both transactions", async function () {
      const pending = await http.data(`/api/v1/bridge/status/${sent.messageId}`);
      const sentAt = (await live.rpc.getTransactionReceipt(sent.txHash))!.blockNumber;
      const sentTime = (await live.rpc.getBlock(sentAt))!.timestamp;
      expect(pending).to.deep.equal({
        message_id: sent.messageId,
        source_chain: "arbitrum",
        destination_chain: "ethereum",
        token: "sSTB",
        amount: 2.5,
        amount_base_units: parseEther("2.5").toString(),
        sender: user,
        recipient: user,
        status: "pending",
        fee_option: "default",
        created_at: sentTime,
        completed_at: null,
        source_transaction: sent.txHash,
        destination_transaction: null,
        queue: null,
      });

      const relayed = await relayMessages(live);
      const delivery = relayed.find((m) => m.messageId === sent.messageId);
      expect(delivery?.state).to.equal("success");
      await gw.synced();
      const done = await http.data(`/v1/bridge/status/${sent.messageId}`);
      expect(done).to.include({ status: "completed", destination_transaction: delivery!.transactionHash });
      // the destination's block time (the two devnet chains' clocks differ: the tests move arbitrum's forward)
      const ethereum = new JsonRpcProvider(live.nodes[1].url, 1, { staticNetwork: true });
      const arrival = (await ethereum.getTransactionReceipt(delivery!.transactionHash))!;
      expect(done.completed_at).to.equal((await ethereum.getBlock(arrival.blockNumber))!.timestamp);
      ethereum.destroy();
      expect({ ...done, status: "pending", completed_at: null, destination_transaction: null }).to.deep.equal(pending);
      // the same URL as before the delivery: the indexer's commit dropped the cached pending answer
      expect(await http.data(`/api/v1/bridge/status/${sent.messageId}`)).to.deep.equal(done);
      // both sides announced, signed, with the status route's names
      const common = {
        message_id: sent.messageId,
        source_chain: "arbitrum",
        destination_chain: "ethereum",
        token: "sSTB",
        amount: 2.5,
        amount_base_units: parseEther("2.5").toString(),
        sender: user,
        recipient: user,
      };
      await hooks.waitFor((all) => all.some((r) => r.event === "bridge.message_received"));
      expect(hooks.of("bridge.message_sent").map((r) => r.payload.data)).to.deep.equal([
        { ...common, fee_option: "default", transactionHash: sent.txHash },
      ]);
      expect(hooks.of("bridge.message_received").map((r) => r.payload.data)).to.deep.equal([
        { ...common, status: "completed", transactionHash: delivery!.transactionHash },
      ]);
      // the id in decimal (the spec documents it as a number) names the same transfer
      expect(await http.data(`/api/v1/bridge/status/${BigInt(sent.messageId).toString()}`)).to.deep.equal(done);
    });

    it("shows a queued transfer's place in its queue, what waits before it and when it can complete, live as anyone delivers", async function () {
      // ethereum lets in at most 1 sSTB from arbitrum, refilling 0.1 a second (its governance, the executor)
      const [, ethereumRecord] = parseDeploymentFile(readFileSync(live.deploymentFile, "utf8"));
      const ethereum = new JsonRpcProvider(live.nodes[1].url, 1, { staticNetwork: true, cacheTimeout: -1 });
      const executor = ethereumRecord.contracts.SatelliteExecutor;
      await ethereum.send("hardhat_impersonateAccount", [executor]);
      await ethereum.send("hardhat_setBalance", [executor, `0x${parseEther("1").toString(16)}`]);
      const bridge = Bridge__factory.connect(ethereumRecord.contracts.Bridge, new JsonRpcSigner(ethereum, executor));
      const fromArbitrum = chainSelectorOf(42161n);
      const limit = { enabled: true, capacity: parseEther("1"), rate: parseEther("0.1") };
      await (await bridge.setRateLimit(fromArbitrum, 0, false, limit)).wait();
      // two transfers arrive: 1.5 (more than the capacity: it waits, delivered in two installments), then 0.5
      const first = await bridgeSstbToEthereum(live, live.signers[ROLE.user], parseEther("1.5"));
      const second = await bridgeSstbToEthereum(live, live.signers[ROLE.user], parseEther("0.5"));
      const relayed = await relayMessages(live);
      expect(relayed.filter((m) => m.state === "success").map((m) => m.messageId)).to.include.members([
        first.messageId,
        second.messageId,
      ]);
      await gw.synced();

      const chainNow = async () => BigInt((await ethereum.getBlock("latest"))!.timestamp);
      const available = async () => (await bridge.rateLimitOf(fromArbitrum, 0, false)).available;
      const queueOf = async (messageId: string) => {
        const t = await http.data(`/api/v1/bridge/status/${messageId}`);
        expect(t.status, messageId).to.equal("queued");
        return t.queue;
      };
      const sstbOf = (wei: bigint) => ({ amount: Number(formatEther(wei)), base: wei.toString() });
      const expectQueue = async (
        messageId: string,
        e: { position: number; remaining: bigint; before: bigint; executable: boolean; next: bigint },
      ) => {
        const q = await queueOf(messageId);
        const [now, level] = [await chainNow(), await available()];
        // every amount here is a multiple of the refill (0.1 a second) and the capacity (1) too: the bucket never
        // overshoots its capacity, so the installments take (what is left to pass - what it holds) / rate seconds
        const needed = e.before + e.remaining - level;
        const completesAt = needed <= 0n ? now : now + (needed + limit.rate - 1n) / limit.rate;
        expect(q).to.deep.equal({
          position: e.position,
          remaining: sstbOf(e.remaining).amount,
          remaining_base_units: sstbOf(e.remaining).base,
          waiting_before: sstbOf(e.before).amount,
          waiting_before_base_units: sstbOf(e.before).base,
          rate_limited: true,
          available: sstbOf(level).amount,
          available_base_units: sstbOf(level).base,
          capacity: 1,
          capacity_base_units: limit.capacity.toString(),
          refill_per_second: 0.1,
          refill_per_second_base_units: limit.rate.toString(),
          paused: false,
          paused_until: null,
          executable_now: e.executable,
          next_installment: sstbOf(e.next).amount,
          next_installment_base_units: sstbOf(e.next).base,
          completes_at: Number(completesAt),
          as_of: Number(now),
        });
      };
      // the first heads its queue: its next delivery is one capacity's worth, and the bucket holds it
      await expectQueue(first.messageId, {
        position: 0,
        remaining: parseEther("1.5"),
        before: 0n,
        executable: true,
        next: parseEther("1"),
      });
      // the second waits behind it, whatever the bucket holds
      await expectQueue(second.messageId, {
        position: 1,
        remaining: parseEther("0.5"),
        before: parseEther("1.5"),
        executable: false,
        next: parseEther("0.5"),
      });

      // anyone delivers the first's first installment: what waits before the second is read live (0.5 left)
      const anyone = new JsonRpcSigner(ethereum, live.signers[ROLE.providerD].address);
      await (await bridge.connect(anyone).executeQueued(first.messageId)).wait();
      await gw.synced();
      await expectQueue(second.messageId, {
        position: 1,
        remaining: parseEther("0.5"),
        before: parseEther("0.5"),
        executable: false,
        next: parseEther("0.5"),
      });
      const firstQueue = await queueOf(first.messageId);
      expect(firstQueue).to.include({ position: 0, remaining: 0.5, executable_now: false });
      // at the time it named, the first is delivered (by then the bucket holds its 0.5), and is completed
      await ethereum.send("evm_setNextBlockTimestamp", [firstQueue.completes_at]);
      await (await bridge.connect(anyone).executeQueued(first.messageId)).wait();
      await gw.synced();
      const firstDone = await http.data(`/api/v1/bridge/status/${first.messageId}`);
      expect(firstDone).to.include({ status: "completed", queue: null });
      // the second is next
      await expectQueue(second.messageId, {
        position: 0,
        remaining: parseEther("0.5"),
        before: 0n,
        executable: false,
        next: parseEther("0.5"),
      });
      ethereum.destroy();
    });

    it("answers resource_not_found for an unknown message id and invalid_parameter for a malformed one", async function () {
      expectError(await http.get(`/api/v1/bridge/status/0x${"12".repeat(32)}`), "resource_not_found", 404);
      expectError(await http.get("/api/v1/bridge/status/abc"), "invalid_parameter", 400, "message_id");
      expectError(await http.get(`/api/v1/bridge/status/${"9".repeat(78)}`), "invalid_parameter", 400, "message_id");
    });
  });

  describe("API keys", function () {
    it("accepts a key as a Bearer header or as ?api_key=", async function () {
      expect((await http.get("/api/v1/cu/list")).status).to.equal(200);
      expect((await http.get(`/api/v1/cu/list?api_key=${http.token}&limit=1`, { token: null })).status).to.equal(200);
      expect(
        (
          await http.get(`/api/v1/cu/list?limit=1&api_key=${http.token}`, {
            token: null,
            headers: { authorization: "Bearer x" },
          })
        ).status,
      ).to.equal(401);
    });

    it("refuses a missing, malformed, forged, revoked or expired key with authentication_error", async function () {
      expectError(await http.get("/api/v1/cu/list", { token: null }), "authentication_error", 401);
      expectError(await http.get("/api/v1/cu/list", { token: "not-a-jwt" }), "authentication_error", 401);
      expectError(
        await http.get("/api/v1/cu/list", { token: null, headers: { authorization: "Basic abc" } }),
        "authentication_error",
        401,
      );
      const [header, payload] = http.token!.split(".");
      expectError(
        await http.get("/api/v1/cu/list", { token: `${header}.${payload}.${"A".repeat(43)}` }),
        "authentication_error",
        401,
      );
      const { token: revoked, key } = await gw.keys.create({ tier: "standard", account: user });
      expect((await http.get("/api/v1/cu/list", { token: revoked })).status).to.equal(200);
      expect(await gw.keys.revoke(key.keyId)).to.equal(true);
      expectError(await http.get("/api/v1/cu/list", { token: revoked }), "authentication_error", 401);
      // a key of 2 s: its `exp` counts whole seconds from a rounded-down issue time, so it lives 1 to 2 s (one of
      // 1 s could expire at once); it is used at once, then again past its `exp`
      const { token: shortLived } = await gw.keys.create({ tier: "standard", account: user, expiresIn: 2 });
      expect((await http.get("/api/v1/cu/list", { token: shortLived })).status).to.equal(200);
      const { exp } = JSON.parse(Buffer.from(shortLived.split(".")[1], "base64url").toString()) as { exp: number };
      await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 100));
      expectError(await http.get("/api/v1/cu/list", { token: shortLived }), "authentication_error", 401);
    });

    it("refuses a key without the read scope with authorization_error", async function () {
      const { token } = await gw.keys.create({ tier: "standard", account: user, scopes: ["write"] });
      expectError(await http.get("/api/v1/cu/list", { token }), "authorization_error", 403);
      const g = await http.graphql("{ marketplaceActivity(limit: 1) { id } }", {}, token);
      expectError(g, "authorization_error", 403);
    });

    it("lists keys with tier, account and scopes, and never their token", async function () {
      const keys = await gw.keys.list();
      expect(keys.length).to.be.greaterThan(2);
      expect(keys.some((k) => k.tier === "premium" && k.account === user && k.scopes.join() === "read")).to.equal(true);
      expect(JSON.stringify(keys)).to.not.contain(http.token!.split(".")[2]);
    });
  });

  describe("rate limits", function () {
    it("sends X-RateLimit-Limit, -Remaining and -Reset (Unix seconds) on every response, errors included", async function () {
      const before = Math.floor(Date.now() / 1000);
      for (const r of [
        await http.get("/api/v1/cu/list"),
        await http.get("/api/v1/cu/999"),
        await http.get("/api/v1/no-such-route"),
        await http.get("/api/v1/cu/list?limit=500"),
        await http.get("/api/v1/cu/list", { token: null }),
        await http.graphql("{ marketplaceActivity(limit: 1) { id } }"),
      ]) {
        expect(r.headers.get("x-ratelimit-limit"), `${r.path} ${r.status}`).to.match(/^\d+$/);
        expect(r.headers.get("x-ratelimit-remaining"), r.path).to.match(/^\d+$/);
        const reset = Number(r.headers.get("x-ratelimit-reset"));
        expect(reset, r.path).to.be.within(before, before + 61);
      }
      expect((await http.get("/api/v1/cu/list")).headers.get("x-ratelimit-limit")).to.equal("500"); // premium
      const { token } = await gw.keys.create({ tier: "standard", account: user });
      expect((await http.get("/api/v1/cu/list", { token })).headers.get("x-ratelimit-limit")).to.equal("100");
    });

    it("answers rate_limit_exceeded (429) past the key's limit, per key", async function () {
      const { token } = await gw.keys.create({ tier: "enterprise", account: user, rateLimit: 5 });
      const remaining: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await http.get("/api/v1/cu/list?limit=1", { token });
        expect(r.status).to.equal(200);
        remaining.push(r.headers.get("x-ratelimit-remaining")!);
      }
      expect(remaining).to.deep.equal(["4", "3", "2", "1", "0"]);
      const refused = await http.get("/api/v1/cu/list?limit=1", { token });
      expectError(refused, "rate_limit_exceeded", 429);
      expect(refused.headers.get("x-ratelimit-limit")).to.equal("5");
      expectError(
        await http.graphql("{ marketplaceActivity(limit: 1) { id } }", {}, token),
        "rate_limit_exceeded",
        429,
      );
      expect((await http.get("/api/v1/cu/list?limit=1")).status).to.equal(200); // another key is not affected
    });
  });

  // With REDIS_URL, instances share the counters: two gateways in front of one store and one Redis
  // allow a key its limit once in total (runs where redis-server is installed; .ci/run installs it)
  if (REDIS_SERVER !== undefined) {
    describe("rate limits shared through Redis (REDIS_URL)", function () {
      it("counts a key's requests across two gateway instances", async function () {
        const server = await LocalRedis.start();
        const clients: Redis[] = [];
        const apps: Array<Awaited<ReturnType<typeof buildApp>>> = [];
        try {
          for (let i = 0; i < 2; i++) {
            const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
            clients.push(redis);
            const app = await buildApp({
              model: new ReadModel(gw.store.db, 42161),
              chains: gw.chains,
              chainLabels: CHAIN_LABELS,
              bridges: new BridgeReader(gw.chains),
              keys: gw.keys,
              redis,
              activity: { activity: async () => [] },
              health: () => ({}),
            });
            await app.listen({ host: "127.0.0.1", port: 0 });
            apps.push(app);
          }
          const { token } = await gw.keys.create({ tier: "enterprise", account: user, rateLimit: 10 });
          const statuses: number[] = [];
          for (let i = 0; i < 14; i++) {
            const address = apps[i % 2].server.address() as { port: number };
            const r = await fetch(`http://127.0.0.1:${address.port}/api/v1/cu/list?limit=1`, {
              headers: { authorization: `Bearer ${token}` },
            });
            statuses.push(r.status);
          }
          expect(statuses.filter((s) => s === 200)).to.have.length(10);
          expect(statuses.slice(10)).to.deep.equal([429, 429, 429, 429]);
        } finally {
          for (const app of apps) await app.close();
          for (const c of clients) c.disconnect();
          server.stop();
        }
      });
    });
  }

  describe("GraphQL: POST /graphql", function () {
    it("answers provider(id) with the spec's field names", async function () {
      const query = `query($id: ID!) { provider(id: $id) { id name reputation totalComputeValue verificationMethod joinedAt
        computeResources { id resourceId specifications { cpuCores memoryGB storageGB bandwidthMbps } verificationMethod
          stakingPeriod collateralization price priceBaseUnits expirationDate } totalComputeValueBaseUnits } }`;
      const r = await http.graphql(query, { id: providers.B });
      expect(r.status, r.text).to.equal(200);
      const p = (r.body as any).data.provider;
      const info = await live.d.registry.providerInfo(providers.B);
      expect(p).to.include({ id: providers.B, name: "Borealis Cloud", verificationMethod: "attestation" });
      expect(p.reputation).to.equal(Number(info.account.reputation) / 100);
      expect(p.totalComputeValue).to.equal(sstb(info.account.totalCU));
      expect(p.totalComputeValueBaseUnits).to.equal(info.account.totalCU.toString());
      expect(p.joinedAt).to.equal(Number(info.account.registeredAt));
      expect(p.computeResources).to.have.length(2);
      const unit = await live.d.cuToken.computeUnit(3);
      expect(p.computeResources[1]).to.deep.equal({
        id: "3",
        resourceId: unit.cuHash,
        specifications: {
          cpuCores: 128,
          memoryGB: 1024,
          storageGB: Number(unit.specs.storageGb),
          bandwidthMbps: Number(unit.specs.networkMbps),
        },
        verificationMethod: "attestation",
        stakingPeriod: 30 * 86_400,
        collateralization: 1.2,
        price: 250.5,
        priceBaseUnits: parseEther("250.5").toString(),
        expirationDate: Number(unit.verifiedAt) + 30 * 86_400,
      });
      const none = await http.graphql(`{ provider(id: "${getAddress("0x" + "56".repeat(20))}") { id } }`);
      expect((none.body as any).data.provider).to.equal(null);
    });

    it("answers marketplaceActivity(limit) with the spec's field names", async function () {
      const r = await http.graphql(
        "{ marketplaceActivity(limit: 10) { id timestamp activityType tokenType amount price buyer { id address } seller { id address } } }",
      );
      expect(r.status, r.text).to.equal(200);
      expect((r.body as any).data.marketplaceActivity).to.be.an("array");
    });

    it("answers bad queries and arguments with the error envelope and GraphQL errors", async function () {
      for (const [body, code, status] of [
        [JSON.stringify({ query: "{ nope }" }), "invalid_parameter", 400],
        [JSON.stringify({ query: "{ provider(id: " }), "invalid_parameter", 400],
        // a field error beside data (provider is nullable): GraphQL's partial result, 200
        [JSON.stringify({ query: '{ provider(id: "acme") { id } }' }), "invalid_parameter", 200],
        [JSON.stringify({ query: "{ marketplaceActivity(limit: 0) { id } }" }), "invalid_parameter", 400],
        [JSON.stringify({ query: "{ marketplaceActivity(limit: 1000) { id } }" }), "invalid_parameter", 400],
        [JSON.stringify({ variables: {} }), "invalid_parameter", 400],
        ["{not json", "invalid_parameter", 400],
      ] as const) {
        const r = await http.request("POST", "/graphql", { body, headers: { "content-type": "application/json" } });
        expect(r.status, `${body}: ${r.text}`).to.equal(status);
        const b = r.body as any;
        expect(b.errors?.[0]?.extensions?.code ?? b.error?.code, r.text).to.equal(code);
        expect(r.text).to.not.match(/at .*\.(ts|js):\d+/);
      }
      expectError(
        await http.graphql("{ marketplaceActivity(limit: 1) { id } }", {}, null),
        "authentication_error",
        401,
      );
    });
  });

  describe("control characters in string parameters", function () {
    it("answers invalid_parameter for a NUL in a string filter (GET /providers/list?location=a%00b), not a 500", async function () {
      const before = logLines().length;
      for (const prefix of ["/api/v1", "/v1"]) {
        const path = prefix === "/api/v1" ? "/providers/list" : "/providers";
        const r = await http.get(`${prefix}${path}?location=a%00b`);
        const error = expectError(r, "invalid_parameter", 400, "location");
        expect(error.details.reason).to.equal("must not contain control characters (found U+0000)");
      }
      expect(logLines().slice(before).join("\n")).to.not.contain("internal error"); // no stack trace logged
      expect((await http.data("/api/v1/providers/list?location=DE")).total).to.equal(2); // the filter still works
    });

    it("refuses every control character in every parameter of every route of both prefixes, naming it", async function () {
      // the routes come from the gateway's own document, so a new route is swept without a change here
      const doc = (await http.get("/api/v1/openapi.json", { token: null })).body as any;
      const { token } = await gw.keys.create({
        tier: "enterprise",
        account: user,
        scopes: ["read", "write"],
        rateLimit: 10_000_000,
      });
      const sweeper = new HttpClient(gw.url, token);
      const controls = [...Array(0x20).keys(), 0x7f, 0x80, 0x9b, 0x9f].map((c) => String.fromCharCode(c));
      const whitespace = ["\t", "\n", "\r"];
      type Case = { method: string; path: string; body?: string; parameter: string; freeText: boolean; char: string };
      const cases: Case[] = [];
      const operations: string[] = [];
      for (const [template, item] of Object.entries(doc.paths as Record<string, any>)) {
        for (const [method, operation] of Object.entries(item as Record<string, any>)) {
          operations.push(`${method.toUpperCase()} ${template}`);
          const pathOf = (values: Record<string, string>) =>
            template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? "x"));
          const parameters = [...(operation.parameters ?? [])] as Array<{ in: string; name: string }>;
          if (template === "/graphql" && method === "get") {
            parameters.push({ in: "query", name: "query" }, { in: "query", name: "variables" });
          }
          for (const parameter of parameters) {
            for (const char of controls) {
              const value = `a${char}b`;
              const freeText = template === "/graphql" && parameter.name === "query";
              cases.push({
                method: method.toUpperCase(),
                path:
                  parameter.in === "path"
                    ? pathOf({ [parameter.name]: value })
                    : `${pathOf({})}?${parameter.name}=${encodeURIComponent(value)}`,
                parameter: parameter.name,
                freeText,
                char,
              });
            }
          }
          // body fields, one level of nesting included (GraphQL's body is {query, variables})
          const schema =
            template === "/graphql" && method === "post"
              ? {
                  properties: {
                    query: { "x-free-text": true },
                    variables: { type: "object", properties: { id: {} } },
                  },
                }
              : operation.requestBody?.content?.["application/json"]?.schema;
          const fields: Array<[string[], boolean]> = [];
          for (const [name, property] of Object.entries((schema?.properties ?? {}) as Record<string, any>)) {
            fields.push([[name], property["x-free-text"] === true]);
            for (const inner of Object.keys(property.properties ?? {})) fields.push([[name, inner], false]);
          }
          for (const [names, freeText] of fields) {
            for (const char of [...controls, "\ud800"]) {
              const body: Record<string, unknown> = {};
              if (names.length === 1) body[names[0]] = `a${char}b`;
              else body[names[0]] = { [names[1]]: `a${char}b` };
              cases.push({
                method: method.toUpperCase(),
                path: pathOf({}),
                body: JSON.stringify(body),
                parameter: names.join("."),
                freeText,
                char,
              });
            }
          }
        }
      }
      expect(operations.length, "operations in the document").to.be.greaterThan(60);
      for (const prefix of ["/api/v1", "/v1"]) {
        expect(
          operations.some((o) => o.includes(` ${prefix}/`)),
          prefix,
        ).to.equal(true);
      }
      // every documented operation is a route of the app, and under both prefixes
      for (const operation of operations) {
        const [method, template] = operation.split(" ");
        const url = template.replace(/\{([^}]+)\}/g, ":$1");
        expect(gw.app.hasRoute({ method: method as "GET", url }), operation).to.equal(true);
        if (template !== "/graphql") {
          const twin = template.startsWith("/v1/") ? `/api${template}` : template.replace(/^\/api\/v1\//, "/v1/");
          expect(operations, `${operation}'s twin`).to.include(`${method} ${twin}`);
        }
      }
      const swept = new Set(cases.map((c) => `${c.method} ${c.path.split("?")[0].replace(/a[^/]*b/, "*")}`));
      expect(swept.size).to.be.greaterThan(50);

      const refusedFor = (r: Recorded, parameter: string) =>
        r.status === 400 &&
        (r.body as any)?.error?.details?.parameter === parameter &&
        /control characters|well-formed Unicode/.test((r.body as any)?.error?.details?.reason ?? "");
      let sent = 0;
      for (let i = 0; i < cases.length; i += 16) {
        await Promise.all(
          cases.slice(i, i + 16).map(async (c) => {
            const r = await sweeper.request(c.method, c.path, {
              body: c.body,
              headers: c.body === undefined ? {} : { "content-type": "application/json" },
            });
            sent++;
            const what = `${c.method} ${c.path} ${c.body ?? ""} (U+${c.char.charCodeAt(0).toString(16)})`;
            expect(r.status, `${what}: ${r.text}`).to.be.lessThan(500);
            if (c.freeText && whitespace.includes(c.char)) {
              // tab, line feed and carriage return are text in a free-text field
              expect(refusedFor(r, c.parameter), `${what}: ${r.text}`).to.equal(false);
            } else {
              expectError(r, "invalid_parameter", 400, c.parameter);
              expect(refusedFor(r, c.parameter), `${what}: ${r.text}`).to.equal(true);
            }
          }),
        );
      }
      console.log(`      ${sent} requests over ${operations.length} operations, none answered 5xx`);
      expect(logLines().join("\n")).to.not.contain("internal error");
    });

    it("refuses control characters in the names of body fields and deep inside free-text values", async function () {
      const { token } = await gw.keys.create({ tier: "premium", account: user, scopes: ["read", "write"] });
      const writer = new HttpClient(gw.url, token);
      const post = (path: string, body: unknown) =>
        writer.request("POST", path, { body: JSON.stringify(body), headers: { "content-type": "application/json" } });
      const dispute = "/v1/redemptions/1/dispute";
      const nameError = expectError(
        await post(dispute, { issue_type: "other", description: "d", evidence: { "lo\u0000g": "x" } }),
        "invalid_parameter",
        400,
        "evidence.lo\\u0000g",
      );
      expect(nameError.details.reason).to.match(/^\(the name\) must not contain control characters/);
      const deep = expectError(
        await post(dispute, { issue_type: "other", description: "d", evidence: { log: ["ok", "esc\u001b[31m"] } }),
        "invalid_parameter",
        400,
        "evidence.log.1",
      );
      expect(deep.details.reason).to.equal(
        "must not contain control characters other than tab, line feed and carriage return (found U+001B)",
      );
      expectError(await post("/api/v1/webhooks", { "u\u0007rl": "x" }), "invalid_parameter", 400, "u\\u0007rl");
      // GraphQL variables sent with GET are JSON text: their strings are checked too
      const variables = encodeURIComponent(JSON.stringify({ id: "0x\u0000" }));
      expectError(
        await writer.get(
          `/graphql?query=${encodeURIComponent("query($id: ID!) { provider(id: $id) { id } }")}&variables=${variables}`,
        ),
        "invalid_parameter",
        400,
        "variables.id",
      );
    });
  });

  describe("path parameters beyond the router's limit and malformed URLs: like any request", function () {
    it("authenticates, counts and rate-limits them, then answers invalid_parameter", async function () {
      const long = `/api/v1/cu/${"1".repeat(201)}`;
      const malformed = "/api/v1/cu/%E0%A4%A";
      for (const path of [long, `/v1/providers/${"a".repeat(5000)}`, malformed]) {
        // without a key: 401 with the rate-limit headers, as any request
        const anonymous = await http.get(path, { token: null });
        expectError(anonymous, "authentication_error", 401);
        expect(anonymous.headers.get("x-ratelimit-limit"), path).to.equal("100");
        expect(anonymous.headers.get("x-ratelimit-remaining"), path).to.match(/^\d+$/);
      }
      const { token } = await gw.keys.create({ tier: "enterprise", account: user, rateLimit: 4 });
      const remaining: string[] = [];
      for (const [path, parameter] of [
        [long, "cu_id"],
        [`/v1/providers/${"a".repeat(5000)}`, "providerId"],
        [malformed, "url"],
        [`${malformed}?limit=1`, "url"],
      ] as const) {
        const r = await http.get(path, { token });
        expectError(r, "invalid_parameter", 400, parameter);
        remaining.push(r.headers.get("x-ratelimit-remaining")!);
        expect(Number(r.headers.get("x-ratelimit-reset"))).to.be.greaterThan(Date.now() / 1000 - 1);
      }
      expect(remaining).to.deep.equal(["3", "2", "1", "0"]); // each one counted against the key
      expectError(await http.get(long, { token }), "rate_limit_exceeded", 429);
      expectError(await http.get(malformed, { token }), "rate_limit_exceeded", 429);
      // a scope is still required: a write-only key may not read, whatever the URL
      const { token: writeOnly } = await gw.keys.create({ tier: "standard", account: user, scopes: ["write"] });
      expectError(await http.get(long, { token: writeOnly }), "authorization_error", 403);
      // the route that takes malformed URLs is not a route of its own
      expectError(await http.get("/__malformed-url"), "resource_not_found", 404);
    });
  });

  describe("request ids", function () {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

    it("names every response with X-Request-Id, errors and public routes included", async function () {
      const responses = [
        await http.get("/api/v1/cu/list"),
        await http.get("/v1/cu/999"),
        await http.get("/api/v1/no-such-route"),
        await http.get("/api/v1/cu/list?limit=500"),
        await http.get("/api/v1/cu/list", { token: null }),
        await http.get("/api/v1/cu/%E0%A4%A"),
        await http.get("/api/v1/openapi.json", { token: null }),
        await http.get("/health", { token: null }),
        await http.graphql("{ marketplaceActivity(limit: 1) { id } }"),
      ];
      const ids = responses.map((r) => r.headers.get("x-request-id"));
      for (const [i, id] of ids.entries()) expect(id, responses[i].path).to.match(uuid);
      expect(new Set(ids).size).to.equal(ids.length);
    });

    it("keeps a sane X-Request-Id the client sent and replaces anything else", async function () {
      const mine = "client-req_42:7f3a.b/c+d=";
      expect(
        (await http.get("/api/v1/cu/list", { headers: { "x-request-id": mine } })).headers.get("x-request-id"),
      ).to.equal(mine);
      for (const bad of ["x".repeat(129), "two words", "semi;colon", "<script>"]) {
        const r = await http.get("/api/v1/cu/list", { headers: { "x-request-id": bad } });
        expect(r.headers.get("x-request-id"), bad).to.match(uuid);
      }
    });

    it("writes a JSON line per request with its id, level, route, status and key id, never the key", async function () {
      const r = await http.get(`/api/v1/providers/list?limit=2&api_key=${http.token}`, { token: null });
      const id = r.headers.get("x-request-id")!;
      const failed = await http.get("/v1/cu/999", { headers: { "x-request-id": "trace-me-1" } });
      await new Promise((resolve) => setTimeout(resolve, 50)); // onResponse runs after the answer is sent
      const line = requestLines().find((l) => l.reqId === id);
      expect(line, JSON.stringify(requestLines().slice(-5))).to.include({
        level: "info",
        service: "gateway",
        method: "GET",
        url: "/api/v1/providers/list?limit=2&api_key=[redacted]",
        route: "/api/v1/providers/list",
        statusCode: 200,
      });
      expect(line!.keyId).to.match(/^[0-9a-f-]{36}$/);
      expect(line!.responseTime).to.be.a("number");
      expect(Date.parse(line!.time)).to.be.closeTo(Date.now(), 60_000);
      expect(JSON.stringify(line)).to.not.contain(http.token!);
      expect(failed.status).to.equal(404);
      expect(requestLines().find((l) => l.reqId === "trace-me-1")).to.include({
        url: "/v1/cu/999",
        route: "/v1/cu/:cu_id",
        statusCode: 404,
      });
      expect(logged.some((l) => JSON.stringify(l).includes(http.token!))).to.equal(false);
    });
  });

  describe("the calling key: GET /api/v1/me and /v1/me", function () {
    it("shows the key's account, tier, scopes, expiry and what is left of its budget", async function () {
      const { token, key } = await gw.keys.create({
        tier: "standard",
        account: providers.A,
        scopes: ["read"],
        label: "checker",
        expiresIn: 3600,
      });
      const first = await http.get("/api/v1/me", { token });
      const me = dataOf(first);
      expect(me).to.deep.equal({
        key_id: key.keyId,
        account: providers.A,
        tier: "standard",
        scopes: ["read"],
        label: "checker",
        created_at: key.createdAt,
        expires_at: key.createdAt + 3600,
        rate_limit: {
          limit: 100,
          remaining: Number(first.headers.get("x-ratelimit-remaining")),
          reset: Number(first.headers.get("x-ratelimit-reset")),
        },
      });
      expect(me.rate_limit.remaining).to.equal(99); // this request counted
      const second = dataOf(await http.get("/v1/me", { token }));
      expect(second.rate_limit.remaining).to.equal(98);
      expect(second.key_id).to.equal(key.keyId);
    });

    it("answers a key of any scope, and refuses a missing or revoked one", async function () {
      const { token, key } = await gw.keys.create({
        tier: "enterprise",
        account: user,
        scopes: ["write"],
        rateLimit: 7,
      });
      const me = dataOf(await http.get("/api/v1/me", { token }));
      expect(me).to.deep.include({ scopes: ["write"], tier: "enterprise", expires_at: null });
      expect(me.rate_limit.limit).to.equal(7);
      expectError(await http.get("/api/v1/me", { token: null }), "authentication_error", 401);
      await gw.keys.revoke(key.keyId);
      expectError(await http.get("/api/v1/me", { token }), "authentication_error", 401);
    });
  });

  describe("the deployment: GET /api/v1/deployment", function () {
    it("shows every chain and its contracts, so a provider finds the AttestationVerifier of its EIP-712 domain", async function () {
      const deployment = await http.data("/api/v1/deployment");
      const file = parseDeploymentFile(readFileSync(live.deploymentFile, "utf8"));
      expect(deployment.environment).to.equal("devnet");
      expect(deployment.primary_chain).to.equal("arbitrum");
      expect(deployment.chains.map((c: any) => [c.chain_id, c.native_chain_id, c.primary])).to.deep.equal([
        ["arbitrum", 42161, true],
        ["ethereum", 1, false],
      ]);
      const arbitrum = deployment.chains[0];
      expect(arbitrum.contracts.AttestationVerifier).to.equal(await live.d.verifier.getAddress());
      expect(arbitrum.contracts.RedemptionManager).to.equal(await live.d.redemptionManager.getAddress());
      expect(JSON.stringify(deployment)).to.not.contain("127.0.0.1"); // RPC URLs may carry secrets: never shown
      expect(Object.keys(arbitrum.contracts).length).to.be.greaterThan(5);
      // every contract of the deployment file, as it names them
      expect(deployment.chains.map((c: any) => c.contracts)).to.deep.equal(file.map((c) => c.contracts));
      expect(await http.data("/v1/deployment")).to.deep.equal(deployment);
    });

    it("gives the portal every chain with its contracts and the RPC URL a devnet wallet adds (/portal/config.json)", async function () {
      const config = (await (await fetch(`${gw.url}/portal/config.json`)).json()) as any;
      const file = parseDeploymentFile(readFileSync(live.deploymentFile, "utf8"));
      expect(config.chains.map((c: any) => [c.name, c.label, c.chain_id])).to.deep.equal([
        ["arbitrum", "Arbitrum One", 42161],
        ["ethereum", "Ethereum", 1],
      ]);
      expect(config.chains[0]).to.deep.equal(config.chain); // the primary first, as `chain` describes it
      const ethereum = config.chains[1];
      expect(ethereum.wallet_rpc_urls).to.deep.equal([live.nodes[1].url]);
      expect(ethereum.native_currency).to.deep.equal({ name: "Ether", symbol: "ETH", decimals: 18 });
      const satellite = file.find((c) => c.chain === "ethereum")!.contracts;
      expect(ethereum.contracts.Bridge).to.equal(satellite.Bridge);
      expect(ethereum.contracts.SSTB).to.equal(satellite.SSTB);
      // implementations are not for the portal
      expect(Object.keys(ethereum.contracts).filter((name) => name.endsWith("Implementation"))).to.deep.equal([]);
    });
  });

  describe("OpenAPI 3.1 document at /api/v1/openapi.json", function () {
    it("lists every read route under both prefixes, and the docs page is served", async function () {
      const doc = (await http.get("/api/v1/openapi.json", { token: null })).body as any;
      expect(doc.openapi).to.equal("3.1.0");
      for (const prefix of ["/api/v1", "/v1"]) {
        for (const path of [
          "/cu/list",
          "/cu/{cu_id}",
          "/providers/list",
          "/providers/{providerId}",
          "/bridge/chains",
          "/verification/{verification_id}",
          "/redemptions/{redemptionId}",
          "/compute-resources",
          "/compute-resources/{resourceId}",
          "/compute-resources/provider/{providerId}",
          "/providers",
          "/providers/{providerId}/compute-resources",
          "/sstb/balance",
          "/marketplace/listings",
          "/marketplace/listings/{listing_id}",
        ]) {
          expect(doc.paths, prefix + path).to.have.property(prefix + path);
        }
      }
      // what Redocly's recommended rules ask for (npm run lint:openapi runs them): servers, a licence,
      // and a stable, unique operationId on every operation, the /v1 twin's with the suffix Short
      expect(doc.servers).to.deep.equal([{ url: "/", description: "the gateway serving this document" }]);
      expect(doc.info.license).to.deep.equal({ name: "MIT", identifier: "MIT" });
      const ids = new Map<string, string>();
      for (const [path, item] of Object.entries(doc.paths as Record<string, any>)) {
        for (const [method, operation] of Object.entries(item as Record<string, any>)) {
          expect(operation.operationId, `${method} ${path}`).to.match(/^[a-z][A-Za-z]+$/);
          expect(ids.has(operation.operationId), operation.operationId).to.equal(false);
          ids.set(operation.operationId, `${method} ${path}`);
          expect(
            Object.keys(operation.responses).some((status) => /^4\d\d$/.test(status)),
            path,
          ).to.equal(true);
        }
      }
      expect(doc.paths["/api/v1/cu/list"].get.operationId).to.equal("listComputeUnits");
      expect(doc.paths["/v1/cu/list"].get.operationId).to.equal("listComputeUnitsShort");
      expect(doc.paths["/v1/redemptions"].post.operationId).to.equal("initiateRedemptionShort");
      const page = await http.get("/docs", { token: null });
      expect(page.status).to.equal(200);
      expect(page.text).to.match(/swagger/i);
    });
  });

  // last: every response recorded above (and in the bad-input table) against the document
  describe("contract: every response validates against the OpenAPI document", function () {
    it("validates each recorded response body against its operation's schema for the status", async function () {
      await badInputSweep(http, providers.A);
      const doc = (await http.get("/api/v1/openapi.json", { token: null })).body as any;
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats.default(ajv);
      ajv.addSchema({ $id: "openapi.json", components: doc.components });
      const matchers = Object.keys(doc.paths).map((template) => ({
        template,
        regex: new RegExp("^" + template.replace(/\{[^}]+\}/g, "[^/]+") + "$"),
      }));
      let checked = 0;
      for (const r of http.recorded) {
        const path = r.path.split("?")[0];
        const match = matchers.find((m) => m.regex.test(path));
        if (match === undefined || r.body === undefined) continue;
        const operation = doc.paths[match.template][r.method.toLowerCase()];
        if (operation === undefined) continue;
        const response = operation.responses[String(r.status)];
        expect(
          response,
          `${r.method} ${r.path} answered ${r.status}, which its operation does not document`,
        ).to.not.equal(undefined);
        const schema = JSON.parse(
          JSON.stringify(response.content["application/json"].schema).replaceAll(
            '"#/components',
            '"openapi.json#/components',
          ),
        );
        const valid = ajv.validate(schema, r.body);
        expect(valid, `${r.method} ${r.path} ${r.status}: ${ajv.errorsText()} in ${r.text.slice(0, 300)}`).to.equal(
          true,
        );
        checked++;
      }
      expect(checked).to.be.greaterThan(100);
    });
  });
});

/** A request with a body on any method (fetch refuses a GET body), with the key as a header. */
function rawRequest(http: HttpClient, method: string, path: string, body: string, type: string): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const headers = {
      "content-type": type,
      "content-length": Buffer.byteLength(body),
      authorization: `Bearer ${http.token}`,
    };
    const request = httpRequest(http.baseUrl + path, { method, headers }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        const received = new Headers();
        for (const [k, v] of Object.entries(response.headers)) if (typeof v === "string") received.set(k, v);
        const recorded = { method, path, status: response.statusCode ?? 0, headers: received, body: parsed, text };
        http.recorded.push(recorded);
        resolve(recorded);
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * The bad-input table: every read route with malformed ids, negative and huge numbers, wrong
 * types, unknown filters, oversized and non-JSON bodies, wrong methods and content types. Each
 * must answer the error envelope with a 4xx, never a 5xx.
 */
async function badInputSweep(http: HttpClient, provider: string): Promise<void> {
  const bigString = "x".repeat(300_000);
  const cases: Array<{
    method?: string;
    path: string;
    code: string;
    status: number;
    parameter?: string;
    body?: string;
    headers?: Record<string, string>;
  }> = [];
  const lists = [
    "/cu/list",
    "/compute-resources",
    "/providers/list",
    "/providers",
    `/providers/${provider}/compute-resources`,
    `/compute-resources/provider/${provider}`,
    "/marketplace/listings",
  ];
  for (const prefix of ["/api/v1", "/v1"]) {
    for (const list of lists) {
      for (const [query, parameter] of [
        ["page=-1", "page"],
        ["page=0", "page"],
        ["page=1e400", "page"],
        ["page=99999999999999999999", "page"],
        ["page=abc", "page"],
        ["page=1.5", "page"],
        ["limit=0", "limit"],
        ["limit=101", "limit"],
        ["limit=-5", "limit"],
        ["limit=ten", "limit"],
        ["limit=", "limit"],
        ["unknown_filter=1", "unknown_filter"],
        ["page=1&page=2", "page"],
      ] as const) {
        cases.push({ path: `${prefix}${list}?${query}`, code: "invalid_parameter", status: 400, parameter });
      }
    }
    for (const [query, parameter] of [
      ["min_value=-1", "min_value"],
      ["max_value=-0.5", "max_value"],
      ["min_value=1e100", "min_value"],
      ["min_value=abc", "min_value"],
      ["max_value=NaN", "max_value"],
      ["provider_id=acme", "provider_id"],
      ["provider_id=0x123", "provider_id"],
      ["status=x", "status"],
    ] as const) {
      cases.push({ path: `${prefix}/cu/list?${query}`, code: "invalid_parameter", status: 400, parameter });
    }
    for (const [query, parameter] of [
      ["min_reputation=-1", "min_reputation"],
      ["min_reputation=1e309", "min_reputation"],
      ["min_reputation=high", "min_reputation"],
      ["status=ACTIVE", "status"],
      ["status=", "status"],
      ["location=", "location"],
      [`location=${"a".repeat(101)}`, "location"],
      ["min_value=1", "min_value"],
    ] as const) {
      cases.push({ path: `${prefix}/providers/list?${query}`, code: "invalid_parameter", status: 400, parameter });
    }
    for (const [path, parameter] of [
      ["/cu/0", "cu_id"],
      ["/cu/-1", "cu_id"],
      ["/cu/1.5", "cu_id"],
      ["/cu/abc", "cu_id"],
      ["/cu/99999999999999999999999", "cu_id"],
      ["/cu/0x10", "cu_id"],
      ["/compute-resources/abc", "resourceId"],
      ["/compute-resources/provider/abc", "providerId"],
      ["/providers/0xZZ", "providerId"],
      [`/providers/${"0x" + "g".repeat(40)}`, "providerId"],
      ["/providers/abc/compute-resources", "providerId"],
      ["/redemptions/-3", "redemptionId"],
      ["/redemptions/abc", "redemptionId"],
      ["/verification/abc", "verification_id"],
      [`/verification/0x${"a".repeat(63)}`, "verification_id"],
      ["/sstb/balance?account=0x1", "account"],
      ["/bridge/chains?x=1", "x"],
      ["/bridge/status/abc", "message_id"],
      ["/bridge/fees?source_chain=arbitrum&destination_chain=ethereum&amount=1&x=1", "x"],
    ] as const) {
      cases.push({ path: `${prefix}${path}`, code: "invalid_parameter", status: 400, parameter });
    }
    for (const path of [
      "/cu/999999",
      "/redemptions/999999",
      `/verification/0x${"0".repeat(64)}`,
      "/nope",
      "/cu",
      `/bridge/status/0x${"0".repeat(64)}`,
      "/marketplace/nope",
    ]) {
      cases.push({ path: `${prefix}${path}`, code: "resource_not_found", status: 404 });
    }
    // methods the route does not have, with and without bodies
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      cases.push({
        method,
        path: `${prefix}/cu/list`,
        code: "resource_not_found",
        status: 404,
        body: "{}",
        headers: { "content-type": "application/json" },
      });
    }
  }
  // bodies on /graphql (the one read route that takes one)
  for (const [body, headers, parameter] of [
    ["{not json", { "content-type": "application/json" }, "body"],
    ["", { "content-type": "application/json" }, "body"],
    ["query { x }", { "content-type": "text/plain" }, "content-type"],
    ["<xml/>", { "content-type": "application/xml" }, "content-type"],
    [JSON.stringify({ query: bigString }), { "content-type": "application/json" }, "body"],
    ["[1,2,3]", { "content-type": "application/json" }, undefined],
    ["null", { "content-type": "application/json" }, undefined],
    [JSON.stringify({ query: 42 }), { "content-type": "application/json" }, undefined],
  ] as const) {
    cases.push({ method: "POST", path: "/graphql", code: "invalid_parameter", status: 400, parameter, body, headers });
  }
  // oversized and non-JSON bodies sent to GET routes are not read: the route answers as usual or with 4xx, never 5xx
  for (const path of ["/api/v1/cu/list", "/v1/sstb/balance"]) {
    for (const [body, type] of [
      [bigString, "application/json"],
      ["{bad", "application/json"],
      ["plain", "text/plain"],
    ] as const) {
      const r = await rawRequest(http, "GET", path, body, type);
      expect(r.status, `${path} with a ${type} body: ${r.text}`).to.be.oneOf([200, 400]);
    }
  }
  // malformed percent-encoding and over-long paths
  cases.push({ path: "/api/v1/cu/%E0%A4%A", code: "invalid_parameter", status: 400 });
  cases.push({ path: `/api/v1/providers/${"a".repeat(5000)}`, code: "invalid_parameter", status: 400 });

  for (const c of cases) {
    const r = await http.request(c.method ?? "GET", c.path, { body: c.body, headers: c.headers });
    expect(r.status, `${c.method ?? "GET"} ${c.path}: ${r.text}`).to.be.lessThan(500);
    expectError(r, c.code, c.status, c.parameter);
  }
}
