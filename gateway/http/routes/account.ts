import type { FastifyInstance } from "fastify";

import type { DeployedChain } from "@compute-capacity/sdk";
import { ApiError } from "../errors.js";
import { rateLimitOf } from "../rate-limit-headers.js";
import * as s from "../schemas.js";

export interface AccountRouteOptions {
  chains: readonly DeployedChain[];
  /** Display names of chains by deployment name. */
  chainLabels: Record<string, string>;
  /** `devnet`, `testnet` or `mainnet` (none: not shown). */
  environment?: string;
}

const unix = { type: "integer", description: "Unix seconds" } as const;

const me = s.object({
  key_id: { type: "string", description: "the key's id (`keys list` and `keys revoke` name it)" },
  account: { ...s.addressParam, description: "the account the key acts for" },
  tier: { type: "string", enum: ["standard", "premium", "enterprise"] },
  scopes: { type: "array", items: { type: "string", enum: ["read", "write"] } },
  label: { type: "string" },
  created_at: unix,
  expires_at: { type: ["integer", "null"], description: "Unix seconds; null: valid until revoked" },
  rate_limit: s.object(
    {
      limit: { type: ["integer", "null"], description: "requests per minute" },
      remaining: { type: ["integer", "null"], description: "what is left in the current minute, after this request" },
      reset: { type: ["integer", "null"], description: "Unix seconds when the window resets" },
    },
    "as the X-RateLimit-* headers of this answer (null during a rate-limit store outage)",
  ),
});

const deployment = s.object({
  environment: { type: ["string", "null"], description: "devnet, testnet or mainnet" },
  primary_chain: { type: "string", description: "the chain of the registry, the minting agent and the markets" },
  chains: {
    type: "array",
    items: s.object({
      chain_id: { type: "string", description: "the deployment's name of the chain (as /bridge/chains)" },
      name: { type: "string" },
      native_chain_id: { type: "integer" },
      primary: { type: "boolean" },
      contracts: {
        type: "object",
        additionalProperties: s.addressParam,
        description:
          "contract name -> address, as in the deployment file (implementations of proxies as <Name>Implementation). " +
          "A provider's benchmark report is signed with the EIP-712 domain ComputeBenchmarkReport/1, the primary " +
          "chain's native_chain_id and its AttestationVerifier.",
      },
    }),
  },
});

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
        response: { 200: s.envelope(me), ...s.errors },
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
        response: { 200: s.envelope(deployment), ...s.errors },
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
