import type { PrimaryDeployment } from "../../deploy/deploy.js";

/**
 * Everything a reverted call must leave untouched for the given accounts: token balances,
 * the providers' accounting, and the CU record count. Compare before and after with deep equality.
 */
export async function protocolState(d: PrimaryDeployment, accounts: readonly string[]) {
  const registry = await d.registry.getAddress();
  const rows = await Promise.all(
    accounts.map(async (a) => ({
      account: a,
      collateral: await d.collateral.balanceOf(a),
      sstb: await d.sstb.balanceOf(a),
      registryAccount: [...(await d.registry.accountOf(a))].map(String),
    })),
  );
  return {
    rows,
    vault: await d.collateral.balanceOf(registry),
    sstbSupply: await d.sstb.totalSupply(),
    computeUnits: await d.cuToken.totalComputeUnits(),
  };
}
