import hardhatUpgrades from "@openzeppelin/hardhat-upgrades";
import type { HardhatPlugin } from "hardhat/types/plugins";
import type { SolidityHooks } from "hardhat/types/hooks";

/**
 * `@openzeppelin/hardhat-upgrades` without its one pass for OpenZeppelin's Foundry plugin: after every
 * build, its `processArtifactsAfterSuccessfulBuild` handler copies each contract's AST (and metadata)
 * from the build-info output into the artifact, reading and parsing the whole output (69 MB here) once
 * per artifact. We do not use the Foundry plugin, and nothing here reads an artifact's AST (the
 * deployment check reads the build-info output); the pass cost a fresh build about 40 s of its one
 * core, and the ASTs made every artifact about nine times the size, which every deployment and contract
 * factory then read and parsed, again and again (decision 0183). The artifacts stay as Hardhat 3 writes
 * them. Every other part of the plugin is kept as it is: the upgrade-safety validations it runs on each
 * compilation job (`cache/validations.json`), its tasks, its config and its `upgrades` API.
 */
const load = hardhatUpgrades.hookHandlers!.solidity!;

/** The upgrades plugin's Solidity hook handlers without the artifact pass. */
export async function upgradesSolidityHandlers(): Promise<Partial<SolidityHooks>> {
  const { default: factory } = await load();
  const { processArtifactsAfterSuccessfulBuild: _foundryArtifactPass, ...handlers } = await factory();
  return handlers;
}

const upgrades: HardhatPlugin = {
  ...hardhatUpgrades,
  hookHandlers: {
    ...hardhatUpgrades.hookHandlers,
    solidity: async () => ({ default: upgradesSolidityHandlers }),
  },
};

export default upgrades;
