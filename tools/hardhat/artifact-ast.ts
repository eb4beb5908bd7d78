import { definePlugin } from "hardhat/plugins";

/**
 * A local Hardhat plugin that puts each contract's AST (and metadata) into its artifact the way
 * `@openzeppelin/hardhat-upgrades` does after every build, but reading each build-info output once
 * instead of once per artifact. That plugin's own pass reads and parses the whole build-info output
 * (about 70 MB here) for every artifact: about 30 s of a fresh build's one-core critical path. This
 * handler runs before it (it is listed before it in the config, and a build's artifact handlers run in
 * the order of registration); the upgrades plugin then finds every artifact done and skips it, so the
 * artifacts are the same, byte for byte (decision 0183).
 */
export default definePlugin({
  id: "local-artifact-ast",
  hookHandlers: {
    solidity: () => import("./artifact-ast-hooks.js"),
  },
});
