// Governance from the command line: status, propose, vote (for), queue and execute one proposal
// file against a deployed governor. Thin: the logic is tools/proposal-file.ts, which the
// tests exercise.
//
//   GOVERNOR=0x... PROPOSAL=proposals/example-redemption-fee.json ACTION=propose \
//     npx hardhat run scripts/governance.ts --network <network>
import { network } from "hardhat";

import { loadProposalFile, runGovernanceAction } from "../tools/proposal-file.js";

const { GOVERNOR, PROPOSAL, ACTION = "status" } = process.env;
try {
  if (GOVERNOR === undefined || PROPOSAL === undefined) {
    throw new Error("set GOVERNOR (the governor's address) and PROPOSAL (a proposal file); ACTION defaults to status");
  }
  const { ethers } = await network.create();
  const [signer] = await ethers.getSigners();
  const proposal = await loadProposalFile(PROPOSAL);
  await runGovernanceAction(ACTION, GOVERNOR, proposal, signer, (line) => console.log(line));
} catch (error) {
  console.error(`governance ${ACTION} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
