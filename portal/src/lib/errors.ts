import { formatEther } from "ethers";

import { AccessKeyNotRegisteredError, ApiResponseError, BaseError, ContractRevertedError } from "@compute-capacity/sdk";

import { formatDuration, formatTime } from "./format";

/** The gateway could not be reached (network error, not an HTTP answer). */
export class GatewayUnreachableError extends BaseError {
  override name = "GatewayUnreachableError";
}

/** What went wrong, in words for a person. */
export interface DescribedError {
  kind: "wallet-refused" | "revert" | "unreachable" | "session" | "api" | "wallet" | "other";
  title: string;
  message: string;
  /** A contract's reason string, verbatim (the spec's five strings among them), or its custom error's name. */
  reason?: string;
}

type Args = Record<string, unknown>;
const when = (value: unknown) => formatTime(Number(value)).local;
const sstb = (value: unknown) => `${formatEther(value as bigint)} sSTB`;

/**
 * The manager's custom errors in words (the spec's five reason strings are shown verbatim instead).
 * An error not listed here is shown by its name and arguments.
 */
const REVERT_WORDS: Record<string, (a: Args) => string> = {
  RedemptionUnauthorized: () => "Only a party to this redemption (or lease) may do that: your account is not.",
  RedemptionNotFound: (a) => `There is no redemption #${String(a.redemptionId)}.`,
  RedemptionInvalidStatus: (a) => `Redemption #${String(a.redemptionId)} is not in a state that allows this.`,
  RedemptionBelowMinimum: (a) => `The amount is below the minimum redemption of ${sstb(a.minimum)}.`,
  RedemptionByProvider: () => "A provider cannot redeem with itself.",
  RedemptionEmptyAccessDetails: () => "The access details are empty.",
  DisputeWindowClosed: (a) => `The dispute window closed on ${when(a.disputeDeadline)}.`,
  AccessKeyInvalid: () => "That access key is not valid (zero means no key).",
  LeaseEndOutOfRange: (a) =>
    `The lease end must lie after ${when(a.earliest)} and no later than ${when(a.latest)} (the maximum lease term).`,
  LeaseNotFound: (a) => `Redemption #${String(a.leaseId)} is not a lease.`,
  LeaseNotRenewable: () => "This lease has no stated end, so it cannot be renewed.",
  LeaseAlreadyTerminated: () => "The lease has already been terminated.",
  LeaseEnded: (a) => `The lease ended on ${when(a.end)}.`,
  LeaseUnderDispute: () => "A redemption of this lease is under dispute: no renewal until it is settled.",
  RenewalOfferNotFound: () => "There is no renewal offer standing (it was accepted, withdrawn or never made).",
  RenewalOfferLapsed: (a) => `The renewal offer lapsed on ${when(a.validUntil)}.`,
  RenewalTermsMismatch: (a) =>
    `The provider changed the offer: it now asks ${sstb(a.price)} for ${formatDuration(Number(a.extension))}. Nothing was paid; review the new terms.`,
  RenewalExtensionOutOfRange: (a) =>
    `The extension is too long: at most ${formatDuration(Number(a.maxExtension))} (the maximum lease term from now).`,
  RenewalValidityOutOfRange: (a) =>
    `The offer's validity must lie after ${when(a.earliest)} and no later than ${when(a.latest)} (the lease's end).`,
  ERC20InsufficientAllowance: () => "The allowance for the manager is too small for the amount plus fee.",
  ERC20InsufficientBalance: () => "Your sSTB balance is too small for the amount plus fee.",
  EnforcedPause: () => "The protocol is paused.",
};

/** A revert in words: the reason string verbatim, else the custom error described, else its name. */
export function revertInWords(revert: ContractRevertedError): string {
  if (revert.reason !== undefined) return revert.reason;
  if (revert.errorName === undefined) return `an unknown error (${revert.selector})`;
  const words = REVERT_WORDS[revert.errorName];
  if (words === undefined) return revert.errorName;
  try {
    return words(revert.args);
  } catch {
    return revert.errorName;
  }
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
    return { kind: "revert", title: "The contract refused", message: revertInWords(revert), reason };
  }
  if (error instanceof AccessKeyNotRegisteredError) {
    return {
      kind: "other",
      title: "The holder has no access key",
      message:
        "The holder has not registered an access key on-chain, so the details cannot be encrypted to them. Nothing was sent.",
    };
  }
  // the SDK's client retries a failed connection, then throws ApiConnectionError with the last failure as its cause
  const unreachable = error instanceof BaseError ? error.walk((e) => e instanceof GatewayUnreachableError) : undefined;
  if (unreachable instanceof GatewayUnreachableError) {
    return { kind: "unreachable", title: "The gateway is unreachable", message: unreachable.shortMessage };
  }
  if (error instanceof ApiResponseError) {
    if (error.status === 401) return { kind: "session", title: "Signed out", message: error.shortMessage };
    return { kind: "api", title: `The gateway refused (${error.code})`, message: error.shortMessage };
  }
  if (error instanceof BaseError) {
    const cause = causeInWords(error);
    return cause === undefined
      ? { kind: "other", title: "Something failed", message: error.shortMessage }
      : { kind: "other", title: cause.title, message: cause.message };
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "number" && code >= 4000 && code < 5000) {
    return { kind: "wallet", title: "The wallet refused", message: (error as Error).message };
  }
  return { kind: "other", title: "Something failed", message: error instanceof Error ? error.message : String(error) };
}

/** What ethers (and the wallet's node through it) says went wrong, by its error code. */
const CAUSE_TITLES: Record<string, string> = {
  INSUFFICIENT_FUNDS: "Not enough ETH for the gas",
  NONCE_EXPIRED: "The wallet's transaction count is out of step",
  REPLACEMENT_UNDERPRICED: "A transaction with the same number is pending",
  TRANSACTION_REPLACED: "The transaction was replaced in the wallet",
  NETWORK_ERROR: "The wallet's node did not answer",
  TIMEOUT: "The wallet's node did not answer in time",
  SERVER_ERROR: "The wallet's node failed",
  CALL_EXCEPTION: "The call failed on the chain",
  UNKNOWN_ERROR: "The wallet or its node failed",
};

/**
 * The innermost cause of a failure that is not a refusal (gas, a nonce, the node unreachable), in
 * the words its source gave: the page shows it instead of only "the call failed".
 */
function causeInWords(error: BaseError): { title: string; message: string } | undefined {
  let words: string | undefined;
  let code: string | undefined;
  for (let e = error.cause as Record<string, unknown> | undefined, depth = 0; e && depth < 8; depth++) {
    if (typeof e.code === "string" && code === undefined) code = e.code;
    const inner = (e.info as { error?: { message?: unknown } } | undefined)?.error?.message;
    const text = typeof inner === "string" ? inner : typeof e.shortMessage === "string" ? e.shortMessage : e.message;
    if (typeof text === "string" && text !== "") words = text;
    e = (e.cause ?? e.error) as Record<string, unknown> | undefined;
  }
  if (words === undefined) return undefined;
  const what = error.shortMessage.replace(/\.$/, "");
  return { title: (code !== undefined ? CAUSE_TITLES[code] : undefined) ?? `${what}`, message: `${what}: ${words}` };
}
