import { expect } from "chai";
import { network } from "hardhat";
import { Signature, parseEther } from "ethers";

import { signPermit } from "@compute-capacity/sdk";
import { deployProtocol } from "../../helpers/protocol.js";

const connection = await network.create();
const { networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

async function fixture() {
  return deployProtocol(connection);
}

describe("GovernanceToken nonces", function () {
  describe("nonces", function () {
    it("start at 0 and count permits and delegations by signature in one sequence", async function () {
      const f = await loadFixture(fixture);
      const token = f.governanceToken;
      const owner = f.treasury;
      expect(await token.nonces(owner.address)).to.equal(0n);

      const deadline = BigInt(await time.latest()) + 3_600n;
      const permit = await signPermit(token, owner, f.user.address, parseEther("1"), deadline, f.chainId);
      await token.permit(owner.address, f.user.address, parseEther("1"), deadline, permit.v, permit.r, permit.s);
      expect(await token.nonces(owner.address)).to.equal(1n);

      // ERC20Votes' delegateBySig draws from the same Nonces
      const domain = {
        name: await token.name(),
        version: "1",
        chainId: f.chainId,
        verifyingContract: await token.getAddress(),
      };
      const types = {
        Delegation: [
          { name: "delegatee", type: "address" },
          { name: "nonce", type: "uint256" },
          { name: "expiry", type: "uint256" },
        ],
      };
      const delegation = { delegatee: owner.address, nonce: 1n, expiry: deadline };
      const sig = Signature.from(await owner.signTypedData(domain, types, delegation));
      await token.connect(f.stranger).delegateBySig(owner.address, 1n, deadline, sig.v, sig.r, sig.s);
      expect(await token.nonces(owner.address)).to.equal(2n);
      expect(await token.delegates(owner.address)).to.equal(owner.address);
      expect(await token.nonces(f.user.address)).to.equal(0n);
    });
  });
});
