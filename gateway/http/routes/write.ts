import type { FastifyInstance } from "fastify";

import type { WriteService } from "../../writes/operations.js";
import { amountOf } from "../../api/amounts.js";
import * as s from "../../api/schemas.js";
import { accountOf } from "./replies.js";
import { body, outcome, writeValidation } from "./write-shapes.js";

export interface WriteRouteOptions {
  writes: WriteService;
}

const address = s.addressParam;
const TransferResult = outcome("TransferResult", "An sSTB transfer from the key's account.", {
  from: { ...address, description: "the key's account", examples: [s.EXAMPLE.user] },
  to: { ...address, description: "the recipient", examples: [s.EXAMPLE.buyer] },
  ...s.sstbAmount("sstb_amount", "sSTB sent"),
});

/** The sSTB transfer from the API key's account, registered under both prefixes. */
export async function writeRoutes(app: FastifyInstance, options: WriteRouteOptions): Promise<void> {
  const { writes } = options;

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
