// npm run bench:gas — measures gas per user-facing operation on an in-process chain and writes
// docs/gas-report.md. The logic lives in tools/gas-bench.ts, which the tests exercise.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

import { network } from "hardhat";

import { renderGasReport, runGasBenchmark } from "../tools/gas-bench.js";

const rows = await runGasBenchmark(await network.create());
const report = renderGasReport(rows, "in-process Hardhat chain, solc 0.8.30, optimizer 200 runs, evm cancun");
const out = path.join(import.meta.dirname, "..", "docs", "gas-report.md");
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, report);
console.log(report);
console.log(`written to ${path.relative(process.cwd(), out)}`);
