import type { ContractRunner, Signer, TransactionReceipt } from "ethers";

import {
  approveRedemptionSync,
  fulfilRedemptionSync,
  getAccessDetails,
  initiateRedemptionSync,
} from "@compute-capacity/sdk";
import type { AccessDetails, ProtocolClient } from "@compute-capacity/sdk";
import type { RedemptionManager, RedemptionViews, SSTB } from "../typechain-types/index.js";

/**
 * The redemption steps over TypeChain contracts (`deployPrimary`'s, a fixture's) rather than a
 * deployments file: what the tests and the gas benchmark call (test support, not the SDK's public
 * surface: only tests, tools and benchmarks import testing/). Each builds a client around the
 * given signer and runs the SDK's actions, so there is one code path.
 */

/** The contracts a holder's redemption goes through: the manager, its read contract (the fee), sSTB. */
export interface RedemptionContracts {
  redemptionManager: RedemptionManager;
  redemptionViews: RedemptionViews;
  sstb: SSTB;
}

async function clientOf(
  runner: ContractRunner,
  contracts: { manager: RedemptionManager; views?: RedemptionViews; sstb?: SSTB },
  chainId?: bigint,
): Promise<ProtocolClient> {
  const addresses: Record<string, string> = { RedemptionManager: await contracts.manager.getAddress() };
  if (contracts.views !== undefined) addresses.RedemptionViews = await contracts.views.getAddress();
  if (contracts.sstb !== undefined) addresses.SSTB = await contracts.sstb.getAddress();
  const id = chainId ?? (await runner.provider!.getNetwork()).chainId;
  return { runner, chainId: id, addresses };
}

/**
 * A holder redeems `amount` sSTB with `provider`: approves amount plus fee (quoted by the read
 * contract), initiates, and reads the new id from the `RedemptionInitiated` event.
 */
export async function redeem(
  contracts: RedemptionContracts,
  user: Signer,
  amount: bigint,
  provider: string,
): Promise<{ redemptionId: bigint; receipt: TransactionReceipt }> {
  const { redemptionManager: manager, redemptionViews: views, sstb } = contracts;
  const client = await clientOf(user, { manager, views, sstb });
  await approveRedemptionSync(client, { amount });
  const { redemptionId, receipt } = await initiateRedemptionSync(client, { amount, provider });
  return { redemptionId, receipt };
}

/** The provider encrypts `details` to the user's public key and fulfils the redemption with it. */
export async function fulfilEncrypted(
  manager: RedemptionManager,
  provider: Signer,
  redemptionId: bigint,
  details: AccessDetails,
  userPublicKey: string,
  chainId: bigint,
): Promise<{ envelope: string; receipt: TransactionReceipt }> {
  const client = await clientOf(provider, { manager }, chainId);
  return fulfilRedemptionSync(client, { redemptionId, details, userPublicKey });
}

/** The user finds the `RedemptionFulfilled` event of a redemption and opens its envelope. */
export async function readAccessDetails(
  manager: RedemptionManager,
  redemptionId: bigint,
  userPrivateKey: string,
  chainId: bigint,
): Promise<AccessDetails> {
  const client = await clientOf(manager.runner!, { manager }, chainId);
  return getAccessDetails(client, { redemptionId, privateKey: userPrivateKey });
}
