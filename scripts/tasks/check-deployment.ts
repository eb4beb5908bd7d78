// `npx hardhat check-deployment --environment mainnet [--overrides file.json] [--record-as name]`
// (`npm run check:deployment`): thin; the logic is deploy/check-deployment.ts. Builds first, so the
// artifacts the code is compared with are this commit's. Exit status 1 when a check fails.
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

interface CheckDeploymentArguments {
  environment: string;
  overrides: string;
  recordAs: string;
}

export default async function checkDeploymentTask(args: CheckDeploymentArguments, hre: HardhatRuntimeEnvironment) {
  await hre.tasks.getTask("build").run({ quiet: true, noTests: true });
  const { checkEnvironment, formatReport } = await import("../../deploy/check-deployment.js");
  const { chainsOf } = await import("../../deploy/environments.js");
  const { readOverridesFile } = await import("../../deploy/parameter-overrides.js");
  try {
    const chains = chainsOf(args.environment).map((c) => c.chain);
    const report = await checkEnvironment(hre, {
      environment: args.environment,
      recordAs: args.recordAs === "" ? undefined : args.recordAs,
      overrides: args.overrides === "" ? undefined : await readOverridesFile(args.overrides, chains),
    });
    for (const line of formatReport(report)) console.log(line);
    if (!report.ok) process.exitCode = 1;
  } catch (error) {
    console.error(`check-deployment failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
