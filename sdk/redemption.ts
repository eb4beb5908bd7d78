import type { ContractTransactionReceipt, Signer } from "ethers";

import type { RedemptionManager, SSTB } from "../typechain-types/index.js";
import { decryptAccessDetails, encryptAccessDetails } from "./access-details.js";
import type { AccessDetails, EnvelopeContext } from "./access-details.js";

/** `RedemptionManager.RedemptionStatus`, by index, as the API names them. */
export const REDEMPTION_STATUSES = [
  "none",
  "pending",
  "fulfilled",
  "confirmed",
  "expired",
  "disputed",
  "resolved",
] as const;
export type RedemptionStatusName = (typeof REDEMPTION_STATUSES)[number];

/** `IRedemptionManager.IssueType` (docs/decisions.md says when to use which). */
export const IssueType = {
  NotDelivered: 0n,
  AccessFailure: 1n,
  ResourceMismatch: 2n,
  PerformanceShortfall: 3n,
  Other: 4n,
} as const;

/** The API name of an on-chain status value. */
export function statusName(status: bigint): RedemptionStatusName {
  const name = REDEMPTION_STATUSES[Number(status)];
  if (name === undefined) throw new Error(`unknown redemption status ${status}`);
  return name;
}

/** The envelope context of a redemption of `manager` on `chainId`. */
export async function envelopeContext(
  manager: RedemptionManager,
  redemptionId: bigint,
  chainId: bigint,
): Promise<EnvelopeContext> {
  return { chainId, redemptionManager: await manager.getAddress(), redemptionId };
}

/**
 * A holder redeems `amount` sSTB with `provider`: approves amount plus fee, initiates, and reads the
 * new id from the `RedemptionInitiated` event.
 */
export async function redeem(
  manager: RedemptionManager,
  sstb: SSTB,
  user: Signer,
  amount: bigint,
  provider: string,
): Promise<{ redemptionId: bigint; receipt: ContractTransactionReceipt }> {
  const [, total] = await manager.quoteFee(amount);
  await (await sstb.connect(user).approve(await manager.getAddress(), total)).wait();
  const receipt = (await (await manager.connect(user).initiateRedemption(amount, provider)).wait())!;
  const [event] = receipt.logs
    .map((log) => manager.interface.parseLog(log))
    .filter((parsed) => parsed?.name === "RedemptionInitiated");
  if (!event) throw new Error("initiateRedemption emitted no RedemptionInitiated event");
  return { redemptionId: event.args.redemptionId as bigint, receipt };
}

/** The provider encrypts `details` to the user's public key and fulfils the redemption with it. */
export async function fulfilEncrypted(
  manager: RedemptionManager,
  provider: Signer,
  redemptionId: bigint,
  details: AccessDetails,
  userPublicKey: string,
  chainId: bigint,
): Promise<{ envelope: string; receipt: ContractTransactionReceipt }> {
  const envelope = encryptAccessDetails(details, userPublicKey, await envelopeContext(manager, redemptionId, chainId));
  const receipt = (await (await manager.connect(provider).fulfillRedemption(redemptionId, envelope)).wait())!;
  return { envelope, receipt };
}

/** The user finds the `RedemptionFulfilled` event of a redemption and opens its envelope. */
export async function readAccessDetails(
  manager: RedemptionManager,
  redemptionId: bigint,
  userPrivateKey: string,
  chainId: bigint,
): Promise<AccessDetails> {
  const events = await manager.queryFilter(manager.filters.RedemptionFulfilled(redemptionId));
  if (events.length === 0) throw new Error(`redemption ${redemptionId} has not been fulfilled`);
  return decryptAccessDetails(
    events[0].args.accessDetails,
    userPrivateKey,
    await envelopeContext(manager, redemptionId, chainId),
  );
}
