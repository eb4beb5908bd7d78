import type { FastifyInstance } from "fastify";

import type { DeployedChain } from "@compute-capacity/sdk";
import { ApiError } from "../errors.js";
import { rateLimitOf } from "../rate-limit-headers.js";
import { component, exampleOf } from "../components.js";
import * as s from "../schemas.js";

export interface AccountRouteOptions {
  chains: readonly DeployedChain[];
  /** Display names of chains by deployment name. */
  chainLabels: Record<string, string>;
  /** `devnet`, `testnet` or `mainnet` (none: not shown). */
  environment?: string;
}

const meSchema = s.object(
  {
    key_id: {
      type: "string",
      description: "the key's id (`keys list` and `keys revoke` name it)",
      examples: ["0b9f4c7e-5a43-4d2b-9a8e-3f1c2d4e5a6b"],
    },
    account: { ...s.addressParam, description: "the account the key acts for", examples: [s.EXAMPLE.user] },
    tier: { type: "string", enum: ["standard", "premium", "enterprise"], description: "the key's rate-limit tier" },
    scopes: {
      type: "array",
      items: { type: "string", enum: ["read", "write"] },
      description: "`read`: GET routes and GraphQL; `write`: the other methods",
      examples: [["read", "write"]],
    },
    label: { type: "string", description: "the label given at creation", examples: ["billing service"] },
    created_at: { ...s.unix, description: "Unix seconds: creation" },
    expires_at: s.nullableUnix("Unix seconds; null: valid until revoked"),
    rate_limit: s.object(
      {
        limit: { type: ["integer", "null"], description: "requests per minute", examples: [500] },
        remaining: {
          type: ["integer", "null"],
          description: "what is left in the current minute, after this request",
          examples: [499],
        },
        reset: {
          type: ["integer", "null"],
          description: "Unix seconds when the window resets",
          examples: [s.EXAMPLE.time],
        },
      },
      "as the X-RateLimit-* headers of this answer (null during a rate-limit store outage)",
    ),
  },
  "The calling API key: its account, tier, scopes, expiry and remaining rate-limit budget.",
);
const CallingKey = component("CallingKey", meSchema, exampleOf(meSchema));

const deploymentSchema = s.object(
  {
    environment: { type: ["string", "null"], description: "devnet, testnet or mainnet", examples: ["mainnet"] },
    primary_chain: {
      type: "string",
      description: "the chain of the registry, the minting agent and the markets",
      examples: ["arbitrum"],
    },
    chains: {
      type: "array",
      description: "every chain of the deployment",
      items: s.object(
        {
          chain_id: {
            type: "string",
            description: "the deployment's name of the chain (as /bridge/chains)",
            examples: ["arbitrum"],
          },
          name: { type: "string", description: "display name", examples: ["Arbitrum One"] },
          native_chain_id: { type: "integer", description: "the chain's EIP-155 id", examples: [42161] },
          primary: { type: "boolean", description: "whether it is the primary chain" },
          contracts: {
            type: "object",
            additionalProperties: s.addressParam,
            description:
              "contract name -> address, as in the deployment file (implementations of proxies as <Name>Implementation). " +
              "A provider's benchmark report is signed with the EIP-712 domain ComputeBenchmarkReport/1, the primary " +
              "chain's native_chain_id and its AttestationVerifier.",
            examples: [{ ProviderRegistry: s.EXAMPLE.contract }],
          },
        },
        "one chain and its contracts",
      ),
    },
  },
  "The deployment the gateway serves: every chain and its contracts' addresses.",
);
const Deployment = component("Deployment", deploymentSchema, exampleOf(deploymentSchema));

/**
 * The calling key (`GET /me`) and the deployment the gateway serves (`GET /deployment`), under both
 * prefixes. `/me` answers any valid key, whatever its scopes, so that an integrator can check a key.
 */
export async function accountRoutes(app: FastifyInstance, options: AccountRouteOptions): Promise<void> {
  app.get(
    "/me",
    {
      schema: {
        tags: ["account"],
        summary: "The calling API key: its account, tier, scopes, expiry and remaining rate-limit budget",
        description:
          "Answers any valid key whatever its scopes, so an integrator can check a key and its remaining budget " +
          "(`rate_limit` is what this answer's X-RateLimit-* headers say).",
        response: { 200: s.envelope(CallingKey, "The calling key"), ...s.errors },
      },
      config: { scope: "any" },
    },
    async (request, reply) => {
      const key = request.apiKey;
      if (key === undefined) throw new ApiError("authentication_error", "an API key is required");
      return {
        success: true,
        data: {
          key_id: key.keyId,
          account: key.account,
          tier: key.tier,
          scopes: key.scopes,
          label: key.label,
          created_at: key.createdAt,
          expires_at: key.expiresAt,
          rate_limit: rateLimitOf(request, reply),
        },
      };
    },
  );

  const primary = options.chains.find((c) => "ProviderRegistry" in c.contracts);
  app.get(
    "/deployment",
    {
      schema: {
        tags: ["account"],
        summary: "The deployment the gateway serves: every chain and its contracts' addresses",
        description:
          "The chains and contract addresses the gateway indexes and writes to, as in its deployment file, so a " +
          "client can talk to the contracts directly (the SDK's deployments).",
        response: { 200: s.envelope(Deployment, "The deployment"), ...s.errors },
      },
    },
    async () => ({
      success: true,
      data: {
        environment: options.environment ?? null,
        primary_chain: primary?.chain ?? "",
        chains: options.chains.map((c) => ({
          chain_id: c.chain,
          name: options.chainLabels[c.chain] ?? c.chain,
          native_chain_id: c.chainId ?? 0,
          primary: c === primary,
          contracts: c.contracts,
        })),
      },
    }),
  );
}
