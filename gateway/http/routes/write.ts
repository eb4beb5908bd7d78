import { Ajv } from "ajv";
import type { FastifyInstance } from "fastify";

import { ISSUE_TYPES } from "../../indexer/modules/redemption-manager.js";
import type { IssueTypeName, Specifications, WriteService } from "../../writes/operations.js";
import { amountOf } from "../amounts.js";
import { component, exampleOf } from "../components.js";
import { invalidParameter } from "../errors.js";
import * as s from "../schemas.js";
import { FREE_TEXT } from "../text.js";
import { accountOf } from "./read.js";

export interface WriteRouteOptions {
  writes: WriteService;
}

const address = s.addressParam;
const hardware = (description: string) => ({ type: "number", minimum: 0, maximum: 1e9, description }) as const;
const specifications = body({
  cpu_cores: hardware("CPU cores"),
  ram_gb: hardware("memory, GB"),
  storage_gb: hardware("storage, GB"),
  network_mbps: hardware("network bandwidth, Mbit/s"),
});
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
function outcome(id: string, description: string, properties: Record<string, unknown>) {
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
function body(properties: Record<string, unknown>, required = Object.keys(properties)) {
  return { type: "object", required, additionalProperties: false, properties } as const;
}
const redemptionIdParams = s.params({ redemptionId: { ...s.idParam, description: "the on-chain redemption id" } });
const redemptionId = { type: "string", description: "the on-chain redemption id", examples: ["7"] } as const;

const InitiateRedemptionResult = outcome("InitiateRedemptionResult", "A redemption made through the gateway.", {
  redemption_id: { ...redemptionId, description: "managed: the new redemption's id" },
  status: { type: "string", const: "pending", description: "managed: a new redemption is pending" },
  ...s.sstbAmount("sstb_amount", "sSTB redeemed (the fee is on top)"),
  provider_id: { ...address, description: "the provider" },
  initiated_at: { ...s.unix, description: "managed: Unix seconds, the initiation's block time" },
  estimated_fulfillment_time: { ...s.unix, description: "managed: Unix seconds, the on-chain fulfilment deadline" },
});
const ConfirmRedemptionResult = outcome("ConfirmRedemptionResult", "A redemption confirmed by its user.", {
  redemption_id: redemptionId,
  status: { type: "string", const: "confirmed", description: "managed: the redemption is confirmed" },
});
const OpenDisputeResult = outcome("OpenDisputeResult", "A dispute opened by the redemption's user.", {
  redemption_id: redemptionId,
  status: { type: "string", const: "disputed", description: "managed: the redemption is disputed" },
  issue_type: { type: "string", description: "the issue type", examples: ["not_delivered"] },
  evidence_hash: { ...s.txHash, description: "keccak256 of the stored evidence document (on-chain)" },
});
const TransferResult = outcome("TransferResult", "An sSTB transfer from the key's account.", {
  from: { ...address, description: "the key's account", examples: [s.EXAMPLE.user] },
  to: { ...address, description: "the recipient", examples: [s.EXAMPLE.buyer] },
  ...s.sstbAmount("sstb_amount", "sSTB sent"),
});

const disputeEvidenceSchema = s.object(
  {
    redemption_id: redemptionId,
    issue_type: { type: "string", description: "the issue type", examples: ["not_delivered"] },
    description: { type: "string", description: "the user's description", examples: ["No SSH access after 6 hours"] },
    evidence: {
      description: "the evidence as submitted: text, or any JSON object or array",
      examples: [{ log: "ssh: connect to host port 22: Connection refused" }],
    },
    document: {
      type: "string",
      description: "the canonical JSON whose keccak256 is the on-chain hash",
      examples: ['{"description":"No SSH access after 6 hours","evidence":{},"issue_type":"not_delivered"}'],
    },
    evidence_hash: { ...s.txHash, description: "the on-chain evidence hash" },
    transaction_hash: {
      ...s.txHash,
      type: ["string", "null"],
      description: "the dispute's transaction; null if unsent",
    },
    created_at: { ...s.unix, description: "Unix seconds: when the gateway stored it" },
  },
  "The evidence of a dispute opened through the gateway (for the redemption's user or provider).",
);
const DisputeEvidence = component("DisputeEvidence", disputeEvidenceSchema, exampleOf(disputeEvidenceSchema));

const redemptionRequestSchema = s.object(
  {
    redemption_id: redemptionId,
    provider_id: { ...address, description: "the provider" },
    user: { ...address, description: "the user", examples: [s.EXAMPLE.user] },
    specifications: {
      type: ["object", "null"],
      additionalProperties: false,
      properties: specifications.properties,
      description: "the reference body's specifications; null for the short body",
      examples: [{ cpu_cores: 8, ram_gb: 32, storage_gb: 200, network_mbps: 1000 }],
    },
    transaction_hash: { ...s.txHash, description: "the initiation's transaction" },
    created_at: { ...s.unix, description: "Unix seconds: when the gateway sent it" },
  },
  "What the user asked for with a redemption made through the gateway (for its user and provider).",
);
const RedemptionRequest = component("RedemptionRequest", redemptionRequestSchema, exampleOf(redemptionRequestSchema));

// bodies are validated without type coercion (the app's Ajv coerces, which suits query strings
// but would take "5" for 5 or 1 for "1" in a JSON body): a wrong type is refused
const strictBodies = new Ajv({ coerceTypes: false, removeAdditional: false, useDefaults: true, strict: false });
const parts = new Ajv({ coerceTypes: true, removeAdditional: false, useDefaults: true, strict: false });

/**
 * The write routes (SPEC.md "Endpoints"), registered under both prefixes: redemptions (the
 * reference body with `specifications` and the short body without), confirm, dispute (and its
 * stored evidence), sSTB transfer. They act for the API key's account: the gateway signs for a
 * managed account; an external account gets the unsigned transactions.
 */
export async function writeRoutes(app: FastifyInstance, options: WriteRouteOptions): Promise<void> {
  const { writes } = options;
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === "body" ? strictBodies : parts).compile(schema as object),
  );

  app.post(
    "/redemptions",
    {
      schema: {
        tags: ["redemptions"],
        summary: "Redeem sSTB with a provider (reference body with specifications, or the short body)",
        description:
          "Burns `sstb_amount` sSTB (plus the 0.1% fee) of the key's account for compute from the provider, " +
          "approving the redemption manager first when the allowance is short. Checked before anything is sent: " +
          "the amount, the provider (active, with the capacity and hardware asked for), the minimum, the balance. " +
          "Give the amount as `sstb_amount` (a number, or exactly a decimal string) or as `sstb_amount_base_units`.",
        body: body(
          {
            ...s.sstbInput("sstb_amount", "sSTB to redeem (the fee is taken on top)"),
            provider_id: { ...address, description: "the provider to redeem with" },
            specifications: { ...specifications, description: "the hardware asked for (reference body)" },
          },
          ["provider_id"],
        ),
        response: {
          200: s.envelope(InitiateRedemptionResult, "The redemption (managed) or its transactions (external)"),
          ...s.errors,
        },
      },
    },
    async (request) => {
      const input = request.body as {
        sstb_amount?: number | string;
        sstb_amount_base_units?: string;
        provider_id: string;
        specifications?: Specifications;
      };
      const amount = amountOf(input, "sstb_amount");
      return { success: true, data: await writes.redeem(accountOf(request), { ...input, amount }) };
    },
  );

  app.post(
    "/redemptions/:redemptionId/confirm",
    {
      schema: {
        tags: ["redemptions"],
        summary: "Confirm a fulfilled redemption (no body fields)",
        description:
          "The redemption's user confirms that the access works: the redemption completes and the provider's " +
          "collateral for it is released. No body fields (an empty body or `{}`).",
        params: redemptionIdParams,
        response: {
          200: s.envelope(ConfirmRedemptionResult, "The confirmation (managed) or its transaction (external)"),
          ...s.errors,
        },
      },
      preValidation: async (request) => {
        const b = request.body as unknown;
        const empty =
          b === undefined || b === null || (typeof b === "object" && !Array.isArray(b) && Object.keys(b).length === 0);
        if (!empty) throw invalidParameter("body", "must be empty or {} (the confirm route takes no fields)");
      },
    },
    async (request) => {
      const { redemptionId } = request.params as { redemptionId: number };
      return { success: true, data: await writes.confirm(accountOf(request), redemptionId) };
    },
  );

  app.post(
    "/redemptions/:redemptionId/dispute",
    {
      schema: {
        tags: ["redemptions"],
        summary: "Open a dispute; the evidence is stored by the gateway and its hash goes on-chain",
        description:
          "The redemption's user disputes it (within 72 hours of the request or the access provision). The " +
          "gateway stores the evidence as a canonical JSON document and sends its keccak256 on-chain.",
        params: redemptionIdParams,
        body: body({
          issue_type: { type: "string", enum: [...ISSUE_TYPES], description: "what went wrong" },
          description: {
            type: "string",
            minLength: 1,
            maxLength: 4_000,
            description: "free text: tabs and line breaks allowed, other control characters refused",
            [FREE_TEXT]: true,
          },
          evidence: {
            type: ["string", "object", "array"],
            description:
              "text (a URL, a log excerpt) or any JSON object or array; its strings are free text (tabs and " +
              "line breaks allowed, other control characters refused; names never hold control characters)",
            [FREE_TEXT]: true,
          },
        }),
        response: {
          200: s.envelope(OpenDisputeResult, "The dispute (managed) or its transaction (external)"),
          ...s.errors,
        },
      },
    },
    async (request) => {
      const { redemptionId } = request.params as { redemptionId: number };
      const input = request.body as { issue_type: IssueTypeName; description: string; evidence: unknown };
      return { success: true, data: await writes.dispute(accountOf(request), redemptionId, input) };
    },
  );

  app.get(
    "/redemptions/:redemptionId/dispute",
    {
      schema: {
        tags: ["redemptions"],
        summary: "The stored dispute evidence (for the redemption's user or provider)",
        description: "The evidence as the user submitted it and the canonical document whose hash is on-chain.",
        params: redemptionIdParams,
        response: { 200: s.envelope(DisputeEvidence, "The dispute's evidence"), ...s.errors },
      },
    },
    async (request) => {
      const { redemptionId } = request.params as { redemptionId: number };
      return { success: true, data: await writes.evidence(accountOf(request), redemptionId) };
    },
  );

  app.get(
    "/redemptions/:redemptionId/specifications",
    {
      schema: {
        tags: ["redemptions"],
        summary: "What the user asked for with a redemption made through the gateway (for its user and provider)",
        description:
          "The reference body's specifications of a redemption initiated through the gateway, for the provider " +
          "to allocate what was asked (null for the short body).",
        params: redemptionIdParams,
        response: { 200: s.envelope(RedemptionRequest, "What was asked"), ...s.errors },
      },
    },
    async (request) => {
      const { redemptionId } = request.params as { redemptionId: number };
      return { success: true, data: await writes.request(accountOf(request), redemptionId) };
    },
  );

  app.post(
    "/sstb/transfer",
    {
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
