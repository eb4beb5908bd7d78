// `npx hardhat deploy-protocol --environment testnet [--chains arbitrumSepolia,sepolia]
// [--overrides file.json] [--record-as name]`: thin; the logic is deploy/deploy-environment.ts.
// Builds first, so the Ignition modules' artifacts exist.
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

interface DeployProtocolArguments {
  environment: string;
  chains: string;
  overrides: string;
  recordAs: string;
}

export default async function deployProtocol(args: DeployProtocolArguments, hre: HardhatRuntimeEnvironment) {
  await hre.tasks.getTask("build").run({ quiet: true });
  const { deployEnvironment } = await import("../../deploy/deploy-environment.js");
  const { chainsOf } = await import("../../deploy/environments.js");
  const { readOverridesFile } = await import("../../deploy/parameter-overrides.js");
  try {
    const overrides =
      args.overrides === ""
        ? undefined
        : await readOverridesFile(
            args.overrides,
            chainsOf(args.environment).map((c) => c.chain),
          );
    await deployEnvironment(hre, args.environment, args.chains, (line) => console.log(line), {
      overrides,
      recordAs: args.recordAs === "" ? undefined : args.recordAs,
    });
  } catch (error) {
    console.error(`deploy-protocol failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
