// `npm run bench:webhooks`: thin entry point; the benchmark is tools/webhook-bench.ts. Not part of `npm test`.
import { runWebhookBench } from "../tools/webhook-bench.js";

await runWebhookBench();
