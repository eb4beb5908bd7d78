import { Ajv } from "ajv";
import type { FastifyInstance, FastifyRequest } from "fastify";

import type { AttestationJson, SignedBenchmarkReport } from "@compute-capacity/sdk";
import type { VerificationService } from "../../verification/service.js";
import { ApiError, notFound } from "../errors.js";
import * as s from "../schemas.js";
import { object } from "../schemas.js";

export interface VerificationRouteOptions {
  verification: VerificationService;
}

const UINT24 = 16_777_215;
const UINT32 = 4_294_967_295;
const score = { type: "integer", minimum: 0, maximum: UINT24 } as const;
const size = { type: "integer", minimum: 1, maximum: UINT32 } as const;
const bytes32 = { type: "string", pattern: "^0x[0-9a-fA-F]{64}$" } as const;
const signature = { type: "string", pattern: "^0x[0-9a-fA-F]{130}$", description: "65-byte ECDSA signature" } as const;
const decimal = { type: "string", pattern: "^[0-9]{1,78}$", description: "decimal integer" } as const;
const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: "null" }] });

/** The spec's body of `POST /verification/submit`. */
export const benchmarkReport = object({
  verification_type: {
    type: "string",
    enum: ["attestation", "zkp"],
    description: "both are verified by k-of-n verifier attestations today (`zkp`: the spec's name, kept for clients)",
  },
  provider_id: { ...s.addressParam, description: "the provider: the API key's account" },
  benchmark_results: object({
    cpu_score: score,
    memory_score: score,
    storage_score: score,
    network_score: score,
  }),
  proof: { ...signature, description: "the provider's EIP-712 signature of the report (BenchmarkReport)" },
  metadata: object({ cpu_cores: size, ram_gb: size, storage_gb: size, network_mbps: size }),
});

const specs = object({
  cpuCores: size,
  ramGb: size,
  storageGb: size,
  networkMbps: size,
  cpuScore: score,
  memoryScore: score,
  storageScore: score,
  networkScore: score,
});

/** The EIP-712 attestation message, integers beyond 2^53 as decimal strings. */
const attestation = object(
  {
    provider: s.addressParam,
    cuHash: bytes32,
    cuValue: decimal,
    specs,
    expiry: { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    nonce: decimal,
  },
  "the EIP-712 Attestation message the verifiers sign",
);

const cosignBody = object({
  report: benchmarkReport,
  attestation,
  signatures: { type: "array", maxItems: 32, items: signature },
});

const verification = object({
  ...s.verification.properties,
  proof: {
    ...nullable({ type: "string", pattern: "^0x[0-9a-fA-F]*$" }),
    description: "`computeProof` for verifyAndMintSSTB once verified",
  },
  status: { type: "string", enum: ["verified", "partially_signed", "rejected"] },
  verified_at: nullable({ type: "integer", description: "Unix seconds" }),
  verification_type: nullable({ type: "string" }),
  rejection: nullable(object({ parameter: { type: "string" }, reason: { type: "string" } })),
  cu_hash: bytes32,
  cu_value: { type: "number", description: "whole sSTB the mint gives" },
  cu_value_base_units: { type: "string", pattern: "^[0-9]+$" },
  expiry: nullable({
    type: "integer",
    description: "Unix seconds (chain time) after which the attestation no longer mints",
  }),
  threshold: nullable({ type: "integer", description: "signatures the verifier needs" }),
  attestation: nullable(attestation),
  signatures: { type: "array", items: object({ signer: s.addressParam, signature }) },
  minted: { type: "boolean" },
  cu_id: nullable({ type: "integer" }),
  transaction_hash: nullable(bytes32),
  mint: nullable(
    object(
      {
        minting_agent: s.addressParam,
        collateral_token: s.addressParam,
        collateral_amount: { type: "string", pattern: "^[0-9]+$", description: "collateral base units" },
        staking_period_min: { type: "integer" },
        staking_period_max: { type: "integer" },
      },
      "verifyAndMintSSTB(proof, collateral_amount, stakingPeriod) on minting_agent, after approving collateral_amount",
    ),
  ),
});

/**
 * Bodies are validated without type coercion: `"9100"` or `true` for a score is a wrong type, not
 * a number (the app's validator coerces, which suits query strings only).
 */
const strict = new Ajv({ allErrors: false, coerceTypes: false, useDefaults: false, removeAdditional: false });
const strictCompiler = ({ schema }: { schema: object }) => strict.compile(schema);

function accountOf(request: FastifyRequest): string {
  if (request.apiKey === undefined) throw new ApiError("authentication_error", "an API key is required");
  return request.apiKey.account;
}

const ok = <T>(data: T) => ({ success: true as const, data });

/**
 * Verification (reference set): submit a benchmark report, co-sign another operator's attestation,
 * read a verification (submitted here, minted on-chain, or both). Registered under both prefixes.
 */
export async function verificationRoutes(app: FastifyInstance, options: VerificationRouteOptions): Promise<void> {
  const { verification: service } = options;

  if (service.signs) {
    app.post(
      "/verification/submit",
      {
        bodyLimit: 4 * 1024,
        validatorCompiler: strictCompiler,
        schema: {
          tags: ["verification"],
          summary: "Submit a signed benchmark report; the gateway's verifier attests it (or rejects it)",
          body: benchmarkReport,
          response: { 200: s.envelope(verification), ...s.errors },
        },
      },
      async (request) => ok(await service.submit(accountOf(request), request.body as SignedBenchmarkReport)),
    );
    app.post(
      "/verification/cosign",
      {
        bodyLimit: 16 * 1024,
        validatorCompiler: strictCompiler,
        schema: {
          tags: ["verification"],
          summary: "Add this verifier's signature to another operator's attestation of a report",
          body: cosignBody,
          response: { 200: s.envelope(verification), ...s.errors },
        },
      },
      async (request) => {
        const body = request.body as {
          report: SignedBenchmarkReport;
          attestation: AttestationJson;
          signatures: string[];
        };
        return ok(await service.cosign(accountOf(request), body.report, body.attestation, body.signatures));
      },
    );
  }

  app.get(
    "/verification/:verification_id",
    {
      schema: {
        tags: ["verification"],
        summary: "A verification (the unit's cuHash is its id): submitted, partially signed, rejected or minted",
        params: s.params({ verification_id: bytes32 }),
        response: { 200: s.envelope(verification), ...s.errors },
      },
    },
    async (request) => {
      const { verification_id: id } = request.params as { verification_id: string };
      const view = await service.find(id);
      if (view === undefined) throw notFound("verification", id);
      return ok(view);
    },
  );
}
