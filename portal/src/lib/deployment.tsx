import { createContext, useContext } from "react";

import type { Deployment } from "../config/deployment";

export const DeploymentContext = createContext<Deployment | undefined>(undefined);

/** The deployment the portal runs against (loaded before the app renders). */
export function useDeployment(): Deployment {
  const deployment = useContext(DeploymentContext);
  if (deployment === undefined) throw new Error("useDeployment outside DeploymentContext");
  return deployment;
}
