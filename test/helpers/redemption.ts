import { parseEther } from "ethers";
import { generateAccessKeyPair } from "@compute-capacity/sdk";
import type { AccessKeyPair } from "@compute-capacity/sdk";
import type { IgnitionConnection } from "../../deploy/deploy.js";

import { deployProtocol, mintFor, registerActive } from "./protocol.js";
import type { ProtocolFixture } from "./protocol.js";

export { IssueType, REDEMPTION_STATUSES } from "@compute-capacity/sdk";

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

/** `IRedemptionManager.LeaseStatus` values. */
export const LeaseStatus = { None: 0n, Active: 1n, Ended: 2n, Terminated: 3n } as const;

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

/** A view call's result as strings, or the name of the custom error it reverted with. */
async function viewOrError(f: ProtocolFixture, call: () => Promise<unknown>): Promise<unknown> {
  try {
    const result = await call();
    return Array.isArray(result) ? [...result].map(String) : String(result);
  } catch (error) {
    const data = (error as { data?: string }).data;
    const parsed = data ? f.redemptionManager.interface.parseError(data) : null;
    if (!parsed) throw error;
    return `reverted ${parsed.name}(${parsed.args.map(String).join(",")})`;
  }
}

/**
 * Everything of the manager a reverted call must leave untouched, for the given ids (and, for
 * `accounts`, their registered access keys): each record (spec getter, stored record, dispute),
 * the lease it belongs to, and the lease it is (end, status, disputes, standing offer).
 */
export async function managerState(f: ProtocolFixture, ids: readonly bigint[], accounts: readonly string[] = []) {
  const m = f.redemptionManager;
  return {
    count: await f.redemptionViews.redemptionCount(),
    records: await Promise.all(
      ids.map(async (id) => ({
        getter: [...(await m.redemptions(id))].map(String),
        stored: await viewOrError(f, () => f.redemptionViews.redemptionOf(id)),
        dispute: await viewOrError(f, () => f.redemptionViews.disputeOf(id)),
        leaseId: await viewOrError(f, () => f.redemptionViews.leaseIdOf(id)),
        lease: await viewOrError(f, () => f.redemptionViews.leaseOf(id)),
        leaseStatus: await f.redemptionViews.leaseStatus(id),
      })),
    ),
    accessKeys: await Promise.all(accounts.map((a) => f.redemptionViews.accessKeyOf(a))),
  };
}
