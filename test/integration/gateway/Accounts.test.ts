import { mkdtemp, rm } from "node:fs/promises";
import { existsSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { Wallet } from "ethers";

import { accountsCommand } from "../../../gateway/accounts/command.js";
import { Sealer, checkSealingKey } from "../../../gateway/accounts/sealed.js";
import { AccountQueue } from "../../../gateway/accounts/signer.js";
import { ConfigError, loadConfig } from "../../../gateway/config.js";
import { openStore } from "../../../gateway/store/db.js";
import { sealingKeyCheck } from "../../../gateway/store/schema.js";
import { resetDatabase } from "../../../testing/fixtures.js";

describe("managed accounts", function () {
  this.timeout(60_000);
  let dir: string;

  before(async function () {
    dir = await mkdtemp(path.join(tmpdir(), "gateway-accounts-"));
  });
  after(async function () {
    await rm(dir, { recursive: true, force: true });
  });

  describe("the master key (GATEWAY_ACCOUNT_KEY)", function () {
    it("is generated into the data folder on the devnet only, readable by its owner only", function () {
      const dataDir = path.join(dir, "devnet");
      const config = loadConfig({ "data-dir": dataDir }, {}, dir);
      const file = path.join(dataDir, "account-key");
      expect(config.accountKey).to.match(/^[0-9a-f]{64}$/);
      expect(readFileSync(file, "utf8").trim()).to.equal(config.accountKey);
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      expect(loadConfig({ "data-dir": dataDir }, {}, dir).accountKey).to.equal(config.accountKey); // kept

      const env = { GATEWAY_JWT_SECRET: "x".repeat(32), GATEWAY_TRUSTED_PROXIES: "10.0.0.2" }; // outside the devnet: behind a TLS proxy
      const testnetDir = path.join(dir, "testnet");
      const testnet = loadConfig({ environment: "testnet", "data-dir": testnetDir }, env, dir);
      expect(testnet.accountKey).to.equal(undefined); // no managed accounts without a configured key
      expect(existsSync(path.join(testnetDir, "account-key"))).to.equal(false);
      const key = "ab".repeat(32);
      expect(loadConfig({ environment: "testnet" }, { ...env, GATEWAY_ACCOUNT_KEY: key }, dir).accountKey).to.equal(
        key,
      );
    });

    it("refuses a key that is not 32 bytes of hex", function () {
      expect(() => loadConfig({ "data-dir": dir }, { GATEWAY_ACCOUNT_KEY: "short" }, dir)).to.throw(ConfigError);
    });
  });

  describe("Sealer (AES-256-GCM)", function () {
    it("opens what it sealed, only under the same key and associated data, and fails on tampering", function () {
      const sealer = new Sealer("01".repeat(32));
      const secret = Buffer.from(Wallet.createRandom().privateKey.slice(2), "hex");
      const sealed = sealer.seal(secret, "0xA");
      expect(sealer.open(sealed, "0xA").equals(secret)).to.equal(true);
      expect(sealed).to.not.include(secret.toString("hex"));
      expect(() => sealer.open(sealed, "0xB")).to.throw();
      expect(() => new Sealer("02".repeat(32)).open(sealed, "0xA")).to.throw();
      const raw = Buffer.from(sealed.slice(3), "base64url");
      raw[raw.length - 1] ^= 1;
      expect(() => sealer.open("v1." + raw.toString("base64url"), "0xA")).to.throw();
      expect(sealer.seal(secret, "0xA")).to.not.equal(sealed); // a fresh IV each time
    });
  });

  describe("checkSealingKey (gateways sharing a database share the master key)", function () {
    it("lets in the key the database's sealed data was written with and refuses another or none, naming the setting", async function () {
      await resetDatabase();
      const store = await openStore({ databaseUrl: process.env.DATABASE_URL, dataDir: path.join(dir, "key-check") });
      try {
        // nothing sealed yet: a gateway without a key starts (and records nothing)
        await checkSealingKey(store.db, undefined);
        expect(await store.db.select().from(sealingKeyCheck)).to.deep.equal([]);
        // the first gateway with a key records it; it and another with the same key start again
        const first = new Sealer("0a".repeat(32));
        await checkSealingKey(store.db, first);
        await checkSealingKey(store.db, new Sealer("0a".repeat(32)));
        const [row] = await store.db.select().from(sealingKeyCheck);
        expect(row.sealed).to.match(/^v1\./);

        // another key, or none, is refused before it can fail request by request; the record stays
        const other = await checkSealingKey(store.db, new Sealer("0b".repeat(32))).then(
          () => undefined,
          (error: Error) => error,
        );
        expect(other).to.be.instanceOf(ConfigError);
        expect(other!.message).to.match(/^GATEWAY_ACCOUNT_KEY is not the master key this database's sealed data/);
        expect(other!.message).to.include("every gateway sharing a database needs the same key");
        const none = await checkSealingKey(store.db, undefined).then(
          () => undefined,
          (error: Error) => error,
        );
        expect(none).to.be.instanceOf(ConfigError);
        expect(none!.message).to.include("start this gateway with the same GATEWAY_ACCOUNT_KEY");
        expect(await store.db.select().from(sealingKeyCheck)).to.deep.equal([row]);
      } finally {
        await store.close();
      }
    });
  });

  describe("accounts create|list (the gateway command)", function () {
    it("creates a managed account and prints its address only", async function () {
      await resetDatabase();
      const config = loadConfig({ "data-dir": path.join(dir, "cli") }, { ...process.env }, dir);
      const created = (await accountsCommand(config, { action: "create", label: "ops" })) as Record<string, unknown>;
      expect(Object.keys(created).sort()).to.deep.equal(["address", "createdAt"]);
      const listed = (await accountsCommand(config, { action: "list" })) as {
        accounts: Array<Record<string, unknown>>;
      };
      expect(listed.accounts.map((a) => a.address)).to.deep.equal([created.address]);
      expect(Object.keys(listed.accounts[0]).sort()).to.deep.equal(["address", "createdAt", "label"]);
    });
  });

  describe("AccountQueue", function () {
    it("runs one account's work one at a time, in order, and other accounts' alongside", async function () {
      const queue = new AccountQueue();
      const log: string[] = [];
      let running = 0;
      let most = 0;
      const work = (name: string) => async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        log.push(name);
        running--;
        if (name === "a2") throw new Error("a2 fails");
        return name;
      };
      const results = await Promise.allSettled([
        queue.run("0xA", work("a1")),
        queue.run("0xa", work("a2")), // same account, other case
        queue.run("0xA", work("a3")),
      ]);
      expect(log).to.deep.equal(["a1", "a2", "a3"]);
      expect(most).to.equal(1);
      expect(results.map((r) => r.status)).to.deep.equal(["fulfilled", "rejected", "fulfilled"]);
      const both = await Promise.all([queue.run("0xB", work("b")), queue.run("0xC", work("c"))]);
      expect(both).to.deep.equal(["b", "c"]);
    });
  });
});
