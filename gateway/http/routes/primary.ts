import { Contract, JsonRpcProvider, parseUnits } from "ethers";

import type { DeployedChain, ProtocolClient } from "@compute-capacity/sdk";
import { getContract } from "@compute-capacity/sdk";
import { ApiError } from "../../api/errors.js";
import * as s from "../../api/schemas.js";

/** An amount of the collateral token (its decimals are `collateral_token.decimals`): whole and exact. */
export function collateralAmount(name: string, what: string, whole: string) {
  return {
    [name]: {
      type: "number",
      description: `${what}: whole collateral tokens, a JSON number (\`${name}_base_units\` is exact)`,
      examples: [Number(whole)],
    },
    [`${name}_base_units`]: s.baseUnitsString(
      `${what}: exact, in the collateral token's base units (\`collateral_token.decimals\`)`,
      parseUnits(whole, 6).toString(),
    ),
  };
}

/** The collateral token as quotes and a provider's collateral show it. */
export const collateralToken = s.object(
  {
    address: { ...s.addressParam, description: "the token's address", examples: [s.EXAMPLE.contract] },
    symbol: { type: "string", description: "its symbol", examples: ["USDC"] },
    decimals: { type: "integer", description: "its decimals", examples: [6] },
  },
  "the provider registry's collateral token",
);

const ERC20_METADATA = ["function decimals() view returns (uint8)", "function symbol() view returns (string)"];

/** The primary chain read live (redemption quotes, the account's redemptions, a provider's collateral). */
export interface PrimaryChain {
  /** The deployment's primary chain: redemptions and providers live there. */
  deployed: DeployedChain;
  /** The SDK's client of it (no signer). */
  client: ProtocolClient;
  /** The provider registry's collateral token, read once (again after a failed read). */
  collateralToken(): Promise<{ address: string; symbol: string; decimals: number }>;
  /** Runs a read of the chain: a failure that is not the API's own is `internal_error`, `chain_unavailable`. */
  live<T>(read: () => Promise<T>): Promise<T>;
  /** Ends the RPC connection. */
  close(): void;
}

/** One connection to the primary chain, shared by the routes that read it live. */
export function primaryChain(primary: DeployedChain): PrimaryChain {
  const rpc = new JsonRpcProvider(primary.rpcUrl, primary.chainId, { staticNetwork: true });
  const client: ProtocolClient = { runner: rpc, chainId: BigInt(primary.chainId!), addresses: primary.contracts };
  let token: Promise<{ address: string; symbol: string; decimals: number }> | undefined;
  return {
    deployed: primary,
    client,
    collateralToken: () =>
      (token ??= (async () => {
        const address = await getContract(client, "ProviderRegistry").collateralToken();
        const erc20 = new Contract(address, ERC20_METADATA, rpc);
        const [symbol, decimals] = await Promise.all([
          erc20.symbol() as Promise<string>,
          erc20.decimals() as Promise<bigint>,
        ]);
        return { address, symbol, decimals: Number(decimals) };
      })().catch((error: unknown) => {
        token = undefined;
        throw error;
      })),
    live: async <T>(read: () => Promise<T>): Promise<T> => {
      try {
        return await read();
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw new ApiError("internal_error", "the primary chain could not be read", { reason: "chain_unavailable" });
      }
    },
    close: () => rpc.destroy(),
  };
}
