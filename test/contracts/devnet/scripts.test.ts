import { expect } from "chai";
import { network } from "hardhat";
import { parseEther } from "ethers";

import { runFoundationDemo } from "../../../devnet/demo.js";
import { renderGasReport, runGasBenchmark } from "../../../tools/gas-bench.js";

describe("scripts", function () {
  describe("runFoundationDemo (npm start)", function () {
    it("deploys, prints every address, mints, runs a redemption to confirmation and one to expiry", async function () {
      const connection = await network.create();
      const { ethers } = connection;
      const lines: string[] = [];
      const result = await runFoundationDemo(connection, (line) => lines.push(line));

      for (const [name, address] of Object.entries(result.addresses)) {
        expect(await ethers.provider.getCode(address), name).to.not.equal("0x");
        expect(lines.some((l) => l.includes(name) && l.includes(address))).to.equal(true);
      }
      // 100 minted: 20 listed on spot (10 bought, 10 still listed), 5 sold forward, 5 under a call
      expect(await result.deployment.sstb.balanceOf(result.provider)).to.equal(parseEther("70"));
      const { spotMarket, futuresMarket, optionsMarket } = result.deployment;
      expect(result.listings).to.deep.equal({ spot: 1n, future: 2n, call: 3n });
      expect((await spotMarket.listingOf(1n)).remaining).to.equal(parseEther("10"));
      expect((await futuresMarket.listingOf(2n)).status).to.equal(6n); // settled
      expect((await optionsMarket.listingOf(3n)).status).to.equal(8n); // exercised
      // bought 10, redeemed 5 + 2 with 10 bps fees, received 5 by the future and 5 by the call
      expect(await result.deployment.sstb.balanceOf(result.user)).to.equal(parseEther("12.993"));
      expect(lines.some((l) => l.includes("a keeper settled future #2: user received 5.0 sSTB"))).to.equal(true);
      expect(lines.some((l) => l.includes("user exercised the call: paid 9.0 mUSDC for 5 sSTB"))).to.equal(true);
      expect(await result.deployment.redemptionViews.redemptionStatus(result.expiredRedemptionId)).to.equal(4n);
      // 2 sSTB expired during the provider's stake: made whole at 100% (1 mUSDC per sSTB)
      expect(result.compensation).to.equal(2_000_000n);
      expect(result.compensation > 0n).to.equal(true);
      expect(await result.deployment.cuToken.balanceOf(result.provider, result.cuId)).to.equal(0n);
      expect((await result.deployment.cuToken.computeUnit(result.cuId)).provider).to.equal(result.provider);
      const redemption = await result.deployment.redemptionManager.redemptions(result.redemptionId);
      expect(redemption.user).to.equal(result.user);
      expect([redemption.fulfilled, redemption.confirmed]).to.deep.equal([true, true]);
      expect(lines.some((l) => l.includes("user decrypted it: ssh"))).to.equal(true);
      expect(lines.at(-1)).to.equal("Done.");
    });
  });

  describe("runGasBenchmark (npm run bench:gas)", function () {
    // one run on a fresh chain, which each test reads from (a run is deterministic and takes about 13 s)
    let rows: Awaited<ReturnType<typeof runGasBenchmark>>;
    before(async function () {
      rows = await runGasBenchmark(await network.create());
    });

    it("measures every user-facing operation and renders the table", async function () {
      const operations = new Set(rows.map((r) => r.operation));
      for (const op of [
        "register",
        "depositCollateral",
        "verifyAndMintSSTB",
        "retireCapacity",
        "withdrawCollateral",
        "sSTB transfer",
        "sSTB permit",
        "initiateRedemption",
        "fulfillRedemption",
        "confirmRedemption",
        "registerAccessKey",
        "initiateRedemptionWithAccessKey",
        "fulfillRedemptionWithLease",
        "offerRenewal",
        "acceptRenewal",
        "withdrawRenewalOffer",
        "terminateLease",
        "openDispute",
        "expireRedemption",
        "propose",
        "castVote",
        "queue",
        "execute",
        "governance token transfer",
        "spot createListing",
        "spot buy (partial fill)",
        "spot buy (full fill)",
        "spot cancel",
        "spot createBuyOrder",
        "spot sell (partial fill)",
        "futures offerToSell",
        "futures take",
        "futures settle",
        "options writeCall",
        "options buyOption",
        "options exercise",
      ]) {
        expect(operations.has(op), op).to.equal(true);
      }
      for (const row of rows) expect(row.gasUsed > 21_000n, row.operation).to.equal(true);

      const report = renderGasReport(rows, "test");
      expect(report).to.contain("| operation | gas used | scenario |");
      expect(
        report.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| operation") && !l.startsWith("| ---")),
      ).to.have.length(rows.length + rows.filter((r) => r.target !== undefined).length);
    });

    it("keeps a spot fill within 110,000 and a listing within 140,000; a cancel within 50,000 without the proxy", async function () {
      for (const row of rows.filter((r) => r.goal === "markets")) {
        const bound = row.operation === "spot cancel" ? row.floor! : row.gasUsed;
        expect(bound <= row.target!, `${row.operation}: measured ${row.gasUsed}, floor ${row.floor}`).to.equal(true);
        expect(row.floor! < row.gasUsed).to.equal(true);
      }
    });

    it("keeps a steady-state initiation within 150,000, a confirmation within 60,000 and a termination within 50,000; reports the misses with their floors", async function () {
      const goals = rows.filter((r) => r.goal === "redemptions");
      expect(goals.map((r) => r.operation)).to.deep.equal([
        "initiateRedemption",
        "confirmRedemption",
        "acceptRenewal",
        "terminateLease",
        "terminateLease",
      ]);
      const [initiation, confirmation, renewal, ...terminations] = goals;
      expect(initiation.target).to.equal(150_000n);
      expect(initiation.gasUsed <= 150_000n, `initiation: measured ${initiation.gasUsed}`).to.equal(true);
      expect(confirmation.target).to.equal(60_000n);
      expect(confirmation.gasUsed <= 60_000n, `confirmation: measured ${confirmation.gasUsed}`).to.equal(true);
      for (const termination of terminations) {
        expect(termination.gasUsed <= 50_000n, `${termination.note}: measured ${termination.gasUsed}`).to.equal(true);
      }
      // a renewal's target is the initiation's measured gas
      expect(renewal.target).to.equal(initiation.gasUsed);
      for (const row of goals) expect(row.floor! < row.gasUsed, row.operation).to.equal(true);
      // a missed goal is reported with its reason
      const report = renderGasReport(rows, "test");
      expect(report).to.contain("## Redemption and lease targets (issue 19)");
      for (const row of [renewal].filter((r) => r.gasUsed > r.target!)) {
        expect(row.reason, row.operation).to.not.equal(undefined);
        expect(report).to.contain(`- **${row.operation}** missed: ${row.reason}`);
      }
    });

    it("keeps a steady-state 2-of-3 mint within the 250,000 gas target", async function () {
      const steady = rows.find((r) => r.operation === "verifyAndMintSSTB" && r.note.includes("covered by collateral"));
      expect(steady, "steady-state mint row").to.not.equal(undefined);
      expect(steady!.gasUsed <= 250_000n, `measured ${steady!.gasUsed}`).to.equal(true);
    });

    it("keeps a fulfilment within 45,000 gas plus the calldata and log cost of its envelope", async function () {
      const fulfil = rows.find((r) => r.operation === "fulfillRedemption");
      expect(fulfil, "fulfillRedemption row").to.not.equal(undefined);
      const bytes = BigInt(/envelope of (\d+) bytes/.exec(fulfil!.note)![1]);
      // an envelope is base64url text: every byte is non-zero calldata (16 gas) and log data (8 gas)
      const budget = 45_000n + bytes * (16n + 8n);
      expect(bytes > 300n, `envelope of ${bytes} bytes`).to.equal(true);
      expect(fulfil!.gasUsed <= budget, `measured ${fulfil!.gasUsed}, budget ${budget}`).to.equal(true);
    });
  });
});
