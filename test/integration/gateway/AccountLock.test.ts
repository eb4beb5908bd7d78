import { setTimeout as sleep } from "node:timers/promises";

import { expect } from "chai";

import { AccountQueue, postgresAccountLock } from "../../../gateway/accounts/signer.js";
import type { AccountLock } from "../../../gateway/accounts/signer.js";
import { openStore } from "../../../gateway/store/db.js";
import type { Store } from "../../../gateway/store/db.js";

const ACCOUNT = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";
const OTHER = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";

/** Runs `work` under `lock` for `account`, recording when it held it. */
function timed(lock: AccountLock, account: string, spans: Array<[number, number]>) {
  return lock(account, async () => {
    const start = performance.now();
    await sleep(150);
    spans.push([start, performance.now()]);
  });
}

const overlap = ([a, b]: [number, number], [c, d]: [number, number]) => a < d && c < b;

describe("AccountQueue and the per-account lock across gateways", function () {
  this.timeout(30_000);

  describe("AccountQueue.run", function () {
    it("runs every piece of work of an account inside the lock, named by the lower-cased account", async function () {
      const held: string[] = [];
      const lock: AccountLock = async (account, work) => {
        held.push(account);
        return work();
      };
      const queue = new AccountQueue(lock);
      expect(await queue.run(ACCOUNT, async () => 7)).to.equal(7);
      await queue.run(ACCOUNT.toLowerCase(), async () => 8);
      expect(held).to.deep.equal([ACCOUNT.toLowerCase(), ACCOUNT.toLowerCase()]);
    });
  });

  // two pools on one PostgreSQL database stand for two gateway processes (PGlite is one process's)
  const postgres = process.env.DATABASE_URL ? ["PostgreSQL"] : [];
  for (const _ of postgres)
    describe("postgresAccountLock", function () {
      let stores: Store[] = [];

      before(async function () {
        stores = [
          await openStore({ databaseUrl: process.env.DATABASE_URL, dataDir: "" }),
          await openStore({ databaseUrl: process.env.DATABASE_URL, dataDir: "" }),
        ];
      });

      after(async function () {
        await Promise.all(stores.map((s) => s.close()));
      });

      it("lets one gateway at a time hold an account, and different accounts at once", async function () {
        const [a, b] = stores.map((s) => postgresAccountLock(s.db));
        const same: Array<[number, number]> = [];
        await Promise.all([timed(a, ACCOUNT, same), timed(b, ACCOUNT, same), timed(a, ACCOUNT, same)]);
        expect(same).to.have.length(3);
        for (let i = 0; i < same.length; i++) {
          for (let j = i + 1; j < same.length; j++) expect(overlap(same[i], same[j])).to.equal(false);
        }
        const different: Array<[number, number]> = [];
        await Promise.all([timed(a, ACCOUNT, different), timed(b, OTHER, different)]);
        expect(overlap(different[0], different[1])).to.equal(true);
      });

      it("releases the lock when the work fails", async function () {
        const [a, b] = stores.map((s) => postgresAccountLock(s.db));
        let failure: unknown;
        await a(ACCOUNT, async () => {
          throw new Error("reverted");
        }).catch((error: unknown) => (failure = error));
        expect((failure as Error).message).to.equal("reverted");
        expect(await Promise.race([b(ACCOUNT, async () => "taken"), sleep(5_000).then(() => "still held")])).to.equal(
          "taken",
        );
      });
    });
});
