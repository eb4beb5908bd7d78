import { expect } from "chai";
import { artifacts } from "hardhat";

import type { BuiltArtifact } from "../../../deploy/check/build.js";
import { compareCode } from "../../../deploy/check/code.js";

/**
 * The post-deployment check's code comparison (deploy/check/code.ts) against a compiled contract: it
 * reads the build's artifacts, so it runs in the contract tier, after its build (the check's other parts:
 * test/unit/deploy/DeploymentCheck.test.ts).
 */
describe("The post-deployment check's parts against the build (deploy/check/)", function () {
  describe("compareCode", function () {
    // as the check itself reads it (deploy/check/build.ts)
    let bridge: BuiltArtifact;
    before(async function () {
      bridge = (await artifacts.readArtifact("Bridge")) as unknown as BuiltArtifact;
    });
    /** The artifact's runtime code with every immutable filled in, as a constructor leaves it. */
    const deployed = () => {
      const code = Buffer.from(bridge.deployedBytecode.slice(2), "hex");
      for (const { start, length } of Object.values(bridge.immutableReferences!).flat()) {
        code.fill(0xab, start, start + length);
      }
      return code;
    };
    const hex = (code: Buffer) => `0x${code.toString("hex")}`;

    it("matches the artifact whatever the constructor put in the immutables", function () {
      expect(Object.keys(bridge.immutableReferences!).length).to.be.greaterThan(0);
      expect(compareCode(hex(deployed()), bridge)).to.deep.equal({
        same: true,
        immutables: Object.keys(bridge.immutableReferences!).length,
      });
    });

    it("names a difference in the code, in its length, in the metadata hash alone, and no code at all", function () {
      const changed = deployed();
      changed[100] ^= 0xff;
      expect(compareCode(hex(changed), bridge)).to.deep.equal({
        same: false,
        reason: "the code differs from byte 100 on",
      });
      expect(compareCode(hex(deployed().subarray(1)), bridge)).to.deep.include({ same: false });
      expect((compareCode(hex(deployed().subarray(1)), bridge) as { reason: string }).reason).to.match(
        /^\d+ bytes on chain, \d+ in the artifact$/,
      );
      const metadata = deployed();
      metadata[metadata.length - 10] ^= 0x01; // inside the CBOR metadata (its IPFS hash)
      expect(compareCode(hex(metadata), bridge)).to.deep.equal({
        same: false,
        reason: "the same code but another metadata hash: built from other sources (comments or NatSpec changed?)",
      });
      expect(compareCode("0x", bridge)).to.deep.equal({ same: false, reason: "there is no code at the address" });
    });
  });
});
