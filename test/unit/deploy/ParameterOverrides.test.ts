import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { Wallet, ZeroAddress } from "ethers";

import { DeploymentConfigError, chainsOf, checkParameterFile, parameterFileOf } from "../../../deploy/environments.js";
import { applyOverrides, isPlaceholder, readOverridesFile } from "../../../deploy/parameter-overrides.js";
import { rejection } from "../../helpers/rejection.js";

const address = () => Wallet.createRandom().address;

/** What a deployer fills in for mainnet: every placeholder of the three files. */
function mainnetOverrides() {
  return {
    arbitrum: {
      treasury: address(),
      approver: address(),
      arbitrator: address(),
      guardian: address(),
      verifiers: [address(), address(), address()],
    },
    ethereum: { treasury: address(), guardian: address() },
    polygon: { treasury: address(), guardian: address() },
  };
}

describe("Parameter overrides (deploy/parameter-overrides.ts)", function () {
  describe("isPlaceholder", function () {
    it("is the zero address, or a list of nothing but zero addresses", function () {
      expect(isPlaceholder(ZeroAddress)).to.equal(true);
      expect(isPlaceholder([ZeroAddress, ZeroAddress])).to.equal(true);
      expect(isPlaceholder([ZeroAddress, address()])).to.equal(false);
      expect(isPlaceholder([])).to.equal(false);
      expect(isPlaceholder(address())).to.equal(false);
      expect(isPlaceholder("1000000n")).to.equal(false);
    });
  });

  describe("applyOverrides", function () {
    const committed = {
      treasury: ZeroAddress,
      verifiers: [ZeroAddress, ZeroAddress],
      ccipRouter: address(),
      votingDelay: "60n",
    };

    it("fills the placeholders, checksummed, and keeps every other value", function () {
      const treasury = address();
      const verifiers = [address(), address(), address()];
      const filled = applyOverrides("arbitrum", "f.json", committed, {
        treasury: treasury.toLowerCase(),
        verifiers,
      });
      expect(filled).to.deep.equal({ ...committed, treasury, verifiers });
    });

    it("refuses a field the file does not have, naming it", function () {
      expect(() => applyOverrides("arbitrum", "f.json", committed, { tresury: address() })).to.throw(
        DeploymentConfigError,
        "overrides arbitrum.tresury: f.json has no such parameter",
      );
    });

    it("refuses to change a value the committed file sets", function () {
      expect(() => applyOverrides("arbitrum", "f.json", committed, { ccipRouter: address() })).to.throw(
        DeploymentConfigError,
        /^overrides arbitrum\.ccipRouter: f\.json sets it \("0x[0-9a-fA-F]{40}"\); an overrides file only fills zero placeholders/,
      );
      expect(() => applyOverrides("arbitrum", "f.json", committed, { votingDelay: "1n" })).to.throw(/sets it/);
    });

    it("refuses what is not a non-zero address, and a list with a repeat or nothing in it", function () {
      const refused = (fields: Record<string, unknown>, message: string | RegExp) =>
        expect(() => applyOverrides("polygon", "f.json", committed, fields)).to.throw(DeploymentConfigError, message);
      refused({ treasury: "0x1234" }, 'overrides polygon.treasury: not an address: "0x1234"');
      refused({ treasury: ZeroAddress }, "overrides polygon.treasury: is the zero address");
      refused({ treasury: "0xAbCdEf0000000000000000000000000000000000" }, /not an address/); // a bad checksum
      refused({ verifiers: [] }, "must be a non-empty list of addresses");
      refused({ verifiers: address() }, "must be a non-empty list of addresses");
      const twice = address();
      refused({ verifiers: [twice, twice] }, "overrides polygon.verifiers: lists an address twice");
      refused({ verifiers: [address(), ZeroAddress] }, "overrides polygon.verifiers[1]: is the zero address");
    });
  });

  describe("readOverridesFile", function () {
    it("reads chains of the environment, and refuses another chain or another shape", async function () {
      const dir = await mkdtemp(path.join(tmpdir(), "overrides-"));
      const file = path.join(dir, "o.json");
      const chains = chainsOf("mainnet").map((c) => c.chain);
      const overrides = mainnetOverrides();
      await writeFile(file, JSON.stringify(overrides));
      expect(await readOverridesFile(file, chains)).to.deep.equal(overrides);
      await writeFile(file, JSON.stringify({ sepolia: { treasury: address() } }));
      const other = await rejection(readOverridesFile(file, chains));
      expect(other).to.be.instanceOf(DeploymentConfigError);
      expect(other.message).to.equal(
        `overrides file ${file}: sepolia is not a chain of the environment (arbitrum, ethereum, polygon)`,
      );
      await writeFile(file, JSON.stringify({ arbitrum: [address()] }));
      expect((await rejection(readOverridesFile(file, chains))).message).to.match(
        /arbitrum must be an object of fields/,
      );
      await writeFile(file, "{ not json");
      expect((await rejection(readOverridesFile(file, chains))).message).to.match(/^overrides file .*o\.json: /);
    });
  });

  describe("checkParameterFile with overrides", function () {
    it("accepts mainnet's committed files once an overrides file fills every placeholder", async function () {
      const overrides = mainnetOverrides();
      for (const { chain, role } of chainsOf("mainnet")) {
        const g = await checkParameterFile(
          chain,
          role,
          parameterFileOf(chain),
          overrides[chain as keyof typeof overrides],
        );
        expect(g.treasury, chain).to.equal(overrides[chain as keyof typeof overrides].treasury);
        expect(JSON.stringify(g), chain).to.not.include(ZeroAddress);
      }
    });

    it("refuses a placeholder the overrides leave, naming the file, the field and the way to fill it", async function () {
      const { approver: _approver, ...partial } = mainnetOverrides().arbitrum;
      const left = await rejection(checkParameterFile("arbitrum", "primary", parameterFileOf("arbitrum"), partial));
      expect(left).to.be.instanceOf(DeploymentConfigError);
      expect(left.message).to.equal(
        "deploy/parameters/arbitrum.json: $global.approver is still the zero placeholder; fill it in with an overrides file (--overrides, deploy/parameters/README.md)",
      );
      const { verifiers: _verifiers, ...noVerifiers } = mainnetOverrides().arbitrum;
      expect(
        (await rejection(checkParameterFile("arbitrum", "primary", parameterFileOf("arbitrum"), noVerifiers))).message,
      ).to.include("$global.verifiers[0] is still the zero placeholder");
    });
  });
});
