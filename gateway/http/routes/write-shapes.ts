import { Ajv } from "ajv";
import type { FastifySchemaCompiler } from "fastify";

import { component, exampleOf } from "../../api/components.js";
import * as s from "../../api/schemas.js";

// What every write route shares (redemptions.ts, sstb.ts): the body validation, a body's schema,
// and the outcome of a write, which a managed account gets as the result and an external one as
// the transactions to sign.

const address = s.addressParam;
const mode = {
  type: "string",
  enum: ["managed", "external"],
  description: "managed: the gateway signed and sent; external: sign and send `transactions` in order",
} as const;

const unsignedTransactionSchema = s.object(
  {
    description: { type: "string", description: "what the call does", examples: ["initiateRedemption"] },
    from: { ...address, description: "the account that must sign it", examples: [s.EXAMPLE.user] },
    to: { ...address, description: "the contract called", examples: [s.EXAMPLE.contract] },
    data: { type: "string", pattern: "^0x[0-9a-f]*$", description: "the calldata", examples: ["0x095ea7b3"] },
    value: { type: "string", description: "wei, decimal", examples: ["0"] },
    chainId: { type: "integer", description: "the chain's EIP-155 id", examples: [42161] },
    nonce: { type: "integer", description: "hint: the account's pending nonce, in order", examples: [12] },
    gas: {
      type: "integer",
      description: "hint: estimate plus 20% (a fixed hint where the call needs an earlier one mined)",
      examples: [180_000],
    },
  },
  "A transaction for an external account to sign and send (the gateway holds no key for it).",
);
const UnsignedTransaction = component(
  "UnsignedTransaction",
  unsignedTransactionSchema,
  exampleOf(unsignedTransactionSchema),
);

/**
 * `data` of a write, named `id`: `mode` always; in managed mode the result's fields and
 * `transaction_hash`, in external mode the fields known before sending and `transactions`.
 */
export function outcome(id: string, description: string, properties: Record<string, unknown>) {
  const schema = {
    type: "object",
    description:
      `${description} Managed accounts get the result and \`transaction_hash\`; external accounts get ` +
      "`transactions` to sign and send in order.",
    required: ["mode"],
    additionalProperties: false,
    properties: {
      mode,
      ...properties,
      transaction_hash: { ...s.txHash, description: "managed: the (last) transaction the gateway sent" },
      transactions: {
        type: "array",
        items: UnsignedTransaction,
        description: "external: the transactions to sign and send, in order",
      },
    },
  };
  const example = exampleOf({ type: "object", properties: { mode, ...properties, transaction_hash: s.txHash } });
  return component(id, schema, { ...(example as object), mode: "managed" });
}
/** A JSON body of these fields, no others (all of them required unless `required` says which). */
export function body(properties: Record<string, unknown>, required = Object.keys(properties)) {
  return { type: "object", required, additionalProperties: false, properties } as const;
}
// bodies are validated without type coercion (the app's Ajv coerces, which suits query strings
// but would take "5" for 5 or 1 for "1" in a JSON body): a wrong type is refused
const strictBodies = new Ajv({ coerceTypes: false, removeAdditional: false, useDefaults: true, strict: false });
const parts = new Ajv({ coerceTypes: true, removeAdditional: false, useDefaults: true, strict: false });

/** A write route's validation (its route options): the body strictly, params and query coerced. */
export const writeValidation: { validatorCompiler: FastifySchemaCompiler<unknown> } = {
  validatorCompiler: ({ schema, httpPart }) => (httpPart === "body" ? strictBodies : parts).compile(schema as object),
};
