// npm start — the main job. Until the three-chain devnet exists, it deploys everything built so
// far on an in-process chain, prints the addresses, walks one provider through minting and one
// user through a redemption with encrypted access details.
// The logic lives in deploy/deploy.ts and devnet/demo.ts, which the tests exercise.
import { network } from "hardhat";

import { runFoundationDemo } from "../devnet/demo.js";

const connection = await network.create();
try {
  await runFoundationDemo(connection, (line) => console.log(line));
} catch (error) {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
