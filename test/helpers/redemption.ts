import { parseEther } from "ethers";
import { generateAccessKeyPair } from "#sdk";
import type { AccessKeyPair } from "#sdk";
import type { IgnitionConnection } from "../../deploy/deploy.js";

import { deployProtocol, mintFor, registerActive } from "./protocol.js";
import type { ProtocolFixture } from "./protocol.js";

export { IssueType, REDEMPTION_STATUSES } from "#sdk";

export const HOUR = 3_600n;
/** `IRedemptionManager.RedemptionStatus` values. */
export const RStatus = {
  None: 0n,
  Pending: 1n,
  Fulfilled: 2n,
  Confirmed: 3n,
  Expired: 4n,
  Disputed: 5n,
  Resolved: 6n,
} as const;

export interface RedemptionFixture extends ProtocolFixture {
  managerAddress: string;
  /** The user's key pair for receiving access details. */
  userKeys: AccessKeyPair;
}

/**
 * The protocol with one active standard-tier provider holding 100 sSTB of verified capacity, of
 * which it sold 50 to the user; the user approved the manager for everything it holds.
 */
export async function deployRedemptionScenario(connection: IgnitionConnection): Promise<RedemptionFixture> {
  const { ethers } = connection;
  const f = await deployProtocol(connection);
  await registerActive(f, f.provider);
  await mintFor(f, f.provider, parseEther("100"));
  await f.sstb.connect(f.provider).transfer(f.user.address, parseEther("50"));
  const managerAddress = await f.redemptionManager.getAddress();
  await f.sstb.connect(f.user).approve(managerAddress, ethers.MaxUint256);
  return { ...f, managerAddress, userKeys: generateAccessKeyPair() };
}

/** Everything of the manager a reverted call must leave untouched, for the given ids. */
export async function managerState(f: ProtocolFixture, ids: readonly bigint[]) {
  const m = f.redemptionManager;
  return {
    count: await m.redemptionCount(),
    records: await Promise.all(
      ids.map(async (id) => ({
        getter: [...(await m.redemptions(id))].map(String),
        stored: (await m.redemptionCount()) >= id && id > 0n ? [...(await m.redemptionOf(id))].map(String) : [],
        dispute: (await m.redemptionCount()) >= id && id > 0n ? [...(await m.disputeOf(id))].map(String) : [],
      })),
    ),
  };
}
