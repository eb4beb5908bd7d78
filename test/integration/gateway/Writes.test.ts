import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

import { expect } from "chai";
import { getAddress, keccak256, parseEther, toUtf8Bytes } from "ethers";
import type { Wallet } from "ethers";

import { idempotencyKeys, managedAccounts, redemptionRequests } from "../../../gateway/store/schema.js";
import { ROLE, sharedLiveDeployment } from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";
import type { Recorded } from "../../helpers/http.js";
import { fulfil, post, setupWrites } from "../../helpers/writes.js";
import type { WriteSetup } from "../../helpers/writes.js";
import { dataOf, expectError } from "../../helpers/http.js";

describe(`Gateway write routes on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}`, function () {
  this.timeout(240_000);

  let live: LiveDeployment;
  let w: WriteSetup;
  /** Transactions an account has sent (its nonce). */
  const sent = (account: string) => live.rpc.getTransactionCount(account, "latest");

  before(async function () {
    live = await sharedLiveDeployment("writes", { satellite: false });
    w = await setupWrites(live, (line) => console.error(`    [gateway] ${line}`));
  });

  after(async function () {
    await w?.gw.close();
    await live?.stop();
  });

  /** Redeems `amount` by HTTP for the managed account; returns the new id. */
  async function redeemManaged(amount: number, prefix = "/v1"): Promise<bigint> {
    const data = dataOf(
      await post(w.http.managed, `${prefix}/redemptions`, { sstb_amount: amount, provider_id: w.provider.address }),
    );
    return BigInt(data.redemption_id);
  }

  describe("POST /redemptions and /sstb/transfer with exact amounts", function () {
    it("take a decimal string or base units exactly, where a JSON number could not say the amount", async function () {
      const manager = live.d.redemptionManager;
      // 1.000000000000000001 sSTB: 19 significant digits, beyond any double
      const exact = dataOf(
        await post(w.http.managed, "/v1/redemptions", {
          sstb_amount: "1.000000000000000001",
          provider_id: w.provider.address,
        }),
      );
      expect(exact).to.include({ sstb_amount: 1, sstb_amount_base_units: "1000000000000000001" });
      expect((await manager.redemptions(BigInt(exact.redemption_id))).amount).to.equal(1_000_000_000_000_000_001n);
      const units = dataOf(
        await post(w.http.managed, "/api/v1/redemptions", {
          sstb_amount_base_units: "1000000000000000002",
          provider_id: w.provider.address,
        }),
      );
      expect((await manager.redemptions(BigInt(units.redemption_id))).amount).to.equal(1_000_000_000_000_000_002n);
      const read = await w.http.managed.data(`/v1/redemptions/${units.redemption_id as string}`);
      expect(read).to.include({ sstb_amount_base_units: "1000000000000000002" });

      const to = live.signers[ROLE.user2].address;
      const before = await live.d.sstb.balanceOf(to);
      const sent = dataOf(
        await post(w.http.managed, "/v1/sstb/transfer", { to, sstb_amount_base_units: "123456789012345678" }),
      );
      expect(sent).to.include({ sstb_amount: 0.123456789012345678, sstb_amount_base_units: "123456789012345678" });
      expect((await live.d.sstb.balanceOf(to)) - before).to.equal(123_456_789_012_345_678n);
    });
  });

  describe("POST /redemptions (managed account)", function () {
    it("redeems with the reference body: the spec's fields, the on-chain deadline, the specifications kept for the provider", async function () {
      const manager = live.d.redemptionManager;
      const before = await live.d.sstb.balanceOf(w.managed);
      const specifications = { cpu_cores: 16, ram_gb: 64, storage_gb: 500, network_mbps: 1000 };
      const r = await post(w.http.managed, "/api/v1/redemptions", {
        sstb_amount: 2.5,
        provider_id: w.provider.address.toLowerCase(),
        specifications,
      });
      const data = dataOf(r);
      expect(Object.keys(data).sort()).to.deep.equal(
        [
          "estimated_fulfillment_time",
          "initiated_at",
          "mode",
          "provider_id",
          "redemption_id",
          "sstb_amount",
          "sstb_amount_base_units",
          "status",
          "transaction_hash",
        ].sort(),
      );
      expect(data).to.include({
        mode: "managed",
        status: "pending",
        sstb_amount: 2.5,
        provider_id: w.provider.address,
      });
      const id = BigInt(data.redemption_id);
      const record = await manager.redemptions(id);
      expect(record.user).to.equal(w.managed);
      expect(record.amount).to.equal(parseEther("2.5"));
      expect(record.provider).to.equal(w.provider.address);
      expect(data.initiated_at).to.equal(Number(record.timestamp));
      const [deadline] = await live.d.redemptionViews.deadlinesOf(id);
      expect(data.estimated_fulfillment_time).to.equal(Number(deadline));
      const [, total] = await live.d.redemptionViews.quoteFee(parseEther("2.5"));
      expect(before - (await live.d.sstb.balanceOf(w.managed))).to.equal(total);
      const receipt = await live.rpc.getTransactionReceipt(data.transaction_hash);
      expect(receipt!.from).to.equal(w.managed);
      // the request kept for this redemption (the exact-amount redemptions above have their own rows)
      const stored = (await w.gw.store.db.select().from(redemptionRequests)).find((r) => r.redemptionId === Number(id));
      expect(stored, "no stored request for the redemption").to.not.equal(undefined);
      expect(stored!.specifications).to.deep.equal(specifications);
      // the provider reads what to allocate; so does the user; nobody else
      for (const client of [w.http.provider, w.http.managed]) {
        const request = await client.data(`/api/v1/redemptions/${id}/specifications`);
        expect(request).to.deep.include({ redemption_id: id.toString(), user: w.managed, specifications });
      }
      expectError(await w.http.stranger.get(`/v1/redemptions/${id}/specifications`), "authorization_error", 403);
    });

    it("redeems with the short body on /v1 and the new id in redemption_id, readable at once", async function () {
      const count = await live.d.redemptionViews.redemptionCount();
      const id = await redeemManaged(1.25);
      expect(id).to.equal(count + 1n);
      const read = await w.http.managed.data(`/v1/redemptions/${id}`);
      expect(read).to.include({ redemption_id: id.toString(), status: "pending", sstb_amount: 1.25, user: w.managed });
      expect((await live.d.redemptionManager.redemptions(id)).amount).to.equal(parseEther("1.25"));
      expect((await w.http.managed.data(`/v1/redemptions/${id}/specifications`)).specifications).to.equal(null);
    });

    it("refuses specifications beyond the provider's registered hardware, sending nothing", async function () {
      const nonce = await sent(w.managed);
      const r = await post(w.http.managed, "/v1/redemptions", {
        sstb_amount: 1,
        provider_id: w.provider.address,
        specifications: { cpu_cores: 100_000, ram_gb: 1, storage_gb: 1, network_mbps: 1 },
      });
      const error = expectError(r, "invalid_parameter", 400);
      expect(error.details.parameter).to.equal("specifications.cpu_cores");
      expect(await sent(w.managed)).to.equal(nonce);
    });
  });

  describe("POST /redemptions/{id}/confirm", function () {
    it("answers the contract's revert string verbatim before fulfilment, confirms after it, then 'Already confirmed'", async function () {
      const id = await redeemManaged(1);
      const nonce = await sent(w.managed);
      const early = expectError(await post(w.http.managed, `/v1/redemptions/${id}/confirm`), "invalid_parameter", 400);
      expect(early.message).to.equal("Not fulfilled yet");
      expect(early.details).to.deep.equal({ revert: "Error", args: { reason: "Not fulfilled yet" } });
      expect(await sent(w.managed)).to.equal(nonce); // pre-checked: no transaction, no gas

      await fulfil(live, w.provider, id);
      const data = dataOf(await post(w.http.managed, `/api/v1/redemptions/${id}/confirm`, {}));
      expect(data).to.include({ mode: "managed", redemption_id: id.toString(), status: "confirmed" });
      expect((await live.d.redemptionManager.redemptions(id)).confirmed).to.equal(true);

      // answered once indexed: the read route shows the confirmation at once
      expect((await w.http.managed.data(`/v1/redemptions/${id}`)).status).to.equal("confirmed");

      const twice = expectError(await post(w.http.managed, `/v1/redemptions/${id}/confirm`), "invalid_parameter", 400);
      expect(twice.message).to.equal("Already confirmed");
    });
  });

  describe("POST /redemptions/{id}/dispute", function () {
    it("stores the evidence, puts its hash on-chain and shows it to the user and the provider only", async function () {
      const id = await redeemManaged(1);
      await fulfil(live, w.provider, id);
      const evidence = { ssh_log: "Permission denied (publickey)", attempts: 3, at: "2026-11-22T09:00:00Z" };
      const data = dataOf(
        await post(w.http.managed, `/v1/redemptions/${id}/dispute`, {
          issue_type: "access_failure",
          description: "The SSH credentials are refused",
          evidence,
        }),
      );
      expect(data).to.include({ mode: "managed", status: "disputed", issue_type: "access_failure" });
      const dispute = await live.d.redemptionViews.disputeOf(id);
      expect(dispute.evidenceHash).to.equal(data.evidence_hash);
      expect(dispute.issueType).to.equal(1n); // AccessFailure

      for (const client of [w.http.managed, w.http.provider]) {
        const stored = dataOf(await client.get(`/v1/redemptions/${id}/dispute`));
        expect(stored.evidence).to.deep.equal(evidence);
        expect(stored.description).to.equal("The SSH credentials are refused");
        expect(keccak256(toUtf8Bytes(stored.document))).to.equal(dispute.evidenceHash);
        expect(stored.transaction_hash).to.equal(data.transaction_hash);
      }
      expectError(await w.http.stranger.get(`/v1/redemptions/${id}/dispute`), "authorization_error", 403);
    });

    it("decodes a custom error by name with its arguments (a dispute on a confirmed redemption)", async function () {
      const id = await redeemManaged(1);
      await fulfil(live, w.provider, id);
      dataOf(await post(w.http.managed, `/v1/redemptions/${id}/confirm`));
      const nonce = await sent(w.managed);
      const error = expectError(
        await post(w.http.managed, `/v1/redemptions/${id}/dispute`, {
          issue_type: "other",
          description: "too late",
          evidence: "none",
        }),
        "invalid_parameter",
        400,
      );
      expect(error.details.revert).to.equal("RedemptionInvalidStatus");
      expect(error.details.args).to.deep.equal({ redemptionId: id.toString(), status: "3" });
      expect(error.message).to.equal(`RedemptionInvalidStatus(redemptionId=${id}, status=3)`);
      expect(await sent(w.managed)).to.equal(nonce);
    });
  });

  describe("POST /sstb/transfer", function () {
    it("moves sSTB from the managed account", async function () {
      const to = live.signers[ROLE.user2].address;
      const before = await live.d.sstb.balanceOf(to);
      const data = dataOf(await post(w.http.managed, "/v1/sstb/transfer", { to, sstb_amount: 0.75 }));
      expect(data).to.include({ mode: "managed", from: w.managed, to, sstb_amount: 0.75 });
      expect((await live.d.sstb.balanceOf(to)) - before).to.equal(parseEther("0.75"));
    });
  });

  describe("concurrent writes of one managed account", function () {
    it("are all sent, one after the other, with consecutive nonces", async function () {
      const to = live.signers[ROLE.user2].address;
      const before = await live.d.sstb.balanceOf(to);
      const nonce = await sent(w.managed);
      const responses = await Promise.all(
        [0.01, 0.02, 0.03, 0.04, 0.05].map((sstb_amount) =>
          post(w.http.managed, "/v1/sstb/transfer", { to, sstb_amount }),
        ),
      );
      const hashes = responses.map((r) => dataOf(r).transaction_hash as string);
      const nonces = await Promise.all(hashes.map(async (hash) => (await live.rpc.getTransaction(hash))!.nonce));
      expect([...nonces].sort((a, b) => a - b)).to.deep.equal([0, 1, 2, 3, 4].map((i) => nonce + i));
      expect((await live.d.sstb.balanceOf(to)) - before).to.equal(parseEther("0.15"));
    });
  });

  describe("external account: unsigned transactions", function () {
    /** Signs and sends the route's transactions with the account's own key, in order. */
    async function sendAll(transactions: Array<Record<string, any>>) {
      const receipts = [];
      for (const t of transactions) {
        expect(t.from).to.equal(w.external.address);
        expect(t.chainId).to.equal(42161);
        expect(t.nonce).to.equal(await live.rpc.getTransactionCount(w.external.address, "pending"));
        const response = await w.external.sendTransaction({
          to: t.to,
          data: t.data,
          value: BigInt(t.value),
          nonce: t.nonce,
          gasLimit: t.gas,
          chainId: t.chainId,
        });
        receipts.push(await response.wait());
      }
      return receipts;
    }

    it("redeem answers approve + initiateRedemption that, signed and sent by the client, redeem", async function () {
      const count = await live.d.redemptionViews.redemptionCount();
      const nonce = await sent(w.external.address);
      const data = dataOf(
        await post(w.http.external, "/api/v1/redemptions", { sstb_amount: 3, provider_id: w.provider.address }),
      );
      expect(data.mode).to.equal("external");
      expect(data.transactions.map((t: { description: string }) => t.description)).to.deep.equal([
        "approve",
        "initiateRedemption",
      ]);
      expect(await sent(w.external.address)).to.equal(nonce); // the gateway sent nothing
      await sendAll(data.transactions);
      const id = count + 1n;
      const record = await live.d.redemptionManager.redemptions(id);
      expect(record.user).to.equal(w.external.address);
      expect(record.amount).to.equal(parseEther("3"));

      await fulfil(live, w.provider, id);
      const confirm = dataOf(await post(w.http.external, `/v1/redemptions/${id}/confirm`));
      expect(confirm.transactions).to.have.length(1);
      await sendAll(confirm.transactions);
      expect((await live.d.redemptionManager.redemptions(id)).confirmed).to.equal(true);
    });

    it("dispute stores the evidence first and answers openDispute carrying its hash", async function () {
      const count = await live.d.redemptionViews.redemptionCount();
      const redeem = dataOf(
        await post(w.http.external, "/v1/redemptions", { sstb_amount: 1, provider_id: w.provider.address }),
      );
      await sendAll(redeem.transactions);
      const id = count + 1n;
      await fulfil(live, w.provider, id);
      const data = dataOf(
        await post(w.http.external, `/v1/redemptions/${id}/dispute`, {
          issue_type: "resource_mismatch",
          description: "16 cores delivered, 64 promised",
          evidence: "nproc: 16",
        }),
      );
      expect(data).to.include({ mode: "external", issue_type: "resource_mismatch" });
      // a second attempt with another document, never sent: stored beside the first, not over it
      const other = dataOf(
        await post(w.http.external, `/v1/redemptions/${id}/dispute`, {
          issue_type: "resource_mismatch",
          description: "16 cores delivered, 64 promised",
          evidence: "nproc: 8",
        }),
      );
      expect(other.evidence_hash).to.not.equal(data.evidence_hash);
      const [receipt] = await sendAll(data.transactions);
      const dispute = await live.d.redemptionViews.disputeOf(id);
      expect(dispute.evidenceHash).to.equal(data.evidence_hash);
      await w.gw.synced();
      // the document whose hash went on-chain, and the transaction the client sent
      const stored = dataOf(await w.http.external.get(`/api/v1/redemptions/${id}/dispute`));
      expect(stored.evidence).to.equal("nproc: 16");
      expect(keccak256(toUtf8Bytes(stored.document))).to.equal(dispute.evidenceHash);
      expect(stored.transaction_hash).to.equal(receipt!.hash);
    });

    it("redeem answers the initiation alone, pre-checked, when the allowance already covers amount plus fee", async function () {
      const [, total] = await live.d.redemptionViews.quoteFee(parseEther("1"));
      const manager = await live.d.redemptionManager.getAddress();
      await (await live.d.sstb.connect(w.external).approve(manager, total)).wait();
      const data = dataOf(
        await post(w.http.external, "/v1/redemptions", { sstb_amount: 1, provider_id: w.provider.address }),
      );
      expect(data.transactions.map((t: { description: string }) => t.description)).to.deep.equal([
        "initiateRedemption",
      ]);
      const count = await live.d.redemptionViews.redemptionCount();
      await sendAll(data.transactions);
      expect(await live.d.redemptionViews.redemptionCount()).to.equal(count + 1n);
    });

    it("on the devnet the answer is sent as is with eth_sendTransaction (the node's accounts are unlocked), as docs/api.md shows", async function () {
      const count = await live.d.redemptionViews.redemptionCount();
      const data = dataOf(
        await post(w.http.external, "/v1/redemptions", { sstb_amount: 2, provider_id: w.provider.address }),
      );
      expect(data.mode).to.equal("external");
      for (const t of data.transactions) {
        expect(t.value).to.equal("0"); // no write route moves native currency: from, to and data are all it takes
        // docs/api.md's request: {from, to, data}; the node picks the nonce and the gas
        const response = await fetch(live.nodes[0].url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "eth_sendTransaction",
            params: [{ from: t.from, to: t.to, data: t.data }],
          }),
        });
        const answer = (await response.json()) as { result?: string; error?: { message: string } };
        expect(answer.error, t.description).to.equal(undefined);
        const receipt = await live.rpc.waitForTransaction(answer.result!);
        expect(receipt?.status, t.description).to.equal(1);
      }
      expect(await live.d.redemptionViews.redemptionCount()).to.equal(count + 1n);
      const record = await live.d.redemptionManager.redemptions(count + 1n);
      expect(record.user).to.equal(w.external.address);
      expect(record.amount).to.equal(parseEther("2"));
    });

    it("transfer answers one transaction that moves the sSTB when sent", async function () {
      const to = live.signers[ROLE.user2].address;
      const before = await live.d.sstb.balanceOf(to);
      const data = dataOf(await post(w.http.external, "/v1/sstb/transfer", { to, sstb_amount: 1.5 }));
      expect(data.transactions).to.have.length(1);
      await sendAll(data.transactions);
      expect((await live.d.sstb.balanceOf(to)) - before).to.equal(parseEther("1.5"));
    });
  });

  describe("Idempotency-Key", function () {
    it("a retry with the same key and body returns the first response and sends nothing", async function () {
      const body = { to: live.signers[ROLE.user2].address, sstb_amount: 0.5 };
      const headers = { "idempotency-key": "transfer-retry-1" };
      const first = await post(w.http.managed, "/v1/sstb/transfer", body, headers);
      dataOf(first);
      const nonce = await sent(w.managed);
      const retry = await post(w.http.managed, "/v1/sstb/transfer", body, headers);
      expect(retry.status).to.equal(first.status);
      expect(retry.text).to.equal(first.text);
      expect(retry.headers.get("idempotent-replayed")).to.equal("true");
      expect(await sent(w.managed)).to.equal(nonce);
    });

    it("the same key with another body is refused with invalid_parameter", async function () {
      const headers = { "idempotency-key": "transfer-retry-2" };
      const to = live.signers[ROLE.user2].address;
      dataOf(await post(w.http.managed, "/v1/sstb/transfer", { to, sstb_amount: 0.25 }, headers));
      const nonce = await sent(w.managed);
      const other = await post(w.http.managed, "/v1/sstb/transfer", { to, sstb_amount: 0.3 }, headers);
      expect(expectError(other, "invalid_parameter", 400).details.parameter).to.equal("Idempotency-Key");
      expect(await sent(w.managed)).to.equal(nonce);
    });

    it("concurrent retries of one POST send one transaction and all get its response", async function () {
      const body = { sstb_amount: 1, provider_id: w.provider.address };
      const headers = { "idempotency-key": "redeem-concurrent" };
      const count = await live.d.redemptionViews.redemptionCount();
      const responses = await Promise.all(
        Array.from({ length: 6 }, () => post(w.http.managed, "/v1/redemptions", body, headers)),
      );
      for (const r of responses) {
        expect(r.status, r.text).to.equal(200);
        expect(r.text).to.equal(responses[0].text);
      }
      expect(await live.d.redemptionViews.redemptionCount()).to.equal(count + 1n);
      expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).to.have.length(5);
    });

    it("keys are per account: another account may use the same key", async function () {
      const to = live.signers[ROLE.user2].address;
      const headers = { "idempotency-key": "shared-name" };
      dataOf(await post(w.http.managed, "/v1/sstb/transfer", { to, sstb_amount: 0.1 }, headers));
      const other = dataOf(await post(w.http.external, "/v1/sstb/transfer", { to, sstb_amount: 0.2 }, headers));
      expect(other.mode).to.equal("external");
      const rows = await w.gw.store.db.select().from(idempotencyKeys);
      expect(rows.filter((row) => row.key === "shared-name")).to.have.length(2);
      for (const row of rows) expect(row.expiresAt - row.createdAt).to.equal(86_400);
    });
  });

  describe("bad input on every write route", function () {
    it("answers the envelope with invalid_parameter, never a 5xx, and sends nothing", async function () {
      const provider = w.provider.address;
      const to = live.signers[ROLE.user2].address;
      const minimum = await live.d.redemptionViews.minRedemptionAmount();
      const belowMinimum = Number(minimum) / 2 / 1e18;
      const json = { "content-type": "application/json" };
      const cases: Array<[string, unknown, string, string?]> = [
        ["/v1/redemptions", "{not json", "invalid_parameter"],
        [
          "/v1/redemptions",
          JSON.stringify({ sstb_amount: 1, provider_id: provider, pad: "x".repeat(70_000) }),
          "invalid_parameter",
        ],
        ["/v1/redemptions", "[]", "invalid_parameter"],
        ["/v1/redemptions", { sstb_amount: "1e3", provider_id: provider }, "invalid_parameter"],
        ["/v1/redemptions", { sstb_amount: "-1", provider_id: provider }, "invalid_parameter"],
        [
          "/v1/redemptions",
          { sstb_amount: 1, sstb_amount_base_units: "1000000000000000000", provider_id: provider },
          "invalid_parameter",
          "give sstb_amount or sstb_amount_base_units, not both",
        ],
        ["/v1/redemptions", { sstb_amount_base_units: 1, provider_id: provider }, "invalid_parameter"],
        ["/v1/redemptions", { sstb_amount_base_units: "1.5", provider_id: provider }, "invalid_parameter"],
        ["/v1/redemptions", { sstb_amount: 1, provider_id: 12 }, "invalid_parameter"],
        ["/v1/redemptions", { sstb_amount: 1 }, "invalid_parameter"],
        ["/v1/redemptions", { sstb_amount: 1, provider_id: provider, extra: true }, "invalid_parameter"],
        ["/v1/redemptions", { sstb_amount: -1, provider_id: provider }, "invalid_parameter"],
        ["/v1/redemptions", { sstb_amount: 0, provider_id: provider }, "invalid_parameter"],
        ["/v1/redemptions", { sstb_amount: 1e-19, provider_id: provider }, "invalid_parameter"],
        [
          "/v1/redemptions",
          { sstb_amount: belowMinimum, provider_id: provider },
          "invalid_parameter",
          "below the minimum redemption amount",
        ],
        ["/v1/redemptions", { sstb_amount: 100, provider_id: provider }, "invalid_parameter", "exceeds the balance"],
        [
          "/v1/redemptions",
          { sstb_amount: 5_000, provider_id: provider },
          "invalid_parameter",
          "more than the provider's available capacity",
        ],
        ["/v1/redemptions", { sstb_amount: 1, provider_id: getAddress("0x" + "12".repeat(20)) }, "resource_not_found"],
        [
          "/v1/redemptions",
          { sstb_amount: 1, provider_id: provider, specifications: { cpu_cores: 1 } },
          "invalid_parameter",
        ],
        ["/v1/redemptions/1/confirm", { anything: 1 }, "invalid_parameter"],
        ["/v1/redemptions/abc/confirm", undefined, "invalid_parameter"],
        ["/v1/redemptions/0/confirm", undefined, "invalid_parameter"],
        ["/v1/redemptions/999999/confirm", undefined, "resource_not_found"],
        ["/v1/redemptions/1/dispute", { issue_type: "bogus", description: "x", evidence: "y" }, "invalid_parameter"],
        ["/v1/redemptions/1/dispute", { issue_type: "other", description: "", evidence: "y" }, "invalid_parameter"],
        ["/v1/redemptions/1/dispute", { issue_type: "other", description: "x", evidence: null }, "invalid_parameter"],
        ["/v1/redemptions/1/dispute", { issue_type: "other", description: "x" }, "invalid_parameter"],
        [
          "/v1/redemptions/999999/dispute",
          { issue_type: "other", description: "x", evidence: "y" },
          "resource_not_found",
        ],
        ["/v1/sstb/transfer", { to: "0x123", sstb_amount: 1 }, "invalid_parameter"],
        // a mixed-case address whose EIP-55 checksum is wrong (one letter's case flipped)
        [
          "/v1/sstb/transfer",
          { to: to.replace(/[a-f]/, (c) => c.toUpperCase()), sstb_amount: 1 },
          "invalid_parameter",
          "is not a valid address (a mixed-case address must carry its EIP-55 checksum)",
        ],
        // a small body nested 5,000 deep (under the size limit; deeper than any walker's stack)
        [
          "/v1/redemptions/1/dispute",
          `{"issue_type":"other","description":"x","evidence":${"[".repeat(5_000)}${"]".repeat(5_000)}}`,
          "invalid_parameter",
          "is nested deeper than 32 levels",
        ],
        ["/v1/sstb/transfer", { to, sstb_amount: true }, "invalid_parameter"],
        ["/v1/sstb/transfer", { to, sstb_amount: 1e9 }, "invalid_parameter", "exceeds the balance"],
        ["/v1/sstb/transfer", { to: "0x" + "0".repeat(40), sstb_amount: 1 }, "invalid_parameter"],
        [
          "/v1/sstb/transfer",
          { to, sstb_amount: 1.23e-17 },
          "invalid_parameter",
          "has more than 18 decimals (sSTB has 18)",
        ],
      ];
      const nonce = await sent(w.managed);
      const count = await live.d.redemptionViews.redemptionCount();
      for (const [path, body, code, reason] of cases) {
        const r =
          typeof body === "string"
            ? await w.http.managed.request("POST", path, { body, headers: json })
            : await post(w.http.managed, path, body);
        expect(r.status, `${path} ${JSON.stringify(body)?.slice(0, 80)}: ${r.text}`).to.be.below(500);
        const error = expectError(r, code, code === "resource_not_found" ? 404 : 400);
        if (reason !== undefined) expect(error.details.reason, r.text).to.equal(reason);
      }
      // malformed, oversized, non-JSON (text/plain is a wrong content type, not a string) and
      // non-object bodies, on every write route under both prefixes
      const id = await live.d.redemptionViews.redemptionCount();
      const routes = ["/redemptions", `/redemptions/${id}/confirm`, `/redemptions/${id}/dispute`, "/sstb/transfer"];
      const bodies: Array<[string, string]> = [
        ["{not json", "application/json"],
        [JSON.stringify({ pad: "x".repeat(70_000) }), "application/json"],
        ["x", "text/plain"],
        ["<a/>", "application/xml"],
        ["[1]", "application/json"],
        ["42", "application/json"],
      ];
      const before = { nonce: await sent(w.managed), count: await live.d.redemptionViews.redemptionCount() };
      for (const prefix of ["/api/v1", "/v1"]) {
        for (const route of routes) {
          for (const [body, type] of bodies) {
            const r = await w.http.managed.request("POST", prefix + route, { body, headers: { "content-type": type } });
            expectError(r, "invalid_parameter", 400);
          }
        }
      }
      expect(await sent(w.managed)).to.equal(before.nonce);
      expect(await live.d.redemptionViews.redemptionCount()).to.equal(before.count);
      expect(await sent(w.managed)).to.equal(nonce);
      expect(await live.d.redemptionViews.redemptionCount()).to.equal(count);
    });

    it("refuses another account's redemption with authorization_error", async function () {
      const id = await redeemManaged(1);
      await fulfil(live, w.provider, id);
      const nonce = await sent(live.signers[ROLE.user2].address);
      expectError(await post(w.http.stranger, `/v1/redemptions/${id}/confirm`), "authorization_error", 403);
      expectError(
        await post(w.http.stranger, `/v1/redemptions/${id}/dispute`, {
          issue_type: "other",
          description: "x",
          evidence: "y",
        }),
        "authorization_error",
        403,
      );
      expect(await sent(live.signers[ROLE.user2].address)).to.equal(nonce);
    });

    it("refuses a read-only key on every write route with authorization_error", async function () {
      for (const path of [
        "/v1/redemptions",
        "/api/v1/redemptions",
        "/v1/redemptions/1/confirm",
        "/v1/redemptions/1/dispute",
        "/v1/sstb/transfer",
      ]) {
        expectError(await post(w.http.readOnly, path, {}), "authorization_error", 403);
      }
    });
  });

  describe("managed account without gas funds", function () {
    it("answers invalid_parameter naming the account, and moves nothing", async function () {
      const { address } = await w.gw.accounts.create("no gas");
      await (await live.d.sstb.connect(w.provider).transfer(address, parseEther("2"))).wait();
      const { token } = await w.gw.keys.create({ tier: "standard", account: address, scopes: ["read", "write"] });
      const r = await w.http.managed.request("POST", "/v1/sstb/transfer", {
        token,
        body: JSON.stringify({ to: w.managed, sstb_amount: 1 }),
        headers: { "content-type": "application/json" },
      });
      expect(expectError(r, "invalid_parameter", 400).details.parameter).to.equal("account");
      expect(await live.d.sstb.balanceOf(address)).to.equal(parseEther("2"));
      expect(await sent(address)).to.equal(0);
    });
  });

  describe("OpenAPI document", function () {
    it("lists every write route under both prefixes", async function () {
      const doc = (await w.http.managed.get("/api/v1/openapi.json", { token: null })).body as any;
      for (const prefix of ["/api/v1", "/v1"]) {
        expect(doc.paths[`${prefix}/redemptions`]).to.have.property("post");
        expect(doc.paths[`${prefix}/redemptions/{redemptionId}/confirm`]).to.have.property("post");
        expect(doc.paths[`${prefix}/redemptions/{redemptionId}/dispute`]).to.have.keys("post", "get");
        expect(doc.paths[`${prefix}/sstb/transfer`]).to.have.property("post");
        expect(doc.paths[`${prefix}/redemptions/{redemptionId}/specifications`]).to.have.property("get");
      }
    });
  });

  describe("accounts through a running gateway (/admin/accounts, for the accounts command)", function () {
    it("creates and lists managed accounts for an admin token only, addresses without keys", async function () {
      const admin = { authorization: `Bearer ${w.gw.keys.adminToken()}`, "content-type": "application/json" };
      const created = await w.http.managed.request("POST", "/admin/accounts", {
        token: null,
        headers: admin,
        body: JSON.stringify({ label: "through the gateway" }),
      });
      const account = dataOf(created);
      expect(Object.keys(account).sort()).to.deep.equal(["address", "createdAt"]);
      expect(await w.gw.accounts.manages(account.address)).to.equal(true);
      const listed = dataOf(await w.http.managed.request("GET", "/admin/accounts", { token: null, headers: admin }));
      for (const a of listed.accounts) expect(Object.keys(a).sort()).to.deep.equal(["address", "createdAt", "label"]);
      expect(listed.accounts.map((a: { address: string }) => a.address)).to.include(account.address);
      expectError(await post(w.http.managed, "/admin/accounts", {}), "authorization_error", 403);
      expectError(await w.http.managed.request("GET", "/admin/accounts", { token: null }), "authentication_error", 401);
    });
  });

  // figures for the note (printed, not asserted): wall time of a write through HTTP on the devnet
  describe("figures", function () {
    it("measures managed redemptions, transfers, replays and external preparations", async function () {
      const to = live.signers[ROLE.user2].address;
      const timed = async (label: string, n: number, run: (i: number) => Promise<Recorded>) => {
        const times: number[] = [];
        for (let i = 0; i < n; i++) {
          const start = performance.now();
          dataOf(await run(i));
          times.push(performance.now() - start);
        }
        times.sort((a, b) => a - b);
        console.log(
          `      ${label}: median ${times[Math.floor(n / 2)].toFixed(0)} ms, max ${times[n - 1].toFixed(0)} ms (n=${n})`,
        );
      };
      const body = { sstb_amount: 1, provider_id: w.provider.address };
      await timed("managed redemption (approve + initiate mined)", 5, () =>
        post(w.http.managed, "/v1/redemptions", body),
      );
      await timed("managed transfer (one transaction mined)", 5, () =>
        post(w.http.managed, "/v1/sstb/transfer", { to, sstb_amount: 0.01 }),
      );
      await timed("one Idempotency-Key 10 times (the first sends, 9 replays)", 10, () =>
        post(w.http.managed, "/v1/sstb/transfer", { to, sstb_amount: 0.01 }, { "idempotency-key": "figures" }),
      );
      await timed("external redemption (unsigned transactions)", 5, () =>
        post(w.http.external, "/v1/redemptions", body),
      );
    });
  });

  describe("managed accounts: sealed signing keys", function () {
    it("never stores the private key in clear, in the rows or in the database's files", async function () {
      const wallet = (await w.gw.accounts.signer(w.managed, live.rpc)) as Wallet;
      expect(wallet.address).to.equal(w.managed);
      const hex = wallet.privateKey.slice(2).toLowerCase();
      const raw = Buffer.from(hex, "hex");
      const rows = await w.gw.store.db.select().from(managedAccounts);
      expect(rows.map((r) => r.address)).to.include(w.managed);
      for (const row of rows) {
        const text = JSON.stringify(row).toLowerCase();
        expect(text).to.not.include(hex);
        expect(text).to.not.include(raw.toString("base64").toLowerCase());
        expect(text).to.not.include(raw.toString("base64url").toLowerCase());
        expect(row.sealed).to.match(/^v1\./);
      }
      if (w.gw.store.kind === "pglite") {
        const files: string[] = [];
        const walk = (dir: string) => {
          for (const name of readdirSync(dir)) {
            const file = path.join(dir, name);
            if (statSync(file).isDirectory()) walk(file);
            else files.push(file);
          }
        };
        walk(w.gw.store.location);
        expect(files.length).to.be.greaterThan(10);
        for (const file of files) {
          const content = readFileSync(file);
          expect(content.includes(raw), file).to.equal(false);
          expect(content.includes(Buffer.from(hex)), file).to.equal(false);
        }
      }
    });

    it("a sealed key does not open under another address or another master key", async function () {
      const { Sealer } = await import("../../../gateway/accounts/sealed.js");
      const [row] = await w.gw.store.db.select().from(managedAccounts);
      const other = new Sealer("11".repeat(32));
      expect(() => other.open(row.sealed, row.address)).to.throw();
    });
  });
});
