import { useMutation, useQueryClient } from "@tanstack/react-query";

import { sendPrepared, waitForReceipt } from "@compute-capacity/sdk";

import type { Deployment } from "../config/deployment";
import { walletClient } from "./protocol";
import type { WalletState } from "./wallet";

/** `mint(address,uint256)` of the devnet's mock stablecoin. */
const MINT = "0x40c10f19";

/**
 * The devnet's stablecoin faucet: its mock collateral token mints to anyone (1,000 whole units to
 * the wallet's account). Not a protocol call, and offered on the devnet only: a real chain's
 * collateral is a real stablecoin.
 */
export function useDevnetFaucet(wallet: WalletState, deployment: Deployment) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { decimals: number }) => {
      const client = await walletClient(wallet, deployment);
      const { AbiCoder } = await import("ethers");
      const amount = 1_000n * 10n ** BigInt(input.decimals);
      const data = MINT + AbiCoder.defaultAbiCoder().encode(["address", "uint256"], [wallet.account, amount]).slice(2);
      const hash = await sendPrepared(
        client,
        { to: deployment.chain.contracts.CollateralToken, data, value: 0n },
        "mint",
      );
      return waitForReceipt(client, hash, "mint");
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["chain"] });
      void queryClient.invalidateQueries({ queryKey: ["collateral"] });
    },
  });
}
