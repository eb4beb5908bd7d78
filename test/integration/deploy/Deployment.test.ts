import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { network } from "hardhat";

import { CCIP_CHAIN_SELECTORS, CCIP_ROUTERS, CHAINS } from "@compute-capacity/sdk";
import { sampleVerifierKeys } from "../../../gateway/verification/keys.js";
import { deployPrimary, deploySatellite } from "../../../deploy/deploy.js";
import {
  DeploymentConfigError,
  chainsOf,
  checkParameterFile,
  gatherDeployment,
  parameterFileOf,
  writeDeploymentFile,
} from "../../../deploy/environments.js";
import { startLocalNode } from "../../../devnet/local-node.js";
import type { LocalNode } from "../../../devnet/local-node.js";
import { localDeployOptions } from "../../../devnet/samples.js";

/** Circle's native USDC on each chain. */
const USDC = {
  arbitrum: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
  ethereum: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
  polygon: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
  arbitrumSepolia: "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d",
  sepolia: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238",
  polygonAmoy: "0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582",
};

describe("Deployment (Ignition modules in deploy/)", function () {
  this.timeout(120_000);

  describe("redeploying with the journal", function () {
    let node: LocalNode | undefined;
    const ids = [`test-primary-${process.pid}`, `test-satellite-${process.pid}`];

    after(async function () {
      await node?.stop();
      for (const id of ids) await rm(path.join("ignition", "deployments", id), { recursive: true, force: true });
    });

    it("sends nothing the second time, keeps every address, and writes the gathered addresses", async function () {
      node = await startLocalNode({ chainId: 42161n });
      const connection = await network.create({ network: "localhost", override: { url: node.url } });
      const [deployer, treasury, approver, arbitrator, guardian] = await connection.ethers.getSigners();
      const options = localDeployOptions({ treasury, approver, arbitrator, guardian }, sampleVerifierKeys("redeploy"), {
        deploymentId: ids[0],
      });
      const first = await deployPrimary(connection, options);
      // a satellite on the same node, playing ethereum's selector (its own devnet router)
      const satelliteOptions = {
        treasury: treasury.address,
        guardian: guardian.address,
        cuTokenUri: options.cuTokenUri,
        primaryChainSelector: CCIP_CHAIN_SELECTORS["42161"],
        primaryTimelock: await first.timelock.getAddress(),
        bridge: { chainSelector: CCIP_CHAIN_SELECTORS["1"] },
        deploymentId: ids[1],
      };
      const satellite = await deploySatellite(connection, satelliteOptions);
      const nonce = await connection.ethers.provider.getTransactionCount(deployer.address);

      // the same mock collateral (from the journal) and the same primary module: nothing to send
      const again = await deployPrimary(connection, {
        ...options,
        collateralToken: await first.collateral.getAddress(),
      });
      await deploySatellite(connection, satelliteOptions);
      expect(await connection.ethers.provider.getTransactionCount(deployer.address)).to.equal(nonce);
      for (const key of Object.keys(first) as Array<keyof typeof first>) {
        expect(await again[key]!.getAddress(), key).to.equal(await first[key]!.getAddress());
      }

      // the hand-off ran as the last step: the deployer holds nothing, the timelock everything
      const timelock = await first.timelock.getAddress();
      for (const contract of [
        first.sstb,
        first.registry,
        first.mintingAgent,
        first.redemptionManager,
        first.spotMarket,
        first.futuresMarket,
        first.optionsMarket,
      ]) {
        expect(await contract.hasRole("0x" + "00".repeat(32), deployer.address)).to.equal(false);
        expect(await contract.hasRole("0x" + "00".repeat(32), timelock)).to.equal(true);
      }
      expect(await first.timelock.hasRole("0x" + "00".repeat(32), deployer.address)).to.equal(false);

      const record = await gatherDeployment([
        { chain: "arbitrum", deploymentId: ids[0] },
        { chain: "ethereum", deploymentId: ids[1] },
      ]);
      expect(record.arbitrum.RedemptionManager).to.equal(await first.redemptionManager.getAddress());
      expect(record.arbitrum.RedemptionManagerImplementation).to.match(/^0x[0-9a-fA-F]{40}$/);
      expect(record.arbitrum.RedemptionManagerImplementation).to.not.equal(record.arbitrum.RedemptionManager);
      expect(record.arbitrum.CollateralToken).to.equal(await first.collateral.getAddress());
      for (const name of ["SpotMarket", "FuturesMarket", "OptionsMarket"] as const) {
        const key = `${name[0].toLowerCase()}${name.slice(1)}` as "spotMarket" | "futuresMarket" | "optionsMarket";
        expect(record.arbitrum[name], name).to.equal(await first[key].getAddress());
        expect(record.arbitrum[`${name}Implementation`], name).to.match(/^0x[0-9a-fA-F]{40}$/);
      }
      expect(Object.keys(record.arbitrum).some((name) => name.endsWith("Proxy"))).to.equal(false);
      expect(Object.keys(record.ethereum).sort()).to.deep.equal([
        "Bridge",
        "BridgeImplementation",
        "CUToken",
        "CollateralToken",
        "DevnetCCIPRouter",
        "GovernanceChannel",
        "GovernanceChannelImplementation",
        "GovernanceToken",
        "SSTB",
        "SSTBImplementation",
        "SatelliteExecutor",
      ]);
      expect(record.ethereum.SSTB).to.equal(await satellite.sstb.getAddress());
      expect(record.ethereum.GovernanceToken).to.equal(await satellite.governanceToken.getAddress());
      expect(await satellite.governanceToken.totalSupply()).to.equal(0n);
      // the satellite's hand-off: the executor holds its roles, the deployer none
      const executor = await satellite.executor.getAddress();
      for (const contract of [satellite.sstb, satellite.bridge, satellite.cuToken, satellite.governanceToken]) {
        expect(await contract.hasRole("0x" + "00".repeat(32), deployer.address)).to.equal(false);
        expect(await contract.hasRole("0x" + "00".repeat(32), executor)).to.equal(true);
      }

      const dir = await mkdtemp(path.join(tmpdir(), "deployments-"));
      const file = await writeDeploymentFile("test", record, dir);
      expect(JSON.parse(await readFile(file, "utf8"))).to.deep.equal(record);
      await connection.close();
    });
  });

  describe("parameter files (deploy/parameters)", function () {
    it("name the real USDC, CCIP router and chain selector on every chain, and no governance supply on satellites", async function () {
      for (const [chain, usdc] of Object.entries(USDC)) {
        const json = JSON.parse(await readFile(parameterFileOf(chain), "utf8"));
        expect(json.$global.collateralToken, chain).to.equal(usdc);
        expect(json.$global.ccipRouter, chain).to.equal(CCIP_ROUTERS[chain]);
        const chainId = CHAINS[chain as keyof typeof CHAINS].chainId;
        expect(json.$global.chainSelector, chain).to.equal(`${CCIP_CHAIN_SELECTORS[String(chainId)]}n`);
      }
      for (const chain of ["ethereum", "polygon", "sepolia", "polygonAmoy"]) {
        const json = JSON.parse(await readFile(parameterFileOf(chain), "utf8"));
        expect(json.$global.governanceSupply, chain).to.equal(undefined);
      }
    });

    it("are refused while a placeholder is left, and accepted once filled in", async function () {
      for (const { chain, role } of [...chainsOf("mainnet"), ...chainsOf("testnet")]) {
        await expect(checkParameterFile(chain, role)).to.be.rejectedWith(
          DeploymentConfigError,
          /treasury is still the zero placeholder/,
        );
      }
      const dir = await mkdtemp(path.join(tmpdir(), "parameters-"));
      const file = path.join(dir, "arbitrum.json");
      await cp(parameterFileOf("arbitrum"), file);
      const json = JSON.parse(await readFile(file, "utf8"));
      const filled = (n: number) => "0x" + n.toString(16).padStart(40, "0");
      Object.assign(json.$global, {
        treasury: filled(1),
        approver: filled(2),
        arbitrator: filled(3),
        guardian: filled(4),
        verifiers: [filled(5), filled(6), filled(7)],
      });
      await writeFile(file, JSON.stringify(json));
      const checked = await checkParameterFile("arbitrum", "primary", file);
      expect(checked.votingPeriod).to.equal("432000n");
      json.$global.chainSelector = `${CCIP_CHAIN_SELECTORS["1"]}n`;
      await writeFile(file, JSON.stringify(json));
      await expect(checkParameterFile("arbitrum", "primary", file)).to.be.rejectedWith(
        /chainSelector must be CCIP's selector of arbitrum/,
      );
      json.$global.chainSelector = `${CCIP_CHAIN_SELECTORS["42161"]}n`;
      json.$global.ccipRouter = "0x0000000000000000000000000000000000000000";
      await writeFile(file, JSON.stringify(json));
      await expect(checkParameterFile("arbitrum", "primary", file)).to.be.rejectedWith(
        /ccipRouter is still the zero placeholder/,
      );
      json.$global.ccipRouter = CCIP_ROUTERS.arbitrum;
      json.$global.verifierThreshold = 4;
      await writeFile(file, JSON.stringify(json));
      await expect(checkParameterFile("arbitrum", "primary", file)).to.be.rejectedWith(
        /verifierThreshold must be 1..3/,
      );
    });

    it("only name chains of their environment", function () {
      expect(chainsOf("testnet").map((c) => c.chain)).to.deep.equal(["arbitrumSepolia", "sepolia", "polygonAmoy"]);
      expect(chainsOf("mainnet", "polygon")).to.deep.equal([{ chain: "polygon", role: "satellite" }]);
      expect(() => chainsOf("mainnet", "sepolia")).to.throw(DeploymentConfigError, /not a chain of mainnet/);
      expect(() => chainsOf("staging")).to.throw(DeploymentConfigError, /environment must be one of/);
    });
  });
});
