import { AbiCoder, keccak256, toBeHex, zeroPadValue } from "ethers";
import type { HardhatEthers } from "@nomicfoundation/hardhat-ethers/types";

import type { ProtocolFixture } from "./protocol.js";

export const DAY = 86_400n;

/** The ERC-7201 base slot of RedemptionManager's storage (its `STORAGE_LOCATION`). */
const MANAGER_STORAGE = 0x4d4df5d96ab278df845ea28e0141acb1493eef02109d56f6781ba8518e940900n;
/** The ERC-7201 base slot of ProviderRegistry's storage. */
const REGISTRY_STORAGE = 0xcdfd4b6588edcf9ceab11de99e253b6f37a36ebc8a43605661f1435b33c3e800n;

/**
 * Slots of `RedemptionManagerStorage` used here: `redemptions` (the first layout's records),
 * `records` (the packed ones since issue 19), `providerEntries`, `providerAt`, and the slot holding
 * `maxLeaseTerm` and `providerCount`.
 */
const SLOT = {
  redemptions: MANAGER_STORAGE + 2n,
  records: MANAGER_STORAGE + 5n,
  providerEntries: MANAGER_STORAGE + 6n,
  providerAt: MANAGER_STORAGE + 7n,
  leaseParameters: MANAGER_STORAGE + 11n,
} as const;

const abi = AbiCoder.defaultAbiCoder();
const mask = (bits: bigint) => (1n << bits) - 1n;

/** The slot of `mapping[key]` for a mapping at `slot` (Solidity's layout). */
export function mappingSlot(key: bigint | string, slot: bigint): bigint {
  const type = typeof key === "string" ? "address" : "uint256";
  return BigInt(keccak256(abi.encode([type, "uint256"], [key, slot])));
}

async function read(ethers: HardhatEthers, address: string, slot: bigint): Promise<bigint> {
  return BigInt(await ethers.provider.getStorage(address, slot));
}

async function write(ethers: HardhatEthers, address: string, slot: bigint, value: bigint): Promise<void> {
  await ethers.provider.send("hardhat_setStorageAt", [address, toBeHex(slot), zeroPadValue(toBeHex(value), 32)]);
}

/**
 * Moves redemption `id`, written by the current code as two packed words, into the first
 * implementation's three-slot layout, as if the first implementation had written it before an
 * upgrade: `user | timestamp u40 | deadline u40 | status u8`, `provider | fulfilledAt u40 |
 * weight u16 | lockRatioBps u16`, `amount u128 | lock u128` (flags, added in the first slot's last
 * byte by issue 19, are 0). The registry and sSTB already hold what that initiation did. With
 * `forgetProvider`, the manager also forgets the provider's index, as a manager upgraded from the
 * first layout has none for a provider it has not seen since.
 */
export async function toFirstLayout(
  ethers: HardhatEthers,
  f: ProtocolFixture,
  id: bigint,
  { forgetProvider = false }: { forgetProvider?: boolean } = {},
): Promise<void> {
  const manager = await f.redemptionManager.getAddress();
  const r = await f.redemptionManager.redemptionOf(id);
  const first = mappingSlot(id, SLOT.redemptions);
  const packed = mappingSlot(id, SLOT.records);
  await write(
    ethers,
    manager,
    first,
    BigInt(r.user) | (r.timestamp << 160n) | (r.deadline << 200n) | (BigInt(r.status) << 240n),
  );
  await write(
    ethers,
    manager,
    first + 1n,
    BigInt(r.provider) | (r.fulfilledAt << 160n) | (r.weight << 200n) | (r.lockRatioBps << 216n),
  );
  await write(ethers, manager, first + 2n, r.amount | (r.lock << 128n));
  await write(ethers, manager, packed, 0n);
  await write(ethers, manager, packed + 1n, 0n);
  if (forgetProvider) {
    const entry = mappingSlot(r.provider, SLOT.providerEntries);
    const index = (await read(ethers, manager, entry)) & mask(24n);
    await write(ethers, manager, entry, 0n);
    await write(ethers, manager, mappingSlot(index, SLOT.providerAt), 0n);
  }
}

/** The first layout's record slots of `id`, raw (all zero once it was never written there). */
export async function firstLayoutSlots(ethers: HardhatEthers, f: ProtocolFixture, id: bigint): Promise<bigint[]> {
  const manager = await f.redemptionManager.getAddress();
  const first = mappingSlot(id, SLOT.redemptions);
  return Promise.all([0n, 1n, 2n].map((i) => read(ethers, manager, first + i)));
}

/** The packed words of `id` (both zero for a record kept in the first layout). */
export async function packedWords(ethers: HardhatEthers, f: ProtocolFixture, id: bigint): Promise<bigint[]> {
  const manager = await f.redemptionManager.getAddress();
  const packed = mappingSlot(id, SLOT.records);
  return Promise.all([0n, 1n].map((i) => read(ethers, manager, packed + i)));
}

/** Sets the manager's maximum lease term to 0, as in a proxy upgraded before a reinitializer set it. */
export async function clearMaxLeaseTerm(ethers: HardhatEthers, f: ProtocolFixture): Promise<void> {
  const manager = await f.redemptionManager.getAddress();
  const value = await read(ethers, manager, SLOT.leaseParameters);
  await write(ethers, manager, SLOT.leaseParameters, value & ~mask(32n));
}

/**
 * Writes the registry's pricing pair where the first layout kept it (ratio in the first slot,
 * price in the third) and, unless `keepPair`, clears the issue-19 pair in the second slot, as in a
 * registry proxy upgraded from the first layout.
 */
export async function pricingToFirstLayout(
  ethers: HardhatEthers,
  f: ProtocolFixture,
  ratioBps: bigint,
  perCU: bigint,
  { keepPair = false }: { keepPair?: boolean } = {},
): Promise<void> {
  const registry = await f.registry.getAddress();
  const slot0 = await read(ethers, registry, REGISTRY_STORAGE);
  await write(ethers, registry, REGISTRY_STORAGE, (slot0 & ~(mask(16n) << 160n)) | (ratioBps << 160n));
  await write(ethers, registry, REGISTRY_STORAGE + 2n, perCU);
  if (keepPair) return;
  const slot1 = await read(ethers, registry, REGISTRY_STORAGE + 1n);
  await write(ethers, registry, REGISTRY_STORAGE + 1n, slot1 & mask(40n));
}
