import type { FastifyInstance } from "fastify";

import type { DeployedChain } from "@compute-capacity/sdk";
import type { ReadModel } from "../../store/queries.js";
import type { WriteService } from "../../writes/operations.js";
import { amountOf } from "../../api/amounts.js";
import * as format from "../../api/format.js";
import * as s from "../../api/schemas.js";
import { accountOf, ok } from "./replies.js";
import { body, outcome, writeValidation } from "./write-shapes.js";

export interface SstbRouteOptions {
  model: ReadModel;
  /** The deployment's chains (the balance's per-chain names). */
  chains: readonly DeployedChain[];
  /** The write operations (none: the transfer is not served). */
  writes?: WriteService;
}

const address = s.addressParam;
const TransferResult = outcome("TransferResult", "An sSTB transfer from the key's account.", {
  from: { ...address, description: "the key's account", examples: [s.EXAMPLE.user] },
  to: { ...address, description: "the recipient", examples: [s.EXAMPLE.buyer] },
  ...s.sstbAmount("sstb_amount", "sSTB sent"),
});

/**
 * sSTB of the API key's account (short set): its indexed balance per chain and in total (never
 * cached: it is the key's own), and a transfer from it (the gateway signs for a managed account;
 * an external account gets the unsigned transaction).
 */
export async function sstbRoutes(app: FastifyInstance, options: SstbRouteOptions): Promise<void> {
  const { model, writes } = options;

  app.get(
    "/sstb/balance",
    {
      schema: {
        tags: ["sSTB"],
        summary: "sSTB balance of the API key's account, per chain and in total",
        description: "The indexed sSTB balance of the key's account on every chain of the deployment, and their sum.",
        querystring: s.query({}),
        response: { 200: s.envelope(s.SstbBalance, "The account's balance"), ...s.errors },
      },
      config: { cache: false },
    },
    async (request) => {
      const account = accountOf(request);
      const rows = await model.balancesOf(account);
      const byChainId = new Map(options.chains.map((c) => [c.chainId, c.chain]));
      const total = rows.reduce((sum, r) => sum + BigInt(r.balance), 0n);
      return ok({
        account,
        ...format.amount("sstb_balance", total),
        balances: rows.map((r) => ({
          chain: byChainId.get(r.chainId) ?? String(r.chainId),
          native_chain_id: r.chainId,
          ...format.amount("sstb_balance", r.balance),
        })),
      });
    },
  );

  if (writes === undefined) return;
  app.post(
    "/sstb/transfer",
    {
      ...writeValidation,
      schema: {
        tags: ["sSTB"],
        summary: "Transfer sSTB from the key's account",
        description:
          "Sends sSTB of the key's account to `to`, within its balance. Give the amount as `sstb_amount` (a " +
          "number, or exactly a decimal string) or as `sstb_amount_base_units`.",
        body: body(
          {
            to: { ...address, description: "the recipient (EIP-55 checksum when mixed case)" },
            ...s.sstbInput("sstb_amount", "sSTB to send"),
          },
          ["to"],
        ),
        response: {
          200: s.envelope(TransferResult, "The transfer (managed) or its transaction (external)"),
          ...s.errors,
        },
      },
    },
    async (request) => {
      const input = request.body as { to: string; sstb_amount?: number | string; sstb_amount_base_units?: string };
      const amount = amountOf(input, "sstb_amount");
      return { success: true, data: await writes.transfer(accountOf(request), { to: input.to, amount }) };
    },
  );
}
