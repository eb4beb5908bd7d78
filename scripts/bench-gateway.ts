// `npm run bench:gateway`: thin entry point; the benchmark is tools/gateway-bench.ts. Not part of `npm test`.
import { runGatewayBench } from "../tools/gateway-bench.js";

await runGatewayBench();
