import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { Wallet, getAddress } from "ethers";

import { Roles } from "@compute-capacity/sdk";
import { contractsOf, readIgnitionRecord } from "../../../deploy/check/load.js";
import { same } from "../../../deploy/check/parameters.js";
import { formatReport } from "../../../deploy/check/report.js";
import { ROLE_HOLDERS } from "../../../deploy/check/roles.js";
import { everyRouteOnce } from "../../../tools/rehearsal-routes.js";
import { rejection } from "../../helpers/rejection.js";

describe("The post-deployment check's parts (deploy/check/)", function () {
  describe("ROLE_HOLDERS", function () {
    it("says who may hold every role of sdk/roles.ts, and of no other", function () {
      expect(Object.keys(ROLE_HOLDERS).sort()).to.deep.equal(Object.keys(Roles).sort());
      for (const [role, holders] of Object.entries(ROLE_HOLDERS)) expect(holders.length, role).to.be.greaterThan(0);
      // the deployer is never among them: it renounces everything at the hand-off
      expect(ROLE_HOLDERS.DEFAULT_ADMIN).to.deep.equal(["governance"]);
      expect(ROLE_HOLDERS.UPGRADER).to.deep.equal(["governance"]);
    });
  });

  describe("same (an on-chain value against a parameter)", function () {
    it("compares addresses without case, numbers as bigints, and lists as sets", function () {
      const a = Wallet.createRandom().address;
      const b = Wallet.createRandom().address;
      expect(same(a.toLowerCase(), a)).to.equal(true);
      expect(same(b, a)).to.equal(false);
      expect(same(2n, 2)).to.equal(true);
      expect(same(3n, 2n)).to.equal(false);
      expect(same([b, a], [a, b])).to.equal(true);
      expect(same([a, a], [a, b])).to.equal(false);
      expect(same([a], [a, b])).to.equal(false);
      expect(same("https://x/{id}", "https://x/{id}")).to.equal(true);
    });
  });

  describe("readIgnitionRecord and contractsOf", function () {
    it("read the journal's senders, first block and artifacts, and name every disagreement with the deployments file", async function () {
      const dir = await mkdtemp(path.join(tmpdir(), "ignition-"));
      const id = "test-chain";
      const [proxy, implementation, token] = [1, 2, 3].map(() => Wallet.createRandom().address);
      const deployer = Wallet.createRandom().address;
      await mkdir(path.join(dir, id, "artifacts"), { recursive: true });
      const addresses = {
        "Core#SSTBImplementation": implementation,
        "Core#SSTBProxy": proxy,
        "Core#SSTB": proxy,
        "Core#CUToken": token,
      };
      await writeFile(path.join(dir, id, "deployed_addresses.json"), JSON.stringify(addresses));
      const artifacts: Record<string, [string, string]> = {
        "Core#SSTBImplementation": ["contracts/tokens/SSTB.sol", "SSTB"],
        "Core#SSTBProxy": ["@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol", "ERC1967Proxy"],
        "Core#SSTB": ["contracts/tokens/SSTB.sol", "SSTB"],
        "Core#CUToken": ["contracts/tokens/CUToken.sol", "CUToken"],
      };
      for (const [future, [sourceName, contractName]] of Object.entries(artifacts)) {
        await writeFile(
          path.join(dir, id, "artifacts", `${future}.json`),
          JSON.stringify({ sourceName, contractName }),
        );
      }
      const journal = [
        { type: "DEPLOYMENT_INITIALIZE", chainId: 42161 },
        { type: "DEPLOYMENT_EXECUTION_STATE_INITIALIZE", futureId: "Core#CUToken", from: deployer.toLowerCase() },
        { type: "TRANSACTION_CONFIRM", futureId: "Core#CUToken", receipt: { blockNumber: 7 } },
        { type: "TRANSACTION_CONFIRM", futureId: "Core#SSTBProxy", receipt: { blockNumber: 5 } },
        { type: "CONTRACT_AT_EXECUTION_STATE_INITIALIZE", futureId: "Core#SSTB" },
        { type: "CALL_EXECUTION_STATE_INITIALIZE", futureId: "Core#grant", from: deployer.toLowerCase() },
      ];
      await writeFile(path.join(dir, id, "journal.jsonl"), journal.map((j) => JSON.stringify(j)).join("\n") + "\n");

      const ignition = await readIgnitionRecord(dir, id);
      expect(ignition.senders).to.deep.equal([getAddress(deployer)]);
      expect(ignition.firstBlock).to.equal(5);
      expect([...ignition.contractAt]).to.deep.equal(["Core#SSTB"]);

      const agreed = contractsOf({ SSTB: proxy, SSTBImplementation: implementation, CUToken: token }, ignition);
      expect(agreed.problems).to.deep.equal([]);
      expect(agreed.contracts.find((c) => c.name === "SSTB")).to.deep.equal({
        name: "SSTB",
        address: proxy,
        code: "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol:ERC1967Proxy",
        abi: "contracts/tokens/SSTB.sol:SSTB",
      });

      const stranger = Wallet.createRandom().address;
      const disagreed = contractsOf({ SSTB: stranger, SSTBImplementation: implementation, Extra: token }, ignition);
      expect(disagreed.problems).to.deep.equal([
        `SSTB: the deployments file says ${stranger}, the Ignition journal ${proxy}`,
        `Extra ${token} is in the deployments file but not in the Ignition journal`,
        "CUToken is in the Ignition journal but not in the deployments file",
      ]);
      expect((await rejection(readIgnitionRecord(dir, "missing"))).message).to.match(
        /^no Ignition journal at .*missing/,
      );
    });
  });

  describe("formatReport", function () {
    it("prints one line per check by chain and section, then the failures again and the verdict", function () {
      const lines = [
        { chain: "arbitrum", section: "roles" as const, ok: true, message: "SSTB DEFAULT_ADMIN: ProtocolTimelock" },
        { chain: "arbitrum", section: "code" as const, ok: false, message: "SSTB: not as built" },
        { chain: "arbitrum -> ethereum", section: "routes" as const, ok: true, message: "sSTB: fits" },
      ];
      const failures = lines.filter((l) => !l.ok);
      expect(
        formatReport({
          title: "mainnet",
          chains: [{ chain: "arbitrum", summary: "chain id 42161" }],
          lines,
          failures,
          ok: false,
        }),
      ).to.deep.equal([
        "Post-deployment check: mainnet",
        "",
        "arbitrum: chain id 42161",
        "  FAIL  code        SSTB: not as built",
        "  ok    roles       SSTB DEFAULT_ADMIN: ProtocolTimelock",
        "",
        "across chains:",
        "  ok    routes      sSTB: fits",
        "",
        "FAILED: 1 of 3 checks failed:",
        "  FAIL  arbitrum  code  SSTB: not as built",
      ]);
    });
  });

  describe("everyRouteOnce (the rehearsal's walk)", function () {
    it("takes every directed route between the chains exactly once, hop after hop, from the first chain back to it", function () {
      for (const chains of [
        ["a", "b"],
        ["a", "b", "c"],
        ["a", "b", "c", "d"],
      ]) {
        const walk = everyRouteOnce(chains);
        expect(walk, chains.join()).to.have.length(chains.length * (chains.length - 1));
        expect(new Set(walk.map(([from, to]) => `${from}>${to}`)).size).to.equal(walk.length);
        expect(walk.every(([from, to]) => from !== to)).to.equal(true);
        walk.slice(1).forEach(([from], i) => expect(from).to.equal(walk[i][1]));
        expect(walk[0][0]).to.equal(chains[0]);
        expect(walk.at(-1)![1]).to.equal(chains[0]);
      }
    });
  });
});
