import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { JsonRpcProvider, JsonRpcSigner, Network, Wallet, ZeroAddress, parseEther, parseUnits } from "ethers";
import hre from "hardhat";

import { CCIP_CHAIN_SELECTORS, CCIP_ROUTERS, CHAINS, Roles } from "@compute-capacity/sdk";
import type { ChainName } from "@compute-capacity/sdk";
import { formatReport } from "../../../deploy/check-deployment.js";
import type { CheckReport } from "../../../deploy/check-deployment.js";
import { deploymentIdOf } from "../../../deploy/environments.js";
import { rehearse, runHardhat } from "../../../tools/rehearsal.js";
import { everyRouteOnce } from "../../../tools/rehearsal-routes.js";
import { rejection } from "../../helpers/rejection.js";
import type { Rehearsal } from "../../../tools/rehearsal.js";
import {
  Bridge__factory,
  BridgedGovernanceToken__factory,
  DevnetCCIPRouter__factory,
  GovernanceToken__factory,
  MockBlacklistStablecoin__factory,
  RedemptionManager__factory,
  SSTB__factory,
} from "../../../typechain-types/index.js";

const CHAIN_NAMES = ["arbitrum", "ethereum", "polygon"] as const;
const ROOT = hre.config.paths.root;
const parameters = (chain: string) =>
  JSON.parse(readFileSync(path.join(ROOT, "deploy", "parameters", `${chain}.json`), "utf8")).$global;

/** The lines of `after` that `before` did not have, as the report prints them. */
const newFailures = (before: CheckReport, after: CheckReport) =>
  after.failures
    .filter((f) => !before.failures.some((b) => b.chain === f.chain && b.message === f.message))
    .map((f) => `${f.chain} ${f.section} ${f.message}`);

describe("The mainnet rehearsal (npm run rehearse:mainnet: tools/rehearsal.ts)", function () {
  this.timeout(1_800_000);
  let rehearsal: Rehearsal;
  const output: string[] = [];
  const rpc: Record<string, JsonRpcProvider> = {};
  const record = () =>
    JSON.parse(readFileSync(rehearsal.deploymentFile, "utf8")) as Record<string, Record<string, string>>;

  before(async function () {
    rehearsal = await rehearse(hre, { environment: "mainnet", keepRunning: true, log: (line) => output.push(line) });
    for (const chain of CHAIN_NAMES) {
      const network = new Network(chain, CHAINS[chain].chainId);
      rpc[chain] = new JsonRpcProvider(rehearsal.nodes[chain].url, network, {
        staticNetwork: network,
        cacheTimeout: -1,
      });
    }
  });

  after(async function () {
    for (const provider of Object.values(rpc)) provider.destroy();
    if (rehearsal === undefined) return;
    await rehearsal.stop();
    // nothing of the rehearsal stays in the project: no journal, no deployments file
    for (const chain of CHAIN_NAMES) {
      expect(
        existsSync(path.join(ROOT, "ignition", "deployments", deploymentIdOf(rehearsal.recordAs, chain))),
      ).to.equal(false);
    }
    expect(existsSync(rehearsal.deploymentFile)).to.equal(false);
  });

  describe("the chains and the stand-ins", function () {
    it("runs a node per chain with the real chain id, and stand-ins at the addresses the parameter files name", async function () {
      for (const chain of CHAIN_NAMES) {
        expect(BigInt(await rpc[chain].send("eth_chainId", [])), chain).to.equal(CHAINS[chain].chainId);
        const { collateralToken, ccipRouter } = parameters(chain);
        expect(ccipRouter, chain).to.equal(CCIP_ROUTERS[chain]);

        // USDC: 6 decimals and a blacklist, as Circle's native USDC
        const usdc = MockBlacklistStablecoin__factory.connect(
          collateralToken,
          rehearsal.accounts.standIns.connect(rpc[chain]),
        );
        expect(await usdc.decimals(), chain).to.equal(6n);
        expect(await usdc.blacklister(), chain).to.equal(rehearsal.accounts.standIns.address);
        const holder = Wallet.createRandom().address;
        await (await usdc.mint(holder, parseUnits("5", 6))).wait();
        await (await usdc.blacklist(holder)).wait();
        const refused = (await rejection(usdc.mint(holder, 1n))) as Error & { data?: string };
        expect(usdc.interface.parseError(refused.data!)?.name, chain).to.equal("AccountBlacklisted");
        expect(usdc.interface.parseError(refused.data!)?.args[0], chain).to.equal(holder);
        await (await usdc.unBlacklist(holder)).wait();
        expect(await usdc.balanceOf(holder), chain).to.equal(parseUnits("5", 6));

        // the CCIP router: the devnet router on the chain's real selector, driven by the relayer
        const router = DevnetCCIPRouter__factory.connect(ccipRouter, rpc[chain]);
        expect(await router.localChainSelector(), chain).to.equal(CCIP_CHAIN_SELECTORS[String(CHAINS[chain].chainId)]);
        expect(await router.relayer(), chain).to.equal(rehearsal.accounts.relayer.address);
        for (const other of CHAIN_NAMES.filter((c) => c !== chain)) {
          expect(
            await router.isChainSupported(CCIP_CHAIN_SELECTORS[String(CHAINS[other].chainId)]),
            `${chain} -> ${other}`,
          ).to.be.true;
        }
      }
    });
  });

  describe("the deployment", function () {
    it("ran the real deployment command with a fresh deployer key and every placeholder filled by an overrides file", async function () {
      expect(rehearsal.commandEnv.DEPLOYER_PRIVATE_KEY).to.equal(rehearsal.accounts.deployer.privateKey);
      for (const chain of CHAIN_NAMES) {
        expect(rehearsal.commandEnv[`${chain.toUpperCase()}_RPC_URL`]).to.equal(rehearsal.nodes[chain].url);
      }
      expect(output).to.include(
        `npm run deploy -- --environment mainnet --overrides ${rehearsal.overridesFile} --record-as ${rehearsal.recordAs}`,
      );
      const overrides = JSON.parse(readFileSync(rehearsal.overridesFile, "utf8"));
      expect(Object.keys(overrides.arbitrum).sort()).to.deep.equal(
        ["approver", "arbitrator", "guardian", "treasury", "verifiers"].sort(),
      );
      expect(Object.keys(overrides.ethereum).sort()).to.deep.equal(["guardian", "treasury"]);
      expect(JSON.stringify(overrides)).to.not.include(ZeroAddress);
      // the deployer sent the deployment, on every chain, and the record lists every chain
      for (const chain of CHAIN_NAMES) {
        expect(await rpc[chain].getTransactionCount(rehearsal.accounts.deployer.address), chain).to.be.greaterThan(10);
        expect(record()[chain].Bridge, chain).to.match(/^0x[0-9a-fA-F]{40}$/);
      }
      // the committed files are untouched: their placeholders are still zero
      expect(parameters("arbitrum").treasury).to.equal(ZeroAddress);
    });

    it("passes the post-deployment check: every line ok", function () {
      const report = formatReport(rehearsal.report);
      expect(rehearsal.report.failures.map((f) => `${f.chain} ${f.section} ${f.message}`)).to.deep.equal([]);
      expect(report.at(-1)).to.match(/^PASSED: \d+ checks, none failed\.$/);
      for (const section of ["record", "code", "proxies", "roles", "wiring", "parameters", "routes", "governance"]) {
        expect(
          rehearsal.report.lines.filter((l) => l.section === section).length,
          `${section} lines`,
        ).to.be.greaterThan(0);
      }
    });

    it("carried a transfer of each token across all six routes, through the relayer and the stand-in routers", async function () {
      const routes = everyRouteOnce(CHAIN_NAMES);
      expect(new Set(routes.map(([a, b]) => `${a}>${b}`)).size).to.equal(6);
      for (const token of ["STBGOV", "sSTB"]) {
        const hops = rehearsal.hops.filter((h) => h.token === token);
        expect(hops.map((h) => [h.from, h.to])).to.deep.equal(routes);
        expect(hops.every((h) => h.status === "completed" && h.feeOption === "default" && h.fee > 0n)).to.be.true;
      }
      // supply conserved: what left arbitrum is on the satellites, or back
      const r = record();
      const user = rehearsal.accounts.user.address;
      const escrow = await GovernanceToken__factory.connect(r.arbitrum.GovernanceToken, rpc.arbitrum).balanceOf(
        r.arbitrum.Bridge,
      );
      let bridged = 0n;
      let sstb = 0n;
      for (const chain of CHAIN_NAMES) {
        if (chain !== "arbitrum") {
          bridged += await BridgedGovernanceToken__factory.connect(r[chain].GovernanceToken, rpc[chain]).totalSupply();
        }
        sstb += await SSTB__factory.connect(r[chain].SSTB, rpc[chain]).totalSupply();
      }
      expect(escrow).to.equal(bridged);
      // 1,000 sSTB minted on arbitrum; the fees were paid in USDC, so every hop moved its whole amount
      expect(sstb).to.equal(parseEther("1000"));
      for (const chain of CHAIN_NAMES) {
        const moved = rehearsal.hops
          .filter((h) => h.token === "sSTB")
          .reduce((sum, h) => sum + (h.to === chain ? h.amount : 0n) - (h.from === chain ? h.amount : 0n), 0n);
        const start = chain === "arbitrum" ? parseEther("1000") : 0n;
        expect(await SSTB__factory.connect(r[chain].SSTB, rpc[chain]).balanceOf(user), chain).to.equal(start + moved);
      }
    });
  });

  describe("the post-deployment check on deliberate mistakes", function () {
    it("fails, naming them, on a wrong parameter and a role left with the deployer, and the command exits 1", async function () {
      const r = record();
      const deployer = rehearsal.accounts.deployer.address;
      const as = async (chain: ChainName, account: string) => {
        await rpc[chain].send("hardhat_impersonateAccount", [account]);
        await rpc[chain].send("hardhat_setBalance", [account, `0x${parseEther("1").toString(16)}`]);
        return new JsonRpcSigner(rpc[chain], account);
      };
      // ethereum lets in less sSTB from arbitrum than the file says (and than arbitrum lets out)
      const executor = await as("ethereum", r.ethereum.SatelliteExecutor);
      const bridge = Bridge__factory.connect(r.ethereum.Bridge, executor);
      const rate = BigInt(parameters("ethereum").bridgeSstbInboundRate.slice(0, -1));
      await (
        await bridge.setRateLimit(CCIP_CHAIN_SELECTORS["42161"], 0, false, {
          enabled: true,
          capacity: parseEther("500000"),
          rate,
        })
      ).wait();
      // the deployer holds the upgrade role on arbitrum's redemption manager again
      const timelock = await as("arbitrum", r.arbitrum.ProtocolTimelock);
      const manager = RedemptionManager__factory.connect(r.arbitrum.RedemptionManager, timelock);
      await (await manager.grantRole(Roles.UPGRADER, deployer)).wait();

      const report = await rehearsal.check();
      expect(report.ok).to.equal(false);
      const added = newFailures(rehearsal.report, report);
      const expected = [
        /^ethereum parameters bridgeSstbInboundCapacity: Bridge from arbitrum, sSTB, capacity is 500000000000000000000000, deploy\/parameters\/ethereum\.json with overrides says 1100000000000000000000000$/,
        /^arbitrum -> ethereum routes sSTB: ethereum lets in 500000\.0 \(refilling [\d.]+ a second\), LESS than arbitrum lets out 1000000\.0 \(refilling [\d.]+ a second\)$/,
        new RegExp(
          `^arbitrum roles RedemptionManager UPGRADER: held by ProtocolTimelock, the deployer ${deployer}: the deployer ${deployer} must hold nothing after the hand-off$`,
        ),
        new RegExp(`^arbitrum roles RedemptionManager: the deployer ${deployer} still holds UPGRADER$`),
      ];
      expect(added, added.join("\n")).to.have.length(expected.length);
      for (const pattern of expected)
        expect(
          added.some((line) => pattern.test(line)),
          String(pattern),
        ).to.equal(true);

      // the command deployers run says the same and exits 1
      const command = await runHardhat(
        ROOT,
        [
          "check-deployment",
          "--environment",
          "mainnet",
          "--overrides",
          rehearsal.overridesFile,
          "--record-as",
          rehearsal.recordAs,
        ],
        rehearsal.commandEnv,
      );
      expect(command.code).to.equal(1);
      expect(command.output).to.match(/^FAILED: \d+ of \d+ checks failed:$/m);
      expect(command.output).to.include(
        `  FAIL  arbitrum  roles  RedemptionManager: the deployer ${deployer} still holds UPGRADER`,
      );
      expect(command.output).to.include(
        "  FAIL  ethereum  parameters  bridgeSstbInboundCapacity: Bridge from arbitrum, sSTB, capacity is 500000000000000000000000",
      );
    });
  });

  describe("the deployment command's refusals (nothing sent)", function () {
    const refused = async (overrides: object) => {
      const dir = await mkdtemp(path.join(tmpdir(), "overrides-"));
      const file = path.join(dir, "overrides.json");
      await writeFile(file, JSON.stringify(overrides));
      const nonces = await Promise.all(
        CHAIN_NAMES.map((c) => rpc[c].getTransactionCount(rehearsal.accounts.deployer.address)),
      );
      const run = await runHardhat(
        ROOT,
        [
          "deploy-protocol",
          "--environment",
          "mainnet",
          "--overrides",
          file,
          "--record-as",
          `${rehearsal.recordAs}-refused`,
        ],
        rehearsal.commandEnv,
      );
      expect(run.code).to.equal(1);
      const after = await Promise.all(
        CHAIN_NAMES.map((c) => rpc[c].getTransactionCount(rehearsal.accounts.deployer.address)),
      );
      expect(after).to.deep.equal(nonces);
      return run.output;
    };

    it("refuses an overrides file that names the deployer for a role, before sending anything", async function () {
      // (the other refusals of an overrides file are unit tests: test/unit/deploy/ParameterOverrides.test.ts)
      const filled = JSON.parse(readFileSync(rehearsal.overridesFile, "utf8"));
      const output = await refused({
        ...filled,
        polygon: { ...filled.polygon, guardian: rehearsal.accounts.deployer.address },
      });
      expect(output).to.include(
        `deploy-protocol failed: polygon.guardian is the deployer's own account ${rehearsal.accounts.deployer.address}: ` +
          "the deployer renounces every role at the hand-off, so it must not be one of the accounts that keep one",
      );
    });
  });
});
