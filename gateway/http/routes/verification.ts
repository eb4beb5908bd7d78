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
const score = (description: string) => ({ type: "integer", minimum: 0, maximum: UINT24, description }) as const;
const size = (description: string) => ({ type: "integer", minimum: 1, maximum: UINT32, description }) as const;

/** The spec's body of `POST /verification/submit`. */
export const benchmarkReport = object(
  {
    verification_type: {
      type: "string",
      enum: ["attestation", "zkp"],
      description: "both are verified by k-of-n verifier attestations today (`zkp`: the spec's name, kept for clients)",
    },
    provider_id: { ...s.addressParam, description: "the provider: the API key's account" },
    benchmark_results: object(
      {
        cpu_score: score("CPU benchmark score"),
        memory_score: score("memory benchmark score"),
        storage_score: score("storage benchmark score"),
        network_score: score("network benchmark score"),
      },
      "the benchmark's scores",
    ),
    proof: { ...s.signature, description: "the provider's EIP-712 signature of the report (BenchmarkReport)" },
    metadata: object(
      {
        cpu_cores: size("CPU cores"),
        ram_gb: size("memory, GB"),
        storage_gb: size("storage, GB"),
        network_mbps: size("network bandwidth, Mbit/s"),
      },
      "the hardware benchmarked",
    ),
  },
  "A provider's signed benchmark report (the spec's body of POST /verification/submit).",
);

const cosignBody = object(
  {
    report: benchmarkReport,
    attestation: s.verificationAttestationSchema,
    signatures: {
      type: "array",
      maxItems: 32,
      items: s.signature,
      description: "the attestation's signatures so far (other operators' verifiers)",
    },
  },
  "A report, the attestation another operator's verifier made of it, and the signatures it has.",
);

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
          description:
            "The gateway checks the report (signature, plausibility against the provider's declared hardware) and " +
            "attests it with its verifier key, or rejects it with the reason. The answer is the verification; " +
            "once enough verifiers signed, its `proof` mints with verifyAndMintSSTB (`mint` says how).",
          body: benchmarkReport,
          response: { 200: s.envelope(s.Verification, "The verification"), ...s.errors },
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
          description:
            "For k-of-n attestation across operators: the gateway checks the report and the attestation like its " +
            "own and adds its verifier's signature.",
          body: cosignBody,
          response: { 200: s.envelope(s.Verification, "The verification"), ...s.errors },
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
        description:
          "A verification submitted to this gateway, minted on-chain, or both: its status, attestation, " +
          "signatures and, once minted, the compute unit.",
        params: s.params({
          verification_id: { ...s.bytes32, description: "the verification's id: the unit's cuHash" },
        }),
        response: { 200: s.envelope(s.Verification, "The verification"), ...s.errors },
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
