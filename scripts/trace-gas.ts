// npm run trace:gas — runs the gas bench (tools/gas-bench.ts) and splits the gas of chosen rows by
// opcode category, call depth and storage access (tools/gas-trace.ts), to see where each 1,000 gas
// goes. OPERATIONS=a,b picks the rows (default: the redemption goals of issue 19).
import { network } from "hardhat";

import { runGasBenchmark } from "../tools/gas-bench.js";
import { renderBreakdown, traceGas } from "../tools/gas-trace.js";

const wanted = (process.env.OPERATIONS ?? "initiateRedemption,confirmRedemption,acceptRenewal,terminateLease").split(
  ",",
);
const connection = await network.create();
const rows = await runGasBenchmark(connection);
for (const row of rows.filter((r) => wanted.includes(r.operation) && r.hash !== undefined)) {
  console.log(`\n=== ${row.operation}: ${row.note}`);
  console.log(renderBreakdown(await traceGas(connection.ethers, row.hash!)));
}
