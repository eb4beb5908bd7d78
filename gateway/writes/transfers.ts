import { ZeroAddress, getAddress } from "ethers";

import { invalidParameter } from "../http/errors.js";
import { amount as amountOf } from "../http/format.js";
import type { Outcome, WriteContext } from "./context.js";
import type { Call } from "./sender.js";

/** sSTB `transfer` of `amount` base units to `to`, within the account's balance. */
export async function transfer(
  ctx: WriteContext,
  account: string,
  input: { to: string; amount: bigint },
): Promise<Outcome<{ from: string; to: string; sstb_amount: number; sstb_amount_base_units: string }>> {
  let to: string;
  try {
    to = getAddress(input.to);
  } catch {
    throw invalidParameter("to", "is not a valid address (a mixed-case address must carry its EIP-55 checksum)");
  }
  if (to === ZeroAddress) throw invalidParameter("to", "must not be the zero address");
  const { amount } = input;
  await ctx.requireBalance(account, amount, "sstb_amount", "amount");
  const call: Call = {
    description: "transfer",
    to: ctx.sstbAddress,
    data: ctx.sstb.interface.encodeFunctionData("transfer", [to, amount]),
  };
  await ctx.sender.check(account, call);
  const shown = { from: account, to, ...amountOf("sstb_amount", amount) };
  const done = await ctx.perform(account, [call], {
    // the account's earlier transfers in the queue may have spent the balance meanwhile
    recheck: () => ctx.requireBalance(account, amount, "sstb_amount", "amount"),
  });
  if (done.mode === "external") return { mode: "external", ...shown, transactions: done.transactions };
  return { mode: "managed", ...shown, transaction_hash: done.receipts[0].hash };
}
