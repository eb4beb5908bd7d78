import { Ajv } from "ajv";
import type { FastifyInstance } from "fastify";

import { ISSUE_TYPES } from "../../indexer/modules/redemption-manager.js";
import type { IssueTypeName, Specifications, WriteService } from "../../writes/operations.js";
import { invalidParameter } from "../errors.js";
import * as s from "../schemas.js";
import { FREE_TEXT } from "../text.js";
import { accountOf } from "./read.js";

export interface WriteRouteOptions {
  writes: WriteService;
}

const address = s.addressParam;
const string = { type: "string" } as const;
const unix = { type: "integer", description: "Unix seconds" } as const;
const txHash = { type: "string", pattern: "^0x[0-9a-f]{64}$" } as const;
const amountInput = {
  type: "number",
  exclusiveMinimum: 0,
  description: "whole sSTB; read from the number's shortest decimal text, at most 18 decimals",
} as const;
const hardware = { type: "number", minimum: 0, maximum: 1e9 } as const;
const mode = {
  type: "string",
  enum: ["managed", "external"],
  description: "managed: the gateway signed and sent; external: sign and send `transactions` in order",
} as const;
const unsignedTransaction = {
  type: "object",
  required: ["description", "from", "to", "data", "value", "chainId", "nonce", "gas"],
  additionalProperties: false,
  properties: {
    description: string,
    from: address,
    to: address,
    data: { type: "string", pattern: "^0x[0-9a-f]*$" },
    value: { type: "string", description: "wei, decimal" },
    chainId: { type: "integer" },
    nonce: { type: "integer", description: "hint: the account's pending nonce, in order" },
    gas: {
      type: "integer",
      description: "hint: estimate plus 20% (a fixed hint where the call needs an earlier one mined)",
    },
  },
} as const;

/** `data` of a write: `mode` always, the managed result's fields or `transactions`. */
function outcome(properties: Record<string, unknown>) {
  return s.envelope({
    type: "object",
    required: ["mode"],
    additionalProperties: false,
    properties: {
      mode,
      ...properties,
      transaction_hash: txHash,
      transactions: { type: "array", items: unsignedTransaction },
    },
  });
}
function body(properties: Record<string, unknown>, required = Object.keys(properties)) {
  return { type: "object", required, additionalProperties: false, properties } as const;
}
const redemptionIdParams = s.params({ redemptionId: s.idParam });

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
        body: body(
          {
            sstb_amount: amountInput,
            provider_id: address,
            specifications: body({
              cpu_cores: hardware,
              ram_gb: hardware,
              storage_gb: hardware,
              network_mbps: hardware,
            }),
          },
          ["sstb_amount", "provider_id"],
        ),
        response: {
          200: outcome({
            redemption_id: string,
            status: { type: "string", const: "pending" },
            sstb_amount: s.redemption.properties.sstb_amount,
            provider_id: address,
            initiated_at: unix,
            estimated_fulfillment_time: s.redemption.properties.estimated_fulfillment_time,
          }),
          ...s.errors,
        },
      },
    },
    async (request) => {
      const input = request.body as { sstb_amount: number; provider_id: string; specifications?: Specifications };
      return { success: true, data: await writes.redeem(accountOf(request), input) };
    },
  );

  app.post(
    "/redemptions/:redemptionId/confirm",
    {
      schema: {
        tags: ["redemptions"],
        summary: "Confirm a fulfilled redemption (no body fields)",
        params: redemptionIdParams,
        response: {
          200: outcome({ redemption_id: string, status: { type: "string", const: "confirmed" } }),
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
        params: redemptionIdParams,
        body: body({
          issue_type: { type: "string", enum: [...ISSUE_TYPES] },
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
          200: outcome({
            redemption_id: string,
            status: { type: "string", const: "disputed" },
            issue_type: string,
            evidence_hash: txHash,
          }),
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
        params: redemptionIdParams,
        response: {
          200: s.envelope({
            type: "object",
            additionalProperties: false,
            required: [
              "redemption_id",
              "issue_type",
              "description",
              "evidence",
              "document",
              "evidence_hash",
              "transaction_hash",
              "created_at",
            ],
            properties: {
              redemption_id: string,
              issue_type: string,
              description: string,
              evidence: {},
              document: { type: "string", description: "the canonical JSON whose keccak256 is the on-chain hash" },
              evidence_hash: txHash,
              transaction_hash: { type: ["string", "null"] },
              created_at: unix,
            },
          }),
          ...s.errors,
        },
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
        params: redemptionIdParams,
        response: {
          200: s.envelope({
            type: "object",
            additionalProperties: false,
            required: ["redemption_id", "provider_id", "user", "specifications", "transaction_hash", "created_at"],
            properties: {
              redemption_id: string,
              provider_id: address,
              user: address,
              specifications: {
                type: ["object", "null"],
                additionalProperties: false,
                properties: { cpu_cores: hardware, ram_gb: hardware, storage_gb: hardware, network_mbps: hardware },
                description: "the reference body's specifications; null for the short body",
              },
              transaction_hash: txHash,
              created_at: unix,
            },
          }),
          ...s.errors,
        },
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
        body: body({ to: address, sstb_amount: amountInput }),
        response: {
          200: outcome({ from: address, to: address, sstb_amount: s.redemption.properties.sstb_amount }),
          ...s.errors,
        },
      },
    },
    async (request) => {
      const input = request.body as { to: string; sstb_amount: number };
      return { success: true, data: await writes.transfer(accountOf(request), input) };
    },
  );
}
