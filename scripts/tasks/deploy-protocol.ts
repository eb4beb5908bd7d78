// `npx hardhat deploy-protocol --environment testnet [--chains arbitrumSepolia,sepolia]`: thin; the
// logic is deploy/deploy-environment.ts. Builds first, so the Ignition modules' artifacts exist.
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

interface DeployProtocolArguments {
  environment: string;
  chains: string;
}

export default async function deployProtocol(args: DeployProtocolArguments, hre: HardhatRuntimeEnvironment) {
  await hre.tasks.getTask("build").run({ quiet: true });
  const { deployEnvironment } = await import("../../deploy/deploy-environment.js");
  try {
    await deployEnvironment(hre, args.environment, args.chains, (line) => console.log(line));
  } catch (error) {
    console.error(`deploy-protocol failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
