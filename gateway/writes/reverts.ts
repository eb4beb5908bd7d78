import { decodeRevertData, revertDataOf } from "@compute-capacity/sdk";
import { ProviderRegistry__factory, RedemptionManager__factory, SSTB__factory } from "../../typechain-types/index.js";
import { ApiError } from "../http/errors.js";

/** Interfaces whose custom errors a write can revert with (the manager calls the registry and sSTB). */
const INTERFACES = [
  RedemptionManager__factory.createInterface(),
  ProviderRegistry__factory.createInterface(),
  SSTB__factory.createInterface(),
];

/** A decoded revert: the reason string verbatim, or a custom error's name with its arguments. */
export interface Revert {
  name: string;
  message: string;
  args: Record<string, string | number | boolean>;
}

/**
 * Decodes revert data (the SDK's `decodeRevertData`) into what the API shows: `Error(string)`,
 * `Panic(uint256)` or a custom error of the protocol, with JSON-safe arguments.
 */
export function decodeRevert(data: string): Revert {
  const revert = decodeRevertData(data, INTERFACES);
  if (revert.reason !== undefined) return { name: "Error", message: revert.reason, args: { reason: revert.reason } };
  if (revert.errorName === "Panic") {
    const code = revert.args.code as bigint;
    return { name: "Panic", message: `panic 0x${code.toString(16)}`, args: { code: Number(code) } };
  }
  if (revert.errorName === undefined) {
    return { name: "unknown", message: `reverted with unknown data ${revert.selector}`, args: { data } };
  }
  const args: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(revert.args)) {
    args[name] = typeof value === "bigint" ? value.toString() : (value as string | boolean);
  }
  const list = Object.entries(args)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(", ");
  return { name: revert.errorName, message: `${revert.errorName}(${list})`, args };
}

/**
 * A transaction that reverts (at the pre-check or when mined) -> `invalid_parameter` 400: the
 * request asked for something the contract refuses. `message` is the reason string verbatim
 * (the spec's five strings) or the custom error with its arguments; `details.revert` names it and
 * `details.args` carries the arguments. Errors that are not reverts pass through unchanged.
 */
export function revertToApiError(error: unknown): unknown {
  const data = revertDataOf(error);
  if (data === undefined) return error;
  const revert = decodeRevert(data);
  return new ApiError("invalid_parameter", revert.message, { revert: revert.name, args: revert.args });
}
