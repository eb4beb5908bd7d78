import { randomBytes } from "node:crypto";

import { parseEther } from "ethers";
import type { JsonRpcSigner } from "ethers";

import { generateAccessKeyPair } from "@compute-capacity/sdk";
import { fulfilEncrypted } from "../../testing/redemption.js";
import type { Gateway } from "../../gateway/server.js";
import { sampleAccessDetails, sampleProfile } from "../../devnet/samples.js";
import { ROLE, mintUnit, registerProvider, startTestGateway } from "../../testing/fixtures.js";
import type { LiveDeployment } from "../../testing/fixtures.js";
import { HttpClient } from "./http.js";

/** A gateway with write routes over a deployment with one active provider and a funded managed account. */
export interface WriteSetup {
  gw: Gateway;
  /** The managed account (the gateway holds its key). */
  managed: string;
  /** An external account (a node account the test signs for). */
  external: JsonRpcSigner;
  provider: JsonRpcSigner;
  /** Clients with write keys for the managed and the external account, and a read-only key. */
  http: { managed: HttpClient; external: HttpClient; readOnly: HttpClient; provider: HttpClient; stranger: HttpClient };
}

/**
 * Provider B (active, 200 sSTB of units), a managed account created by the gateway and funded with
 * 10 ETH and 60 sSTB, the user account (external) funded with 60 sSTB.
 */
export async function setupWrites(live: LiveDeployment, log?: (line: string) => void): Promise<WriteSetup> {
  const s = live.signers;
  const provider = s[ROLE.providerB];
  await registerProvider(live, provider, { ...sampleProfile("Borealis Cloud"), country: "CA", region: "na-east" }, 0);
  await mintUnit(live, provider, parseEther("200"));
  const gw = await startTestGateway(live, { accountKey: randomBytes(32).toString("hex") }, log ? { log } : {});
  const { address: managed } = await gw.accounts.create("test");
  await (await s[0].sendTransaction({ to: managed, value: parseEther("10") })).wait();
  const external = s[ROLE.user];
  for (const to of [managed, external.address]) {
    await (await live.d.sstb.connect(provider).transfer(to, parseEther("60"))).wait();
  }
  await gw.synced();
  const key = async (account: string, scopes: Array<"read" | "write">) =>
    (await gw.keys.create({ tier: "enterprise", rateLimit: 100_000, account, scopes })).token;
  return {
    gw,
    managed,
    external,
    provider,
    http: {
      managed: new HttpClient(gw.url, await key(managed, ["read", "write"])),
      external: new HttpClient(gw.url, await key(external.address, ["read", "write"])),
      readOnly: new HttpClient(gw.url, await key(managed, ["read"])),
      provider: new HttpClient(gw.url, await key(provider.address, ["read"])),
      stranger: new HttpClient(gw.url, await key(s[ROLE.user2].address, ["read", "write"])),
    },
  };
}

/** POST with a JSON body (a string is sent as is) and optional headers. */
export function post(http: HttpClient, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return http.request("POST", path, {
    ...(body === undefined
      ? {}
      : {
          body: typeof body === "string" ? body : JSON.stringify(body),
          headers: { "content-type": "application/json", ...headers },
        }),
    ...(body === undefined ? { headers } : {}),
  });
}

/** The provider fulfils a redemption with an encrypted envelope, as a provider's own tooling does. */
export async function fulfil(live: LiveDeployment, provider: JsonRpcSigner, redemptionId: bigint): Promise<void> {
  const keys = generateAccessKeyPair();
  await fulfilEncrypted(
    live.d.redemptionManager,
    provider,
    redemptionId,
    sampleAccessDetails(redemptionId),
    keys.publicKey,
    42161n,
  );
}
