import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";

import { Interface } from "ethers";

import type { BridgeTransaction } from "@compute-capacity/sdk";

import { gateway } from "../../../testing/api";
import { block, jsonRpc } from "../../../testing/chain";
import { HOLDER } from "../../../testing/data";
import { renderPortal, testDeployment } from "../../../testing/render";
import { server } from "../../../testing/server";
import { installTestWallet } from "../../../testing/wallet";
import { Bridge } from "../Bridge";

let uninstall = () => {};
afterEach(() => uninstall());

/** The bridge page with a wallet connected on `chainId`; every JSON-RPC method the page calls is recorded. */
function openBridge(chainId: number, methods: Parameters<typeof jsonRpc>[0] = {}) {
  const rpc: string[] = [];
  server.use(jsonRpc(methods, rpc));
  uninstall = installTestWallet({ account: HOLDER, connected: true, chainId });
  renderPortal(<Bridge />);
  return { rpc, user: userEvent.setup() };
}

describe("Bridge page: the chains", () => {
  it("sends from the chain the wallet is on, to another of the deployment's chains", async () => {
    // the only call the page makes on the chain before an amount is typed: sSTB's balanceOf (3 sSTB)
    openBridge(1, { eth_call: () => `0x${(3n * 10n ** 18n).toString(16).padStart(64, "0")}` });
    // the wallet is found and reconnected after the first render: the source (a new form) follows it then
    await waitFor(() => expect(screen.getByRole("combobox", { name: /^From/ })).toHaveValue("1"));
    const to = screen.getByRole("combobox", { name: /^To/ });
    // the source is not offered as the destination
    expect([...(to as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      "Arbitrum (devnet)",
      "Base (devnet)",
    ]);
    expect(screen.getByRole("button", { name: "Send to Arbitrum (devnet)" })).toBeDisabled();
    // the balance there, read through the wallet on that chain
    expect(await screen.findByTestId("bridge-balance")).toHaveTextContent("You hold 3 sSTB on Ethereum (devnet).");
  });

  it("asks to switch a wallet on a chain outside the deployment, and quotes nothing before", async () => {
    const { rpc } = openBridge(137);
    expect(await screen.findByTestId("bridge-quote")).toHaveTextContent(
      "Your wallet is on chain 137; the transfer is signed on Arbitrum (devnet).",
    );
    expect(screen.getByRole("button", { name: "Switch to Arbitrum (devnet)" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Send to Ethereum (devnet)" })).toBeDisabled();
    expect(rpc).toEqual([]);
  });

  it("says there is nowhere to bridge to on a deployment of one chain", () => {
    uninstall = installTestWallet({ account: HOLDER, connected: true });
    const deployment = testDeployment();
    renderPortal(<Bridge />, { deployment: { ...deployment, chains: [deployment.chain] } });
    expect(screen.getByText("This deployment has one chain: there is nowhere to bridge to.")).toBeInTheDocument();
  });
});

describe("Bridge page: the amount", () => {
  it("refuses an amount typed wrong, in words, before anything is read from the chain", async () => {
    const { user, rpc } = openBridge(137);
    const amount = await screen.findByLabelText("Amount (sSTB)");
    await user.type(amount, "1,5");
    expect(screen.getByTestId("bridge-quote")).toHaveTextContent("Use a point for the decimals: 1.5, not 1,5.");
    await user.clear(amount);
    await user.type(amount, "0");
    expect(screen.getByTestId("bridge-quote")).toHaveTextContent("Enter an amount above 0.");
    expect(rpc).toEqual([]);
  });
});

const MESSAGE = `0x${"ab".repeat(32)}`;
const E = 10n ** 18n;
type Queue = NonNullable<BridgeTransaction["queue"]>;
/** An amount's two fields, `name` (whole sSTB) and `name_base_units`. */
const sstb = <N extends string>(name: N, wei: bigint) =>
  ({ [name]: Number(wei) / 1e18, [`${name}_base_units`]: wei.toString() }) as { [K in N]: number } & {
    [K in `${N}_base_units`]: string;
  };
/** A transfer of 0.5 sSTB from Arbitrum to Ethereum, waiting in Ethereum's queue as `queue` says. */
function aQueuedTransfer(queue: Partial<Queue>): BridgeTransaction {
  return {
    message_id: MESSAGE,
    source_chain: "arbitrum",
    destination_chain: "ethereum",
    token: "sSTB",
    ...sstb("amount", E / 2n),
    sender: HOLDER,
    recipient: HOLDER,
    status: "queued",
    fee_option: "default",
    created_at: 1_800_000_000,
    completed_at: null,
    source_transaction: `0x${"01".repeat(32)}`,
    destination_transaction: `0x${"02".repeat(32)}`,
    queue: {
      position: 0,
      ...sstb("remaining", E / 2n),
      ...sstb("waiting_before", 0n),
      rate_limited: true,
      ...sstb("available", E),
      ...sstb("capacity", E),
      ...sstb("refill_per_second", E / 10n),
      paused: false,
      paused_until: null,
      executable_now: true,
      ...sstb("next_installment", E / 2n),
      completes_at: 1_800_000_100,
      as_of: 1_800_000_100,
      ...queue,
    },
  };
}

/** The bridge page following MESSAGE (typed into "Follow a transfer"), the wallet on `chainId`. */
async function followQueued(chainId: number, queue: Partial<Queue>) {
  const sentTo: string[] = [];
  server.use(gateway().get("/api/v1/bridge/status/{message_id}", aQueuedTransfer(queue)));
  const { user, rpc } = openBridge(chainId, {
    eth_call: () => `0x${(3n * E).toString(16).padStart(64, "0")}`,
    eth_blockNumber: () => "0x64",
    eth_getBlockByNumber: () => block(1_800_000_100),
    eth_estimateGas: () => "0x30000",
    eth_sendTransaction: (params) => {
      const { to, data } = params[0] as { to: string; data: string };
      sentTo.push(`${to.toLowerCase()} ${data.slice(0, 10)} ${data.slice(10)}`);
      return new Promise(() => {}); // the wallet is still asking
    },
  });
  await user.type(screen.getByLabelText("CCIP message id"), MESSAGE);
  await user.click(screen.getByRole("button", { name: "Follow" }));
  return { user, rpc, sentTo, queue: await screen.findByTestId("bridge-queue") };
}

describe("Bridge page: a queued delivery", () => {
  it("tells a holder who types a malformed message id what one looks like, and follows nothing", async () => {
    const { user } = openBridge(42161);
    await user.type(screen.getByLabelText("CCIP message id"), "0x1234");
    expect(screen.getByText(/A message id is 0x followed by 64 hexadecimal digits/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Follow" })).toBeDisabled();
  });

  it("shows a transfer waiting behind others: what waits before it, and when it can complete by the destination's clock", async () => {
    const { queue } = await followQueued(1, {
      position: 2,
      ...sstb("waiting_before", (15n * E) / 10n),
      executable_now: false,
      ...sstb("available", 0n),
      completes_at: 1_800_000_120,
      as_of: 1_800_000_100,
    });
    expect(queue).toHaveTextContent(
      "2 transfers from the same chain wait before it, with 1.5 sSTB still to deliver; it has 0.5 sSTB to deliver.",
    );
    expect(queue).toHaveTextContent(
      "Ethereum (devnet) lets in 0 sSTB now from there (at most 1 sSTB at once, refilling 0.1 sSTB a second).",
    );
    expect(screen.getByTestId("bridge-queue-eta")).toHaveTextContent(
      "All of it can be delivered in about 20 s (at 2027-01-15 08:02:00 UTC by Ethereum (devnet)'s clock)",
    );
    expect(queue).toHaveTextContent("Anyone may deliver it once the transfers before it have gone");
    expect(within(queue).queryByRole("button")).toBeNull();
  });

  it("says until when a paused bridge holds it, by the destination's clock", async () => {
    const { queue } = await followQueued(1, {
      executable_now: false,
      paused: true,
      paused_until: 1_800_003_700,
      completes_at: 1_800_003_700,
    });
    expect(queue).toHaveTextContent(
      "The bridge there is paused until 2027-01-15 09:01:40 UTC by Ethereum (devnet)'s clock.",
    );
    expect(queue).toHaveTextContent(
      "Anyone may deliver it once the limit holds its next installment and the pause is over.",
    );
    expect(screen.getByTestId("bridge-queue-eta")).toHaveTextContent("All of it can be delivered in about 1 h 0 min");
  });

  it("says that no time can be given while governance's pause lasts", async () => {
    const { queue } = await followQueued(1, {
      executable_now: false,
      paused: true,
      paused_until: null,
      completes_at: null,
    });
    expect(queue).toHaveTextContent("The bridge there is paused by governance until governance lifts the pause.");
    expect(screen.getByTestId("bridge-queue-eta")).toHaveTextContent(
      "No time can be given while governance's pause lasts.",
    );
  });

  it("delivers a transfer that heads its queue with one transaction on the destination, however often it is clicked", async () => {
    const { user, sentTo } = await followQueued(1, {});
    expect(screen.getByTestId("bridge-queue-eta")).toHaveTextContent("All of it can be delivered now.");
    await user.dblClick(screen.getByRole("button", { name: "Deliver it now (0.5 sSTB)" }));
    // executeQueued(MESSAGE) on Ethereum's bridge
    const call = new Interface(["function executeQueued(bytes32)"]).encodeFunctionData("executeQueued", [MESSAGE]);
    const bridge = testDeployment().chains[1]!.contracts.Bridge!.toLowerCase();
    await waitFor(() => expect(sentTo).toEqual([`${bridge} ${call.slice(0, 10)} ${call.slice(10)}`]));
    expect(screen.getByRole("button", { name: "Delivering…" })).toBeDisabled();
    await new Promise((r) => setTimeout(r, 300));
    expect(sentTo).toHaveLength(1);
  });

  it("offers one installment of a transfer larger than the limit", async () => {
    await followQueued(1, { ...sstb("remaining", 3n * E), ...sstb("next_installment", E) });
    expect(screen.getByRole("button", { name: "Deliver 1 sSTB of it now (one installment)" })).toBeEnabled();
  });

  it("asks a wallet on another chain to switch to the destination before delivering", async () => {
    await followQueued(42161, { ...sstb("remaining", 3n * E), ...sstb("next_installment", E) });
    expect(screen.getByRole("button", { name: "Switch your wallet to Ethereum (devnet) to deliver it" })).toBeEnabled();
    expect(screen.getByTestId("bridge-queue")).toHaveTextContent(
      "It can be delivered now by anyone, on Ethereum (devnet).",
    );
  });
});
