import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { MemoryRouter, Route, Routes } from "react-router";

import type { Deployment } from "../config/deployment";
import { DeploymentContext } from "../lib/deployment";
import { createQueryClient } from "../lib/react-query";
import { WalletProvider } from "../lib/wallet";

/** The deployment the tests' portal runs against (addresses are fixed, the chain is 42161). */
export function testDeployment(overrides: Partial<Deployment> = {}): Deployment {
  const primary: Deployment["chain"] = {
    name: "arbitrum",
    label: "Arbitrum (devnet)",
    chain_id: 42161,
    wallet_rpc_urls: ["http://rpc.test/"],
    native_currency: { name: "Ether", symbol: "ETH", decimals: 18 },
    contracts: {
      RedemptionManager: "0x00000000000000000000000000000000000000a1",
      RedemptionViews: "0x00000000000000000000000000000000000000a7",
      SSTB: "0x00000000000000000000000000000000000000a2",
      ProviderRegistry: "0x00000000000000000000000000000000000000a3",
      MintingAgent: "0x00000000000000000000000000000000000000a4",
      CollateralToken: "0x00000000000000000000000000000000000000a5",
      AttestationVerifier: "0x00000000000000000000000000000000000000a6",
      Bridge: "0x00000000000000000000000000000000000000a8",
      GovernanceToken: "0x00000000000000000000000000000000000000a9",
    },
  };
  const satellite = (name: string, label: string, chainId: number, tag: string): Deployment["chain"] => ({
    name,
    label,
    chain_id: chainId,
    wallet_rpc_urls: [`http://rpc-${name}.test/`],
    native_currency: { name: "Ether", symbol: "ETH", decimals: 18 },
    contracts: {
      Bridge: `0x00000000000000000000000000000000000000${tag}1`,
      SSTB: `0x00000000000000000000000000000000000000${tag}2`,
      GovernanceToken: `0x00000000000000000000000000000000000000${tag}3`,
    },
  });
  return {
    environment: "devnet",
    chain: primary,
    chains: [
      primary,
      satellite("ethereum", "Ethereum (devnet)", 1, "b"),
      satellite("base", "Base (devnet)", 8453, "c"),
    ],
    ...overrides,
  };
}

/**
 * Renders `ui` as the app does (the deployment, the data layer with the app's own query client,
 * the real wallet module, a router at `path`), with retries off so an error state shows at once.
 */
export function renderPortal(
  ui: ReactElement,
  options: { path?: string; route?: string; deployment?: Deployment } = {},
) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
    mutations: { retry: false },
  });
  const deployment = options.deployment ?? testDeployment();
  const result = render(
    <DeploymentContext.Provider value={deployment}>
      <QueryClientProvider client={queryClient}>
        <WalletProvider deployment={deployment}>
          <MemoryRouter initialEntries={[options.path ?? "/"]}>
            <Routes>
              <Route path={options.route ?? "*"} element={ui} />
            </Routes>
          </MemoryRouter>
        </WalletProvider>
      </QueryClientProvider>
    </DeploymentContext.Provider>,
  );
  return { ...result, queryClient, deployment };
}
