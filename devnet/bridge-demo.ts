import { formatEther, parseEther, parseUnits } from "ethers";
import type { Signer } from "ethers";

import { FeeOption, MESSAGE_STATUSES } from "@compute-capacity/sdk";
import type { FeeOptionName } from "@compute-capacity/sdk";
import type {
  Bridge,
  BridgedGovernanceToken,
  GovernanceToken,
  MockStablecoin,
  SSTB,
} from "../typechain-types/index.js";
import type { LocalNetwork } from "./network.js";
import type { Relayer } from "./relayer.js";

/** One chain of the bridge scenario, as the user sees it. */
interface Side {
  chain: string;
  selector: bigint;
  bridge: Bridge;
  sstb: SSTB;
  governanceToken: GovernanceToken | BridgedGovernanceToken;
  stablecoin: MockStablecoin;
}

/** One transfer of the scenario, for the reader and the tests. */
export interface BridgeHop {
  messageId: string;
  from: string;
  to: string;
  token: "sSTB" | "STBGOV";
  amount: bigint;
  feeOption: FeeOptionName;
  fee: bigint;
  /** The message's status on the destination once the relayer delivered it. */
  status: (typeof MESSAGE_STATUSES)[number];
  seconds: number;
}

/** A bridge's end of a transfer: its chain, CCIP selector and bridge (the source's connected to the sender). */
export interface BridgeEnd {
  chain: string;
  selector: bigint;
  bridge: Bridge;
}

/**
 * One transfer across a route: quotes the fee, sends with the quoted transport fee (the sender
 * has approved the bridge for the token and the fee), waits until `relayer` delivered the message,
 * and reads its status on the destination.
 */
export async function bridgeTransfer(
  source: BridgeEnd,
  destination: BridgeEnd,
  transfer: { token: "sSTB" | "STBGOV"; address: string; amount: bigint; recipient: string; feeOption: FeeOptionName },
  relayer: Relayer,
): Promise<BridgeHop> {
  const { token, address, amount, recipient, feeOption } = transfer;
  const quote = await source.bridge.quoteFee(destination.selector, address, amount);
  const started = performance.now();
  const tx = await source.bridge.send(destination.selector, recipient, address, amount, FeeOption[feeOption], {
    value: quote.transportFee,
  });
  const receipt = (await tx.wait())!;
  const sent = receipt.logs
    .map((l) =>
      l.address.toLowerCase() === String(source.bridge.target).toLowerCase()
        ? source.bridge.interface.parseLog(l)
        : null,
    )
    .find((l) => l?.name === "MessageSent")!;
  const messageId: string = sent.args.messageId;
  await relayer.waitFor(messageId);
  const status = MESSAGE_STATUSES[Number(await destination.bridge.messageStatus(messageId))];
  const seconds = (performance.now() - started) / 1000;
  return {
    messageId,
    from: source.chain,
    to: destination.chain,
    token,
    amount,
    feeOption,
    fee: sent.args.fee as bigint,
    status,
    seconds,
  };
}

/**
 * The bridge on the devnet: a user moves sSTB arbitrum -> polygon -> ethereum -> arbitrum (paying
 * the fee in the stablecoin, then in sSTB, then in the stablecoin) and governance tokens arbitrum ->
 * polygon -> arbitrum (paying in the governance token), each hop a CCIP message that the relayer
 * delivers; it prints each message id and how long the hop took, then the supplies on every chain.
 */
export async function runBridgeScenario(
  network: LocalNetwork,
  signer: (chain: string, role: "user" | "funder" | "treasury") => Signer,
  relayer: Relayer,
  log: (line: string) => void,
): Promise<BridgeHop[]> {
  const user = await signer("arbitrum", "user").getAddress();
  const sides: Side[] = [
    { ...network.primary, stablecoin: network.primary.collateral },
    ...network.satellites.map((s) => ({ ...s })),
  ];
  const side = (chain: string) => sides.find((s) => s.chain === chain)!;

  // the user buys 20 sSTB and 1,000 STBGOV on arbitrum and takes mUSDC from each chain's faucet
  const primary = network.primary.chain;
  await (await network.primary.sstb.connect(signer(primary, "funder")).transfer(user, parseEther("20"))).wait();
  await (
    await network.primary.governanceToken.connect(signer(primary, "treasury")).transfer(user, parseEther("1000"))
  ).wait();
  for (const s of sides) {
    const holder = signer(s.chain, "user");
    await (await s.stablecoin.connect(holder).mint(user, parseUnits("100", 6))).wait();
    const bridge = await s.bridge.getAddress();
    for (const token of [s.stablecoin, s.sstb, s.governanceToken]) {
      await (await token.connect(holder).approve(bridge, 2n ** 256n - 1n)).wait();
    }
  }
  log(`User ${user} holds 20 sSTB and 1000 STBGOV on arbitrum, and 100 mUSDC on every chain.`);

  const hops: BridgeHop[] = [];
  const hop = async (from: string, to: string, token: "sSTB" | "STBGOV", amount: bigint, feeOption: FeeOptionName) => {
    const source = side(from);
    const tokenAddress = await (token === "sSTB" ? source.sstb : source.governanceToken).getAddress();
    const done = await bridgeTransfer(
      { ...source, bridge: source.bridge.connect(signer(from, "user")) },
      side(to),
      { token, address: tokenAddress, amount, recipient: user, feeOption },
      relayer,
    );
    const feeText =
      feeOption === "default"
        ? `${Number(done.fee) / 1e6} mUSDC`
        : `${formatEther(done.fee)} ${feeOption === "service" ? "sSTB" : "STBGOV"}`;
    log(
      `  ${String(hops.length + 1).padStart(2)}. ${formatEther(amount)} ${token} ${from} -> ${to}: message ${done.messageId}, ` +
        `fee ${feeText} (${feeOption}), ${done.status} in ${done.seconds.toFixed(2)} s`,
    );
    hops.push(done);
  };

  await hop("arbitrum", "polygon", "sSTB", parseEther("10"), "default");
  await hop("polygon", "ethereum", "sSTB", parseEther("9"), "service");
  await hop("ethereum", "arbitrum", "sSTB", parseEther("9"), "default");
  await hop("arbitrum", "polygon", "STBGOV", parseEther("100"), "stb_gov");
  await hop("polygon", "arbitrum", "STBGOV", parseEther("99"), "stb_gov");

  const supplies = await Promise.all(sides.map(async (s) => `${s.chain} ${formatEther(await s.sstb.totalSupply())}`));
  log(`  sSTB supply per chain: ${supplies.join(", ")}`);
  const escrow = await network.primary.governanceToken.balanceOf(await network.primary.bridge.getAddress());
  const bridged = await Promise.all(network.satellites.map((s) => s.governanceToken.totalSupply()));
  log(
    `  STBGOV escrowed on arbitrum ${formatEther(escrow)} = bridged supply on the satellites ` +
      `${formatEther(bridged.reduce((a, b) => a + b, 0n))}`,
  );
  return hops;
}
