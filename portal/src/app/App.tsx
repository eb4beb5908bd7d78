import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { RouterProvider } from "react-router/dom";

import type { Deployment } from "../config/deployment";
import { onSignedOut } from "../lib/api-client";
import { DeploymentContext } from "../lib/deployment";
import { createQueryClient } from "../lib/react-query";
import { sessionQueryOptions } from "../lib/session";
import { WalletProvider } from "../lib/wallet";
import { createRouter } from "./router";

/** The app: the deployment, the data layer, the wallet, the routes. */
export function App({ deployment }: { deployment: Deployment }) {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createRouter);
  // a 401 from the gateway ends the session in the page too: back to sign-in
  useEffect(() => onSignedOut(() => queryClient.setQueryData(sessionQueryOptions().queryKey, null)), [queryClient]);
  return (
    <DeploymentContext.Provider value={deployment}>
      <QueryClientProvider client={queryClient}>
        <WalletProvider deployment={deployment}>
          <RouterProvider router={router} />
        </WalletProvider>
      </QueryClientProvider>
    </DeploymentContext.Provider>
  );
}
