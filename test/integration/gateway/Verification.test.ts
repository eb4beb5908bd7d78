import { writeFile } from "node:fs/promises";
import path from "node:path";

import { Ajv2020 } from "ajv/dist/2020.js";
import { expect } from "chai";
import { AbiCoder, Wallet, getAddress, parseEther } from "ethers";

import { count, eq } from "drizzle-orm";

import {
  attestationDomain,
  attestationFromJson,
  combineSignatures,
  cuValueOf,
  encodeProof,
  implausibleFigure,
  REFERENCE_SERVER,
  REFERENCE_VALUE,
  scoresFor,
  signAttestation,
} from "@compute-capacity/sdk";
import { sampleVerifierKeys } from "../../../gateway/verification/keys.js";
import { ConfigError, loadConfig } from "../../../gateway/config.js";
import { startGateway } from "../../../gateway/server.js";
import type { Gateway } from "../../../gateway/server.js";
import { verificationRequests } from "../../../gateway/store/schema.js";
import { resolveVerifierWallets } from "../../../gateway/verification/keys.js";
import { SAMPLE_SPECS, sampleProfile } from "../../../devnet/samples.js";
import {
  ROLE,
  mintUnit,
  registerProvider,
  sharedLiveDeployment,
  startTestGateway,
  testConfig,
} from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";
import { dataOf, expectError, HttpClient } from "../../helpers/http.js";
import { REFERENCE_HARDWARE, mintVerified, signedReport } from "../../helpers/verification.js";

const DAY = 86_400;
const json = { "content-type": "application/json" };

/** The malleable twin of a signature (s -> n - s, v flipped): valid for ecrecover, refused by EIP-2. */
function highS(signature: string): string {
  const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  const s = BigInt("0x" + signature.slice(66, 130));
  const v = parseInt(signature.slice(130), 16);
  return signature.slice(0, 66) + (n - s).toString(16).padStart(64, "0") + (v === 27 ? "1c" : "1b");
}

const submit = (http: HttpClient, body: unknown, token?: string | null) =>
  http.request("POST", "/api/v1/verification/submit", { body: JSON.stringify(body), headers: json, token });

describe("Valuation of a verified unit (sdk/valuation.ts)", function () {
  it("values the reference server at 100 sSTB and a unit in proportion to its scores", function () {
    expect(cuValueOf(REFERENCE_SERVER)).to.equal(REFERENCE_VALUE);
    expect(cuValueOf(SAMPLE_SPECS)).to.equal(parseEther("100")); // the demo's unit keeps its value
    expect(cuValueOf(scoresFor({ cpuCores: 32, ramGb: 128, storageGb: 2048, networkMbps: 5000 }))).to.equal(
      parseEther("50"),
    );
    // CPU carries 40% of the value: doubling its score alone adds 40 sSTB
    expect(cuValueOf({ ...REFERENCE_SERVER, cpuScore: 2 * REFERENCE_SERVER.cpuScore })).to.equal(parseEther("140"));
  });

  it("accepts scores from 20% to 150% of what the stated hardware scores at the reference rate", function () {
    expect(implausibleFigure(scoresFor(REFERENCE_HARDWARE, 2_000))).to.equal(undefined);
    expect(implausibleFigure(scoresFor(REFERENCE_HARDWARE, 15_000))).to.equal(undefined);
    expect(implausibleFigure({ ...REFERENCE_SERVER, memoryScore: 13_201 })?.parameter).to.equal(
      "benchmark_results.memory_score",
    );
    expect(implausibleFigure({ ...REFERENCE_SERVER, networkScore: 1_899 })?.parameter).to.equal(
      "benchmark_results.network_score",
    );
    expect(implausibleFigure({ ...REFERENCE_SERVER, cpuCores: 1 })?.parameter).to.equal("benchmark_results.cpu_score");
  });
});

describe(`Verification service on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"} (live deployment)`, function () {
  this.timeout(240_000);

  let live: LiveDeployment;
  let gw: Gateway;
  let http: HttpClient;
  let tokens: {
    provider: string;
    readOnly: string;
    user: string;
    pending: string;
    suspended: string;
    echo: string;
  };

  before(async function () {
    live = await sharedLiveDeployment("verification", { satellite: false });
    const s = live.signers;
    await registerProvider(live, s[ROLE.providerA], sampleProfile("Acme Compute"), 1);
    await registerProvider(live, s[ROLE.providerB], sampleProfile("Borealis Cloud"), 0);
    await registerProvider(live, s[ROLE.providerC], sampleProfile("Cirrus Labs"), 0, false); // pending
    await registerProvider(live, s[ROLE.providerD], sampleProfile("Delta Hosting"), 0);
    await registerProvider(live, s[ROLE.user2], sampleProfile("Echo Racks"), 2);
    await (await live.d.registry.connect(s[ROLE.arbitrator]).suspendProvider(s[ROLE.providerD].address)).wait();
    // the devnet's way: one gateway holding all three verifier keys (threshold 2)
    gw = await startTestGateway(live, { verifierKeys: live.verifierKeys.map((w) => w.privateKey) });
    const key = async (role: number, scopes: Array<"read" | "write"> = ["read", "write"]) =>
      (await gw.keys.create({ tier: "premium", account: s[role].address, scopes })).token;
    tokens = {
      provider: await key(ROLE.providerA),
      readOnly: await key(ROLE.providerA, ["read"]),
      user: await key(ROLE.user),
      pending: await key(ROLE.providerC),
      suspended: await key(ROLE.providerD),
      echo: await key(ROLE.user2),
    };
    http = new HttpClient(gw.url, tokens.provider);
  });

  after(async function () {
    await gw?.close();
    await live?.stop();
  });

  describe("POST /verification/submit", function () {
    it("attests a signed report up to the on-chain threshold, and the returned proof mints sSTB", async function () {
      const provider = live.signers[ROLE.providerA];
      const report = await signedReport(live, provider);
      const r = await submit(http, report);
      const data = dataOf(r);
      expect(data).to.include({
        provider_id: provider.address,
        verification_method: "attestation",
        verification_type: "zkp",
        status: "verified",
        cu_value: 100,
        cu_value_base_units: parseEther("100").toString(),
        threshold: 2,
        minted: false,
        rejection: null,
      });
      expect(data.verification_id)
        .to.match(/^0x[0-9a-f]{64}$/)
        .and.equal(data.cu_hash);
      expect(data.verified_at).to.equal(data.created_at);
      expect(data.expiry).to.equal(data.created_at + DAY);
      // two verifiers signed, in ascending address order, and the proof is exactly that attestation
      expect(data.signatures).to.have.length(2);
      const signers = data.signatures.map((s: { signer: string }) => s.signer);
      expect(signers.every((a: string) => live.verifierKeys.some((w) => w.address === a))).to.equal(true);
      expect(BigInt(signers[0]) < BigInt(signers[1])).to.equal(true);
      const attestation = attestationFromJson(data.attestation);
      expect(data.proof).to.equal(
        encodeProof(
          attestation,
          data.signatures.map((s: { signature: string }) => s.signature),
        ),
      );
      expect(attestation.cuHash).to.equal(data.verification_id);
      expect(attestation.specs).to.deep.equal(REFERENCE_SERVER);
      // what the mint needs: the whole 120% of 100 sSTB at 1 mUSDC, nothing deposited before
      expect(data.mint).to.deep.equal({
        minting_agent: await live.d.mintingAgent.getAddress(),
        collateral_token: await live.d.collateral.getAddress(),
        collateral_amount: (await live.d.registry.requiredCollateral(parseEther("100"))).toString(),
        staking_period_min: Number((await live.d.registry.stakingPeriodBounds())[0]),
        staking_period_max: Number((await live.d.registry.stakingPeriodBounds())[1]),
      });

      const receipt = await mintVerified(live, provider, data as never);
      expect(await live.d.sstb.balanceOf(provider.address)).to.equal(parseEther("100"));
      const unit = await live.d.cuToken.computeUnit(1);
      expect(unit.cuHash).to.equal(data.verification_id);

      // GET, once indexed: the chain's facts (block time, transaction, unit), the same proof
      await gw.synced();
      const minted = dataOf(await http.get(`/api/v1/verification/${data.verification_id}`));
      expect(minted).to.include({
        verification_id: data.verification_id,
        status: "verified",
        minted: true,
        cu_id: 1,
        transaction_hash: receipt!.hash,
        verified_at: Number(unit.verifiedAt),
        created_at: data.created_at,
        proof: data.proof,
        cu_value: 100,
        mint: null,
      });
      expect(dataOf(await http.get(`/v1/verification/${data.verification_id}`))).to.deep.equal(minted);
    });

    it("answers a re-submission of the same report with the same verification, minted or not", async function () {
      const provider = live.signers[ROLE.providerA];
      const minted = await signedReport(live, provider);
      const again = dataOf(await submit(http, minted));
      expect(again).to.include({ minted: true, cu_id: 1 });

      const half = await signedReport(live, provider, {
        hardware: { cpuCores: 32, ramGb: 128, storageGb: 2048, networkMbps: 5000 },
        verificationType: "attestation",
      });
      const first = dataOf(await submit(http, half));
      const second = dataOf(await submit(http, half));
      expect(second).to.deep.equal(first);
      expect(first).to.include({ status: "verified", cu_value: 50, verification_type: "attestation" });
      expect(first.attestation.nonce).to.equal(second.attestation.nonce);
      // the same signature in another encoding (v as 0/1) is the same report
      const v = parseInt(half.proof.slice(-2), 16);
      const recoded = { ...half, proof: half.proof.slice(0, -2) + (v - 27).toString(16).padStart(2, "0") };
      expect(dataOf(await submit(http, recoded)).verification_id).to.equal(first.verification_id);
      // and so is its provider in any letter case, a broken checksum included
      const lower = half.provider_id.toLowerCase();
      for (const provider_id of [lower, lower.replace(/[a-f]/, (c) => c.toUpperCase())]) {
        expect(dataOf(await submit(http, { ...half, provider_id })).verification_id).to.equal(first.verification_id);
      }
    });

    it("records a refusal with its reason: hardware beyond the provider's capacity left, until an attestation expires", async function () {
      const provider = live.signers[ROLE.providerA];
      // registered 192 cores; 64 back unit 1 and 32 the open attestation of the previous test: 96 left
      const big = await signedReport(live, provider, {
        hardware: { cpuCores: 128, ramGb: 512, storageGb: 8192, networkMbps: 20000 },
      });
      const refused = dataOf(await submit(http, big));
      expect(refused).to.include({ status: "rejected", verified_at: null, proof: null, attestation: null, mint: null });
      expect(refused.rejection.parameter).to.equal("metadata.cpu_cores");
      expect(refused.rejection.reason).to.match(/exceeds the 96 cpu_cores left of the provider's registered 192/);
      expect(dataOf(await http.get(`/api/v1/verification/${refused.verification_id}`))).to.deep.equal(refused);

      // a day of chain time later the open attestation has expired: the same report is decided anew
      await live.rpc.send("evm_increaseTime", [DAY + 1]);
      await live.rpc.send("evm_mine", []);
      const decided = dataOf(await submit(http, big));
      expect(decided, JSON.stringify(decided.rejection)).to.include({
        verification_id: refused.verification_id,
        status: "verified",
        rejection: null,
      });
      expect(decided.created_at).to.equal(refused.created_at);
    });

    it("records a refusal for implausible figures, a forged report and providers that cannot mint", async function () {
      const s = live.signers;
      const provider = s[ROLE.providerA];
      const implausible = dataOf(
        await submit(http, await signedReport(live, provider, { specs: { cpuScore: 2 * REFERENCE_SERVER.cpuScore } })),
      );
      expect(implausible.status).to.equal("rejected");
      expect(implausible.rejection.parameter).to.equal("benchmark_results.cpu_score");
      expect(implausible.rejection.reason).to.match(/above 150%/);

      // signed by another account than the provider it names
      const forged = await signedReport(live, s[ROLE.user], {
        provider: provider.address,
        hardware: { ...REFERENCE_HARDWARE, cpuCores: 8, ramGb: 32, storageGb: 512, networkMbps: 1250 },
      });
      const f = dataOf(await submit(http, forged));
      expect(f).to.include({ status: "rejected" });
      expect(f.rejection.parameter).to.equal("proof");

      const pending = dataOf(await submit(http, await signedReport(live, s[ROLE.providerC]), tokens.pending));
      expect(pending.status).to.equal("rejected");
      expect(pending.rejection).to.deep.include({ parameter: "provider_id" });
      expect(pending.rejection.reason).to.match(/pending/);
      const suspended = dataOf(await submit(http, await signedReport(live, s[ROLE.providerD]), tokens.suspended));
      expect(suspended.rejection.reason).to.match(/suspended/);
      expect(suspended.signatures).to.deep.equal([]);
    });

    it("decides concurrent reports of one provider one at a time: its capacity is attested once", async function () {
      const echo = live.signers[ROLE.user2];
      const large = { cpuCores: 128, ramGb: 512, storageGb: 8192, networkMbps: 20000 };
      const reports = [
        await signedReport(live, echo, { hardware: large }),
        await signedReport(live, echo, { hardware: large, ratioBps: 9_000 }),
      ];
      // 2 x 128 cores of a registered 192: whichever is decided first takes them
      const answers = (await Promise.all(reports.map((r) => submit(http, r, tokens.echo)))).map(dataOf);
      expect(answers.map((a) => a.status).sort()).to.deep.equal(["rejected", "verified"]);
      const refused = answers.find((a) => a.status === "rejected")!;
      expect(refused.rejection.reason).to.match(/exceeds the 64 cpu_cores left/);

      // the same report three times at once: one decision, one attestation
      const small = await signedReport(live, echo, { hardware: { ...large, cpuCores: 32, ramGb: 128 } });
      const same = (await Promise.all([1, 2, 3].map(() => submit(http, small, tokens.echo)))).map(dataOf);
      expect(same[0].status).to.equal("verified");
      expect(same[1]).to.deep.equal(same[0]);
      expect(same[2]).to.deep.equal(same[0]);
    });

    it("refuses bad input with the error envelope, never a 5xx", async function () {
      const provider = live.signers[ROLE.providerA];
      const good = await signedReport(live, provider, {
        hardware: { cpuCores: 4, ramGb: 16, storageGb: 256, networkMbps: 1000 },
      });
      const cases: Array<[unknown, string]> = [
        [
          { ...good, benchmark_results: { ...good.benchmark_results, cpu_score: "9100" } },
          "benchmark_results.cpu_score",
        ],
        [{ ...good, benchmark_results: { ...good.benchmark_results, cpu_score: 12.5 } }, "benchmark_results.cpu_score"],
        [{ ...good, benchmark_results: { ...good.benchmark_results, cpu_score: -1 } }, "benchmark_results.cpu_score"],
        [
          { ...good, benchmark_results: { ...good.benchmark_results, cpu_score: 2 ** 24 } },
          "benchmark_results.cpu_score",
        ],
        [{ ...good, metadata: { ...good.metadata, cpu_cores: 0 } }, "metadata.cpu_cores"],
        [{ ...good, metadata: { ...good.metadata, ram_gb: true } }, "metadata.ram_gb"],
        [{ ...good, metadata: undefined }, "metadata"],
        [{ ...good, verification_type: "tee" }, "verification_type"],
        [{ ...good, provider_id: "acme" }, "provider_id"],
        [{ ...good, proof: "0x1234" }, "proof"],
        [{ ...good, proof: `0x${"00".repeat(65)}` }, "proof"],
        [{ ...good, proof: highS(good.proof) }, "proof"],
        [{ ...good, extra: 1 }, "extra"],
        [[good], "body"],
      ];
      for (const [body, parameter] of cases) {
        expectError(await submit(http, body), "invalid_parameter", 400, parameter);
      }
      const raw = (body: string, headers: Record<string, string> = json) =>
        http.request("POST", "/api/v1/verification/submit", { body, headers });
      expectError(await raw("{not json"), "invalid_parameter", 400, "body");
      expectError(await raw(JSON.stringify({ ...good, padding: "x".repeat(5_000) })), "invalid_parameter", 400, "body");
      expectError(await raw(JSON.stringify(good), { "content-type": "text/plain" }), "invalid_parameter", 400);
      expectError(await raw(""), "invalid_parameter", 400);

      // who may submit: the provider's own key with the write scope
      expectError(await submit(http, good, null), "authentication_error", 401);
      expectError(await submit(http, good, tokens.readOnly), "authorization_error", 403);
      expectError(await submit(http, good, tokens.user), "authorization_error", 403);
      const user = live.signers[ROLE.user];
      expectError(await submit(http, await signedReport(live, user), tokens.user), "resource_not_found", 404);
      // nothing was stored for any of them
      const stored = await gw.store.db
        .select({ n: count() })
        .from(verificationRequests)
        .where(eq(verificationRequests.cpuCores, 4));
      expect(stored[0].n).to.equal(0);
    });
  });

  describe("GET /verification/:verification_id", function () {
    it("shows a unit minted without this gateway from the chain alone, and refuses unknown or malformed ids", async function () {
      const B = live.signers[ROLE.providerB];
      await mintUnit(live, B, parseEther("40"));
      await gw.synced();
      const unit = await live.d.cuToken.computeUnit(await live.d.cuToken.totalComputeUnits());
      const v = dataOf(await http.get(`/api/v1/verification/${unit.cuHash}`));
      expect(v).to.include({
        verification_id: unit.cuHash,
        provider_id: B.address,
        status: "verified",
        minted: true,
        verification_type: null,
        attestation: null,
        cu_value: 40,
        created_at: Number(unit.verifiedAt),
      });
      const [attestation] = AbiCoder.defaultAbiCoder().decode(
        [
          "tuple(address,bytes32,uint256,tuple(uint32,uint32,uint32,uint32,uint24,uint24,uint24,uint24),uint64,uint256)",
          "bytes[]",
        ],
        v.proof,
      );
      expect(attestation[1]).to.equal(unit.cuHash);
      expectError(await http.get(`/api/v1/verification/0x${"ab".repeat(32)}`), "resource_not_found", 404);
      expectError(await http.get("/api/v1/verification/42"), "invalid_parameter", 400, "verification_id");
    });
  });

  describe("OpenAPI document", function () {
    it("lists the verification routes under both prefixes, and every answer above matches its schema", async function () {
      const doc = (await http.get("/api/v1/openapi.json", { token: null })).body as any;
      for (const prefix of ["/api/v1", "/v1"]) {
        expect(doc.paths[`${prefix}/verification/submit`]).to.have.property("post");
        expect(doc.paths[`${prefix}/verification/cosign`]).to.have.property("post");
        expect(doc.paths[`${prefix}/verification/{verification_id}`]).to.have.property("get");
      }
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      ajv.addSchema({ $id: "openapi.json", components: doc.components });
      let checked = 0;
      for (const r of http.recorded) {
        const template = r.path.startsWith("/api/v1/verification/0x")
          ? "/api/v1/verification/{verification_id}"
          : r.path.split("?")[0];
        const operation = doc.paths[template]?.[r.method.toLowerCase()];
        if (operation === undefined || r.body === undefined) continue;
        const response = operation.responses[String(r.status)];
        expect(response, `${r.method} ${r.path} answered ${r.status}, undocumented`).to.not.equal(undefined);
        const schema = JSON.parse(
          JSON.stringify(response.content["application/json"].schema).replaceAll(
            '"#/components',
            '"openapi.json#/components',
          ),
        );
        expect(ajv.validate(schema, r.body), `${r.method} ${r.path}: ${ajv.errorsText()}`).to.equal(true);
        checked++;
      }
      expect(checked).to.be.greaterThan(40);
    });
  });

  describe("POST /verification/cosign: one key per operator, 2-of-3 together", function () {
    let a: Gateway;
    let b: Gateway;
    let httpA: HttpClient;
    let httpB: HttpClient;

    before(async function () {
      // each operator runs its own gateway with its own key and its own database
      await gw.close();
      a = await startTestGateway(live, {
        verifierKeys: [live.verifierKeys[0].privateKey],
        dataDir: path.join(live.dir, "operator-a"),
      });
      // (on PGlite whatever the run: a second reset of DATABASE_URL would wipe operator A's store)
      b = await startGateway(
        testConfig(live, {
          verifierKeys: [live.verifierKeys[1].privateKey],
          databaseUrl: undefined,
          dataDir: path.join(live.dir, "operator-b"),
        }),
      );
      await b.synced();
      const account = live.signers[ROLE.providerB].address;
      httpA = new HttpClient(
        a.url,
        (await a.keys.create({ tier: "standard", account, scopes: ["read", "write"] })).token,
      );
      httpB = new HttpClient(
        b.url,
        (await b.keys.create({ tier: "standard", account, scopes: ["read", "write"] })).token,
      );
    });

    after(async function () {
      await a?.close();
      await b?.close();
    });

    it("gathers the operators' signatures into a proof that mints on-chain", async function () {
      const B = live.signers[ROLE.providerB];
      const report = await signedReport(live, B, { ratioBps: 9_000 });
      const first = dataOf(await submit(httpA, report));
      expect(first).to.include({ status: "partially_signed", threshold: 2, proof: null, verified_at: null });
      expect(first.signatures.map((s: { signer: string }) => s.signer)).to.deep.equal([live.verifierKeys[0].address]);
      expect(first.cu_value).to.equal(90);

      const body = {
        report,
        attestation: first.attestation,
        signatures: first.signatures.map((s: any) => s.signature),
      };
      const r = await httpB.request("POST", "/api/v1/verification/cosign", {
        body: JSON.stringify(body),
        headers: json,
      });
      const second = dataOf(r);
      expect(second).to.include({ status: "verified", verification_id: first.verification_id, threshold: 2 });
      expect(second.attestation).to.deep.equal(first.attestation);
      const signers = live.verifierKeys
        .slice(0, 2)
        .map((w) => w.address)
        .sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1));
      expect(second.signatures.map((s: { signer: string }) => s.signer)).to.deep.equal(signers);

      // the client-side helper gives the same proof from the two operators' signatures
      const attestation = attestationFromJson(first.attestation);
      const domain = attestationDomain(42161n, await live.d.verifier.getAddress());
      const own = await signAttestation(attestation, domain, [live.verifierKeys[1]]);
      const combined = combineSignatures(attestation, domain, [...own, first.signatures[0].signature, ...own]);
      expect(
        encodeProof(
          attestation,
          combined.map((s) => s.signature),
        ),
      ).to.equal(second.proof);

      const before = await live.d.sstb.balanceOf(B.address);
      await mintVerified(live, B, second as never);
      expect((await live.d.sstb.balanceOf(B.address)) - before).to.equal(parseEther("90"));

      // operator A learns the other signature through the same route, and both show the mint
      const back = { ...body, signatures: second.signatures.map((s: any) => s.signature) };
      const atA = dataOf(
        await httpA.request("POST", "/api/v1/verification/cosign", { body: JSON.stringify(back), headers: json }),
      );
      expect(atA.status).to.equal("verified");
      await a.synced();
      await b.synced();
      for (const client of [httpA, httpB]) {
        expect(dataOf(await client.get(`/api/v1/verification/${first.verification_id}`))).to.include({
          minted: true,
          proof: second.proof,
        });
      }
    });

    it("refuses an attestation that is not what this verifier would attest, or signatures of non-verifiers", async function () {
      const B = live.signers[ROLE.providerB];
      const report = await signedReport(live, B, {
        hardware: { cpuCores: 8, ramGb: 32, storageGb: 512, networkMbps: 1250 },
      });
      const first = dataOf(await submit(httpA, report));
      const signatures = first.signatures.map((s: any) => s.signature);
      const cosign = (attestation: unknown, sigs: string[] = signatures) =>
        httpB.request("POST", "/api/v1/verification/cosign", {
          body: JSON.stringify({ report, attestation, signatures: sigs }),
          headers: json,
        });
      const att = first.attestation;
      expectError(
        await cosign({ ...att, cuValue: (BigInt(att.cuValue) * 2n).toString() }),
        "invalid_parameter",
        400,
        "attestation.cuValue",
      );
      expectError(
        await cosign({ ...att, specs: { ...att.specs, cpuCores: 9 } }),
        "invalid_parameter",
        400,
        "attestation.specs",
      );
      expectError(
        await cosign({ ...att, expiry: att.expiry + 30 * DAY }),
        "invalid_parameter",
        400,
        "attestation.expiry",
      );
      expectError(await cosign({ ...att, expiry: 1 }), "invalid_parameter", 400, "attestation.expiry");
      const stranger = Wallet.createRandom();
      const domain = attestationDomain(42161n, await live.d.verifier.getAddress());
      const [foreign] = await signAttestation(attestationFromJson(att), domain, [stranger]);
      expectError(await cosign(att, [foreign]), "invalid_parameter", 400, "signatures.0");
      expectError(await cosign(att, ["0x" + "11".repeat(65)]), "invalid_parameter", 400, "signatures.0");
      expectError(await cosign({ ...att, nonce: "x" }), "invalid_parameter", 400, "attestation.nonce");
      expectError(
        await cosign({ ...att, nonce: (2n ** 256n).toString() }),
        "invalid_parameter",
        400,
        "attestation.nonce",
      );
      // and the good one still co-signs
      expect(dataOf(await cosign(att)).status).to.equal("verified");
    });
  });

  describe("start-up", function () {
    it("on the devnet without settings signs with the devnet's keys the deployment lists, or serves only GET", async function () {
      const devnet = sampleVerifierKeys("devnet-verifier");
      const listed = new Set([devnet[0].address, devnet[2].address]);
      const wallets = await resolveVerifierWallets(
        undefined,
        "devnet",
        async (a) => listed.has(a),
        () => {},
      );
      expect(wallets.map((w) => w.address)).to.deep.equal([devnet[0].address, devnet[2].address]);
      expect(
        await resolveVerifierWallets(
          undefined,
          "mainnet",
          async () => true,
          () => {},
        ),
      ).to.deep.equal([]);

      // this deployment was made with other keys: the gateway starts, says so, and takes no reports
      const lines: string[] = [];
      const g = await startGateway(
        testConfig(live, { databaseUrl: undefined, dataDir: path.join(live.dir, "devnet-defaults") }),
        { index: false, log: (line) => lines.push(line) },
      );
      try {
        expect(g.verification.signs).to.equal(false);
        expect(lines.join("\n")).to.match(/none of the devnet's verifier keys/);
        const { token } = await g.keys.create({
          tier: "standard",
          account: live.signers[ROLE.providerA].address,
          scopes: ["read", "write"],
        });
        const client = new HttpClient(g.url, token);
        const report = await signedReport(live, live.signers[ROLE.providerA]);
        expectError(await submit(client, report), "resource_not_found", 404);
      } finally {
        await g.close();
      }
    });

    it("reads the verifier keys from GATEWAY_VERIFIER_KEYS or a keys file, and the devnet's own by default", async function () {
      const [k1, k2] = live.verifierKeys.map((w) => w.privateKey);
      // outside the devnet the gateway needs a TLS-terminating proxy (or a certificate) to start
      const base = { GATEWAY_JWT_SECRET: "x".repeat(32), GATEWAY_TRUSTED_PROXIES: "10.0.0.2" };
      const keysOf = (env: Record<string, string>, environment = "testnet") =>
        loadConfig({ environment }, { ...base, ...env }, live.dir).verifierKeys;
      expect(keysOf({ GATEWAY_VERIFIER_KEYS: `${k1}, ${k2.slice(2)}` })).to.deep.equal([k1, k2]);
      const file = path.join(live.dir, "verifier-keys");
      await writeFile(file, `# operator B\n${k2}\n\n`, { mode: 0o600 });
      expect(keysOf({ GATEWAY_VERIFIER_KEYS_FILE: file })).to.deep.equal([k2]);
      expect(keysOf({})).to.deep.equal([]);
      expect(keysOf({}, "devnet")).to.equal(undefined); // the devnet's own, resolved at start
      expect(() => keysOf({ GATEWAY_VERIFIER_KEYS: "0x1234" })).to.throw(ConfigError, /key #1/);
      expect(() => keysOf({ GATEWAY_VERIFIER_KEYS_FILE: path.join(live.dir, "missing") })).to.throw(ConfigError);
      expect(() => keysOf({ GATEWAY_VERIFICATION_TTL: "0" })).to.throw(ConfigError, /GATEWAY_VERIFICATION_TTL/);
    });

    it("refuses a verifier key that the deployment's AttestationVerifier does not list", async function () {
      const stranger = Wallet.createRandom();
      let failure: unknown;
      try {
        const g = await startGateway(
          testConfig(live, {
            verifierKeys: [live.verifierKeys[2].privateKey, stranger.privateKey],
            databaseUrl: undefined,
            dataDir: path.join(live.dir, "refused"),
          }),
          { index: false, listen: false },
        );
        await g.close();
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(ConfigError);
      expect((failure as Error).message).to.contain(getAddress(stranger.address));
      expect((failure as Error).message).to.not.contain(live.verifierKeys[2].address);
    });
  });
});
