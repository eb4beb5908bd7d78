import { bridgeAbi } from "./abis/bridge.js";
import { addressOf } from "./client.js";
import type { ProtocolClient } from "./client.js";
import { readContract } from "./contract-calls.js";
import { InvalidParameterError } from "./errors.js";
import { chainSelectorOf } from "./bridge.js";

/** The tokens the bridge moves, by the API's symbols, and their names in a deployments file. */
export const BRIDGE_TOKEN_CONTRACTS = { sSTB: "SSTB", STBGOV: "GovernanceToken" } as const;

/** A token the bridge moves, by the API's symbol (`token` of `GET /bridge/fees`). */
export type BridgeTokenSymbol = keyof typeof BRIDGE_TOKEN_CONTRACTS;

/** The address of a bridged token on the client's chain; refuses another symbol. */
export function bridgeTokenAddress(client: ProtocolClient, token: BridgeTokenSymbol): string {
  const name = BRIDGE_TOKEN_CONTRACTS[token];
  if (name === undefined) throw new InvalidParameterError("token", 'must be "sSTB" or "STBGOV"');
  return addressOf(client, name);
}

/** The CCIP chain selector of a destination chain id; refuses a chain the protocol does not run on. */
export function destinationSelector(destinationChainId: bigint | number): bigint {
  try {
    return chainSelectorOf(destinationChainId);
  } catch {
    throw new InvalidParameterError("destinationChainId", `${destinationChainId} is not a chain of the protocol`);
  }
}

/** The bridge's `quoteFee` for a transfer, every fee option, in base units. */
export async function readFeeQuote(
  client: ProtocolClient,
  {
    destinationChainId,
    token,
    amount,
  }: { destinationChainId: bigint | number; token: BridgeTokenSymbol; amount: bigint },
) {
  if (amount <= 0n) throw new InvalidParameterError("amount", "must be positive");
  return readContract(client, {
    abi: bridgeAbi,
    address: addressOf(client, "Bridge"),
    functionName: "quoteFee",
    args: [destinationSelector(destinationChainId), bridgeTokenAddress(client, token), amount],
  });
}
