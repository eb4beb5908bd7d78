import type { PortalConfig } from "@compute-capacity/sdk";

/**
 * The deployment the portal runs against, read once at start from the gateway that serves it
 * (`/portal/config.json`): the SDK's `PortalConfig`, the type the gateway writes it with. No
 * address is built into the bundle; the gateway's deployments file is the one source.
 */
export type Deployment = PortalConfig;

/** Why the portal cannot start: the message says what to do. */
export class DeploymentConfigError extends Error {
  override name = "DeploymentConfigError";
}

const REQUIRED_CONTRACTS = ["RedemptionManager", "RedemptionViews", "SSTB", "ProviderRegistry"] as const;

/** Checks the shape of `/portal/config.json`, naming the first field that is wrong. */
export function parseDeployment(value: unknown): Deployment {
  const v = value as Partial<Deployment> | null;
  if (typeof v !== "object" || v === null) throw new DeploymentConfigError("config.json is not an object");
  if (typeof v.chain?.chain_id !== "number") throw new DeploymentConfigError("config.json: chain.chain_id is missing");
  for (const name of REQUIRED_CONTRACTS) {
    if (typeof v.chain.contracts?.[name] !== "string") {
      throw new DeploymentConfigError(`config.json: the primary chain lists no ${name}`);
    }
  }
  if (!Array.isArray(v.chains)) throw new DeploymentConfigError("config.json: chains is missing");
  return v as Deployment;
}

/** Fetches and checks the deployment. */
export async function loadDeployment(): Promise<Deployment> {
  let response: Response;
  try {
    response = await fetch(`${import.meta.env.BASE_URL}config.json`, { credentials: "same-origin" });
  } catch {
    throw new DeploymentConfigError("The gateway is unreachable: check that it is running, then reload.");
  }
  if (!response.ok) throw new DeploymentConfigError(`The gateway answered ${response.status} for config.json.`);
  return parseDeployment(await response.json());
}
