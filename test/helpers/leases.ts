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
  const r = await f.redemptionViews.redemptionOf(id);
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

/**
 * Slots of `ProviderRegistryStorage` used here: the first slot (token, the first layout's ratio
 * and reputation deltas), `accounts` (the first layout's provider accounts, three slots each), the
 * slot naming the manager with the reputation deltas since issue 19, and `books` (the accounts'
 * three words since issue 19).
 */
const REGISTRY_SLOT = {
  first: REGISTRY_STORAGE,
  accounts: REGISTRY_STORAGE + 3n,
  managerAndDeltas: REGISTRY_STORAGE + 6n,
  books: REGISTRY_STORAGE + 7n,
} as const;

/** A provider account as `accountOf` returns it (the fields the first layout stores). */
export interface FirstLayoutAccount {
  status: bigint;
  tier: bigint;
  reputation: bigint;
  registeredAt: bigint;
  stakedUntil: bigint;
  totalRedemptions: bigint;
  successfulRedemptions: bigint;
  totalResponseTime: bigint;
  availableCU: bigint;
  totalCU: bigint;
  freeCollateral: bigint;
  lockedCollateral: bigint;
}

/**
 * Moves `provider`'s account into the first implementation's three slots, as a registry upgraded
 * from it holds a provider it has not touched since: `status u8 | tier u8 | reputation u16 |
 * registeredAt u40 | stakedUntil u40 | totalRedemptions u32 | successfulRedemptions u32 |
 * totalResponseTime u64`, `availableCU u128 | totalCU u128`, `freeCollateral u128 |
 * lockedCollateral u128`; its three words (issue 19) are cleared. `account` defaults to what
 * `accountOf` shows now.
 */
export async function accountToFirstLayout(
  ethers: HardhatEthers,
  f: ProtocolFixture,
  provider: string,
  account?: FirstLayoutAccount,
): Promise<void> {
  const registry = await f.registry.getAddress();
  const a = account ?? (await f.registry.accountOf(provider));
  const first = mappingSlot(provider, REGISTRY_SLOT.accounts);
  await write(
    ethers,
    registry,
    first,
    BigInt(a.status) |
      (BigInt(a.tier) << 8n) |
      (a.reputation << 16n) |
      (a.registeredAt << 32n) |
      (a.stakedUntil << 72n) |
      (a.totalRedemptions << 112n) |
      (a.successfulRedemptions << 144n) |
      (a.totalResponseTime << 176n),
  );
  await write(ethers, registry, first + 1n, a.availableCU | (a.totalCU << 128n));
  await write(ethers, registry, first + 2n, a.freeCollateral | (a.lockedCollateral << 128n));
  const book = mappingSlot(provider, REGISTRY_SLOT.books);
  for (const i of [0n, 1n, 2n]) await write(ethers, registry, book + i, 0n);
}

/** `provider`'s raw slots: the first layout's three, then its three words (issue 19). */
export async function accountSlots(
  ethers: HardhatEthers,
  f: ProtocolFixture,
  provider: string,
): Promise<{ firstLayout: bigint[]; words: bigint[] }> {
  const registry = await f.registry.getAddress();
  const first = mappingSlot(provider, REGISTRY_SLOT.accounts);
  const book = mappingSlot(provider, REGISTRY_SLOT.books);
  const slots = (base: bigint) => Promise.all([0n, 1n, 2n].map((i) => read(ethers, registry, base + i)));
  return { firstLayout: await slots(first), words: await slots(book) };
}

/**
 * Writes the registry's reputation deltas where the first layout kept them (its first slot) and,
 * unless `keepNew`, clears the slot issue 19 moved them to, with the manager it names, as in a
 * registry proxy upgraded from the first layout.
 */
export async function deltasToFirstLayout(
  ethers: HardhatEthers,
  f: ProtocolFixture,
  reward: bigint,
  penalty: bigint,
  { keepNew = false }: { keepNew?: boolean } = {},
): Promise<void> {
  const registry = await f.registry.getAddress();
  const slot0 = await read(ethers, registry, REGISTRY_SLOT.first);
  await write(
    ethers,
    registry,
    REGISTRY_SLOT.first,
    (slot0 & ~(mask(32n) << 176n)) | (reward << 176n) | (penalty << 192n),
  );
  if (!keepNew) await write(ethers, registry, REGISTRY_SLOT.managerAndDeltas, 0n);
}

/** The account the registry's manager slot names (0: none). */
export async function namedManager(ethers: HardhatEthers, f: ProtocolFixture): Promise<string> {
  const registry = await f.registry.getAddress();
  const value = await read(ethers, registry, REGISTRY_SLOT.managerAndDeltas);
  return ethers.getAddress(toBeHex(value & mask(160n), 20));
}
