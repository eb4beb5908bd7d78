import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { Wallet } from "ethers";

import { DecisionError, applyDecision, decide, describeState } from "../../../provider/decisions.js";
import { RecordChangedError, StateFile, withLock } from "../../../provider/state.js";
import type { RedemptionRecord } from "../../../provider/state.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const PROVIDER = Wallet.createRandom().address;
const record = (status: RedemptionRecord["status"], extra: Partial<RedemptionRecord> = {}): RedemptionRecord => ({
  status,
  updatedAt: 0,
  ...extra,
});

describe("The provider agent's state file and decisions (provider/state.ts, provider/decisions.ts)", function () {
  let dir: string;
  let file: string;
  const onDisk = () => JSON.parse(readFileSync(file, "utf8")).redemptions as Record<string, RedemptionRecord>;

  beforeEach(function () {
    dir = mkdtempSync(path.join(tmpdir(), "provider-state-"));
    file = path.join(dir, "state.json");
  });

  describe("decide (retry, abandon)", function () {
    it("retries a failed or abandoned redemption with a new round of attempts, counting the retries", function () {
      const failed = record("failed", { attempts: 5, error: "exit status 3" });
      expect(decide("retry", "7", failed)).to.deep.equal({ ...failed, status: "retry", attempts: 0, retries: 1 });
      expect(decide("retry", "7", record("abandoned", { retries: 1 }))).to.deep.include({
        status: "retry",
        retries: 2,
      });
    });

    it("abandons a failed redemption, a retry not yet started, or one that waits for a key", function () {
      for (const status of ["failed", "retry", "waiting_for_key"] as const) {
        expect(decide("abandon", "7", record(status)).status, status).to.equal("abandoned");
      }
    });

    it("refuses a redemption the agent never saw, and one the decision does not apply to, naming its status", function () {
      expect(() => decide("retry", "7", undefined)).to.throw(
        DecisionError,
        "redemption 7 is not in the state file: the agent has not seen it",
      );
      for (const status of [
        "fulfilled",
        "provisioning",
        "provisioned",
        "missed",
        "waiting_for_key",
        "retry",
      ] as const) {
        expect(() => decide("retry", "7", record(status)), status).to.throw(
          DecisionError,
          `redemption 7 is ${status}: retry applies to failed, abandoned redemptions`,
        );
      }
      for (const status of ["fulfilled", "provisioning", "provisioned", "missed", "abandoned"] as const) {
        expect(() => decide("abandon", "7", record(status)), status).to.throw(
          `redemption 7 is ${status}: abandon applies to failed, retry, waiting_for_key redemptions`,
        );
      }
    });
  });

  describe("a decision written while the agent runs", function () {
    it("is kept when the agent writes another record, and wins over the agent's stale change to the same one", function () {
      const agent = new StateFile(file, PROVIDER);
      agent.set("1", { status: "provisioning", attempts: 1 });
      agent.set("1", { status: "failed", error: "exit status 3" });
      agent.set("2", { status: "provisioning", attempts: 1 });

      // `npm run provider -- retry 1`, from another process
      expect(applyDecision(file, "retry", "1")).to.match(
        /^redemption 1: retry 1 requested; the agent provisions it again/,
      );
      expect(onDisk()["1"]).to.deep.include({ status: "retry", attempts: 0, retries: 1 });

      // the agent, still holding its old view, writes record 2: record 1 stays as the command left it
      agent.set("2", { status: "provisioned", details: { host: "h" } });
      expect(onDisk()["1"].status).to.equal("retry");
      expect(onDisk()["2"].status).to.equal("provisioned");

      // the agent's change to record 1 from its stale view is refused, and nothing is written
      const before = readFileSync(file, "utf8");
      expect(() => agent.set("1", { status: "failed", error: "late" })).to.throw(RecordChangedError, "now retry");
      expect(readFileSync(file, "utf8")).to.equal(before);
      // after the refusal (or at its next pass) the agent works from the decision
      expect(agent.get("1")!.status).to.equal("retry");
      agent.reload();
      expect(agent.set("1", { status: "provisioning", attempts: 1 }).status).to.equal("provisioning");
    });

    it("abandons a redemption the agent then leaves alone, and refuses a second retry of one already queued", function () {
      const agent = new StateFile(file, PROVIDER);
      agent.set("3", { status: "failed", error: "no capacity" });
      expect(applyDecision(file, "abandon", "3")).to.match(/^redemption 3: abandoned; the agent leaves it alone/);
      expect(() => agent.set("3", { status: "provisioning" })).to.throw(RecordChangedError, "now abandoned");
      expect(onDisk()["3"].status).to.equal("abandoned");
      applyDecision(file, "retry", "3");
      expect(() => applyDecision(file, "retry", "3")).to.throw(DecisionError, "redemption 3 is retry");
    });

    it("refuses a state file of another provider, and a decision without a state file", function () {
      new StateFile(file, PROVIDER).set("1", { status: "failed" });
      expect(() => new StateFile(file, Wallet.createRandom().address)).to.throw(/belongs to provider/);
      expect(() => applyDecision(path.join(dir, "none.json"), "retry", "1")).to.throw(/no state file at/);
    });
  });

  describe("status (describeState)", function () {
    it("marks the redemptions that need a decision, and sums them up", function () {
      const lines = describeState({
        version: 1,
        provider: PROVIDER,
        redemptions: {
          "4": record("fulfilled", { leaseEnd: 1_900_000_000 }),
          "5": record("failed", { error: "exit status 3: no capacity left in rack 7" }),
          "6": record("abandoned", { error: "exit status 3" }),
          "8": record("retry", { retries: 2, error: "exit status 3" }),
        },
      });
      expect(lines).to.deep.equal([
        `provider ${PROVIDER}`,
        "  redemption 4: fulfilled, lease until 2030-03-17T17:46:40.000Z",
        "  redemption 5: failed, error: exit status 3: no capacity left in rack 7  <- needs a decision: npm run provider -- retry 5, or abandon 5",
        "  redemption 6: abandoned, error: exit status 3",
        "  redemption 8: retry, retried 2 times, error: exit status 3",
        "1 redemption needs a decision (retry or abandon): 5",
      ]);
      expect(describeState({ version: 1, provider: PROVIDER, redemptions: {} }).at(-1)).to.equal(
        "No redemption needs a decision.",
      );
    });
  });

  describe("the lock (withLock)", function () {
    it("waits for a live holder and gives up naming it; breaks the lock of a process that is gone", function () {
      writeFileSync(`${file}.lock`, String(process.pid));
      expect(() => withLock(file, () => "ran", 150)).to.throw(`is locked by process ${process.pid}`);
      const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
      writeFileSync(`${file}.lock`, String(gone));
      expect(withLock(file, () => "ran")).to.equal("ran");
      expect(existsSync(`${file}.lock`)).to.equal(false);
    });

    it("loses no record when several processes write the file at once", async function () {
      this.timeout(120_000);
      const agent = new StateFile(file, PROVIDER);
      agent.set("0", { status: "provisioning" });
      const writers = 4;
      const each = 25;
      const script = `
        import { StateFile } from ${JSON.stringify(path.join(ROOT, "provider", "state.ts"))};
        const [file, writer, count] = process.argv.slice(-3);
        for (let i = 0; i < Number(count); i++) {
          StateFile.update(file, writer + "-" + i, () => ({ status: "abandoned", updatedAt: 0 }));
        }`;
      const children = Array.from({ length: writers }, (_, w) =>
        spawn(
          process.execPath,
          ["--import", "tsx", "--input-type=module", "-e", script, "--", file, `w${w}`, String(each)],
          {
            cwd: ROOT,
            stdio: ["ignore", "ignore", "pipe"],
          },
        ),
      );
      // the agent writes its own records meanwhile
      for (let i = 0; i < each; i++) agent.set(`agent-${i}`, { status: "waiting_for_key" });
      const exits = await Promise.all(
        children.map(
          (child) =>
            new Promise<string>((resolve) => {
              let stderr = "";
              child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
              child.on("close", (code) => resolve(`exit ${code}${stderr === "" ? "" : `: ${stderr}`}`));
            }),
        ),
      );
      expect(exits).to.deep.equal(Array(writers).fill("exit 0"));
      const ids = Object.keys(onDisk());
      expect(ids).to.have.length(1 + each + writers * each);
      for (let w = 0; w < writers; w++)
        expect(
          ids.filter((id) => id.startsWith(`w${w}-`)),
          `writer ${w}`,
        ).to.have.length(each);
      expect(existsSync(`${file}.lock`)).to.equal(false);
    });
  });
});
