import { expect } from "chai";
import type { ContractTransactionResponse } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";

import type { EmergencyPausable } from "../../typechain-types/index.js";

/** The guardian pause at initialization (EmergencyPausable.DEFAULT_GUARDIAN_PAUSE): 14 days. */
export const GUARDIAN_PAUSE = 14n * 24n * 60n * 60n;
/** `pausedUntil` of a governance pause: until governance unpauses. */
export const PAUSED_INDEFINITELY = 2n ** 40n - 1n;

/** The timestamp of the block that mined `tx`. */
export async function minedAt(tx: ContractTransactionResponse): Promise<bigint> {
  const receipt = await tx.wait();
  const block = await receipt!.getBlock();
  return BigInt(block.timestamp);
}

/**
 * Pauses `target` as `signer` and asserts the `Paused` event with the lapse time the caller's role
 * gives: a guardian pause lasts `guardianPause`, a governance pause is indefinite.
 */
export async function pauseAs(
  target: EmergencyPausable,
  signer: HardhatEthersSigner,
  kind: "guardian" | "governance",
  guardianPause: bigint = GUARDIAN_PAUSE,
): Promise<bigint> {
  const tx = await target.connect(signer).pause();
  const until = kind === "governance" ? PAUSED_INDEFINITELY : (await minedAt(tx)) + guardianPause;
  await expect(tx).to.emit(target, "Paused").withArgs(signer.address, until);
  expect(await target.pausedUntil()).to.equal(until);
  return until;
}
