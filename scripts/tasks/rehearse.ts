// `npm run rehearse:mainnet` (= `hardhat rehearse --environment mainnet`): thin; the logic is
// tools/rehearsal.ts. Builds first: the stand-ins, the deployment and the check use the artifacts.
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

interface RehearseArguments {
  environment: string;
}

export default async function rehearseTask(args: RehearseArguments, hre: HardhatRuntimeEnvironment) {
  await hre.tasks.getTask("build").run({ quiet: true, noTests: true });
  const { rehearse } = await import("../../tools/rehearsal.js");
  try {
    const rehearsal = await rehearse(hre, { environment: args.environment, log: (line) => console.log(line) });
    if (!rehearsal.report.ok) process.exitCode = 1;
  } catch (error) {
    console.error(`rehearse failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
