// npm run bench:gas — measures gas per user-facing operation on an in-process chain, measures every
// deployed contract's code size, and writes docs/gas-report.md; exits non-zero, naming the
// contract, when one is over 22,528 bytes. The logic lives in tools/gas-bench.ts and
// tools/contract-sizes.ts, which the tests exercise.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

import hre, { network } from "hardhat";

import { checkContractSizes, contractSizes, deployedContracts } from "../tools/contract-sizes.js";
import { renderGasReport, runGasBenchmark } from "../tools/gas-bench.js";

const sizes = await contractSizes(deployedContracts(), (name) => hre.artifacts.readArtifact(name));
const rows = await runGasBenchmark(await network.create());
const report = renderGasReport(rows, "in-process Hardhat chain, solc 0.8.30, optimizer 200 runs, evm cancun", sizes);
const out = path.join(import.meta.dirname, "..", "docs", "gas-report.md");
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, report);
console.log(report);
console.log(`written to ${path.relative(process.cwd(), out)}`);
try {
  checkContractSizes(sizes);
} catch (error) {
  console.error(`bench:gas: ${(error as Error).message}`);
  process.exitCode = 1;
}
