import type { SolidityHooks } from "hardhat/types/hooks";

const TRANSIENT_WARNING = "Transient storage as defined by EIP-1153 can break the composability";
const OZ_TRANSIENT_SLOT = "@openzeppelin/contracts/utils/TransientSlot.sol";

/** Whether a compiler message is solc's transient-storage warning on OpenZeppelin's TransientSlot.sol. */
export function isOzTransientWarning(error: { severity: string; message: string; formattedMessage?: string }): boolean {
  const text = error.formattedMessage ?? error.message;
  return error.severity === "warning" && text.includes(TRANSIENT_WARNING) && text.includes(OZ_TRANSIENT_SLOT);
}

export default async (): Promise<Partial<SolidityHooks>> => ({
  async getCompilationJobErrors(context, compilationJob, compilerOutput, next) {
    const errors = await next(context, compilationJob, compilerOutput);
    return errors.filter((error) => !isOzTransientWarning(error));
  },
});
