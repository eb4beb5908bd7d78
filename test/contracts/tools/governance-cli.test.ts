import { expect } from "chai";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { network } from "hardhat";

import {
  ProposalFileError,
  loadProposalFile,
  proposalFromJson,
  runGovernanceAction,
} from "../../../tools/proposal-file.js";
import { GOVERNANCE, deployGovernedProtocol } from "../../helpers/governance.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { time } = networkHelpers;

async function governed() {
  return deployGovernedProtocol(connection);
}

describe("governance command (scripts/governance.ts, tools/proposal-file.ts)", function () {
  describe("runGovernanceAction", function () {
    it("takes a proposal file from propose to execute against the deployed governor", async function () {
      const f = await networkHelpers.loadFixture(governed);
      const file = path.join(await mkdtemp(path.join(tmpdir(), "proposal-")), "fee.json");
      await writeFile(
        file,
        JSON.stringify({
          description: "RP-9: redemption fee to 25 bps",
          calls: [
            {
              target: await f.redemptionManager.getAddress(),
              function: "setRedemptionFee(uint256 feeBps)",
              args: ["25"],
            },
          ],
        }),
      );
      const proposal = await loadProposalFile(file);
      const governor = await f.governor.getAddress();
      const lines: string[] = [];
      const run = (action: string) => runGovernanceAction(action, governor, proposal, f.treasury, (l) => lines.push(l));

      expect(await run("propose")).to.equal("Pending");
      await time.increase(GOVERNANCE.votingDelay + 1n);
      expect(await run("vote")).to.equal("Active");
      await time.increase(GOVERNANCE.votingPeriod);
      expect(await run("status")).to.equal("Succeeded");
      expect(await run("queue")).to.equal("Queued");
      await time.increase(GOVERNANCE.timelockDelay);
      expect(await run("execute")).to.equal("Executed");

      expect(await f.redemptionViews.feeBps()).to.equal(25n);
      expect(lines.some((l) => l.startsWith("executable from "))).to.equal(true);
      expect(lines.filter((l) => l.startsWith("proposal ")).length).to.equal(5);
      await expect(run("approve")).to.be.rejectedWith(ProposalFileError, /action must be one of/);
    });
  });

  describe("proposalFromJson", function () {
    it("encodes the example proposal file", async function () {
      const proposal = await loadProposalFile("proposals/example-redemption-fee.json");
      expect(proposal.targets).to.deep.equal(["0x0000000000000000000000000000000000000001"]);
      expect(proposal.values).to.deep.equal([0n]);
      expect(proposal.calldatas[0].slice(0, 10)).to.equal(ethers.id("setRedemptionFee(uint256)").slice(0, 10));
      expect(BigInt("0x" + proposal.calldatas[0].slice(10))).to.equal(25n);
    });

    it("refuses a file without description, calls, a valid target or matching arguments", function () {
      const call = { target: ethers.ZeroAddress, function: "setTreasury(address)", args: [ethers.ZeroAddress] };
      for (const [json, message] of [
        [{ calls: [call] }, /description/],
        [{ description: "x", calls: [] }, /calls/],
        [{ description: "x", calls: [{ ...call, target: "treasury" }] }, /not an address/],
        [{ description: "x", calls: [{ ...call, args: [] }] }, /setTreasury/],
        [{ description: "x", calls: [{ ...call, function: "setTreasury(" }] }, /setTreasury/],
      ] as const) {
        expect(() => proposalFromJson(json), String(message)).to.throw(ProposalFileError, message);
      }
    });
  });
});
