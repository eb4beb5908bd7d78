import { ApiResponseError, BaseError, ContractRevertedError } from "#sdk";

/** The gateway could not be reached (network error, not an HTTP answer). */
export class GatewayUnreachableError extends BaseError {
  override name = "GatewayUnreachableError";
}

/** What went wrong, in words for a person. */
export interface DescribedError {
  kind: "wallet-refused" | "revert" | "unreachable" | "session" | "api" | "wallet" | "other";
  title: string;
  message: string;
  /** A contract's reason string, verbatim (the spec's five strings among them). */
  reason?: string;
}

const WALLET_REFUSED = new Set([4001, "ACTION_REJECTED"]);

/** Whether a wallet error (anywhere along the cause chain) is the user's refusal. */
function refusedByUser(error: unknown): boolean {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 8; depth++) {
    if (WALLET_REFUSED.has(e.code as number | string)) return true;
    const inner = (e.info as { error?: Record<string, unknown> } | undefined)?.error;
    if (inner !== undefined && WALLET_REFUSED.has(inner.code as number | string)) return true;
    e = (e.cause ?? e.error) as Record<string, unknown> | undefined;
  }
  return false;
}

/**
 * Turns any failure into what the page says: a refusal in the wallet, a contract's revert with its
 * reason verbatim, the gateway unreachable, a session that ended, the API's error message. Details
 * (stack, raw data) go to the console, not to the page.
 */
export function describeError(error: unknown): DescribedError {
  if (error instanceof BaseError || error instanceof Error) console.debug(error);
  if (refusedByUser(error)) {
    return {
      kind: "wallet-refused",
      title: "Refused in the wallet",
      message: "You declined the request in your wallet.",
    };
  }
  const revert =
    error instanceof ContractRevertedError
      ? error
      : error instanceof BaseError
        ? (error.walk((e) => e instanceof ContractRevertedError) as ContractRevertedError | undefined)
        : undefined;
  if (revert !== undefined) {
    const reason = revert.reason ?? revert.errorName ?? "unknown error";
    return { kind: "revert", title: "The contract refused", message: reason, reason };
  }
  if (error instanceof GatewayUnreachableError) {
    return { kind: "unreachable", title: "The gateway is unreachable", message: error.shortMessage };
  }
  if (error instanceof ApiResponseError) {
    if (error.status === 401) return { kind: "session", title: "Signed out", message: error.shortMessage };
    return { kind: "api", title: `The gateway refused (${error.code})`, message: error.shortMessage };
  }
  if (error instanceof BaseError) return { kind: "other", title: "Something failed", message: error.shortMessage };
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "number" && code >= 4000 && code < 5000) {
    return { kind: "wallet", title: "The wallet refused", message: (error as Error).message };
  }
  return { kind: "other", title: "Something failed", message: error instanceof Error ? error.message : String(error) };
}
