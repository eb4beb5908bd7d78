import path from "node:path";

import { defineConfig } from "hardhat/config";

const cache = path.join(import.meta.dirname, "..", "cache", "local-node");

/**
 * The Hardhat config a `hardhat node` child process loads (`devnet/local-node.ts`): the built-in
 * `node` network and nothing else. The project's own config loads the toolbox and the upgrades
 * plugin (about 1 CPU s per start, none of which a node uses: its clients deploy and call over
 * JSON-RPC with their own Hardhat runtime), and its artifacts folder makes the node build a contract
 * decoder from the whole build-info output (about 1.5 CPU s per start; it only names contracts and
 * custom errors in the node's own log, which `startLocalNode` keeps for its errors). Clients decode
 * reverts from the returned data with the SDK's ABIs either way. The node watches an artifacts folder
 * of its own under `cache/`, which no build writes (decision 0185).
 */
export default defineConfig({
  paths: {
    artifacts: path.join(cache, "artifacts"),
    cache: path.join(cache, "cache"),
  },
});
