import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

import { JsonRpcProvider, Wallet, parseUnits } from "ethers";

import {
  AccessKeyNotRegisteredError,
  addressOf,
  createApiClient,
  createProtocolClient,
  fulfilRedemptionWithLeaseSync,
  getLease,
  getRedemption,
  offerRenewalSync,
  paginate,
  readContract,
  redemptionViewsAbi,
  unwrap,
  verifyWebhook,
} from "@compute-capacity/sdk";
import type { AccessDetails, ApiClient, PagedItem, PagedQuery, ProtocolClient } from "@compute-capacity/sdk";
import { runCommand } from "./commands.js";
import type { ProviderConfig } from "./config.js";
import { RecordChangedError, StateFile } from "./state.js";
import type { RedemptionRecord } from "./state.js";

/** A redemption as the gateway's account list shows it (`GET /v1/redemptions`, typed from the API's document). */
export type ApiRedemption = PagedItem<"/v1/redemptions">;

/**
 * The provider agent (issue 19): learns of its redemptions from the gateway (polling its account's
 * list, and woken by its webhook subscription when it listens for one), provisions each with the
 * provider's command, fulfils it on-chain with a lease end, encrypted to the key the user
 * registered on-chain, reclaims the resources when a lease is terminated or ends, and offers
 * renewals by its rule. Everything it did is in its state file, written before the next step, so
 * a restart repeats nothing: a provisioning command's output is kept before the fulfilment is
 * sent (a crash between the two fulfils with the kept output, the command does not run again),
 * and the chain is asked before a fulfilment (one sent just before a crash is not sent again).
 */
export class ProviderAgent {
  private client!: ProtocolClient;
  /** The SDK's client of the gateway: retries, timeouts, typed errors, pagination. */
  private readonly api: ApiClient;
  private rpc!: JsonRpcProvider;
  private state!: StateFile;
  private address = "";
  private stopped = true;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private server: Server | undefined;
  /** The webhook listener's URL (with `webhookPort`). */
  webhookUrl: string | undefined;

  constructor(
    private readonly config: ProviderConfig,
    private readonly log: (line: string) => void,
  ) {
    this.api = createApiClient({ baseUrl: config.gatewayUrl, apiKey: config.apiKey });
  }

  /** Connects (the gateway's deployment, the chain, the state file), then runs until {@link stop}. */
  async start(): Promise<void> {
    const deployment = unwrap(await this.api.GET("/v1/deployment"));
    const primary = deployment.chains.find((c) => c.chain_id === deployment.primary_chain);
    if (primary === undefined) throw new Error(`the gateway names no primary chain (${deployment.primary_chain})`);
    this.rpc = new JsonRpcProvider(this.config.rpcUrl, undefined, { staticNetwork: false });
    const network = await this.rpc.getNetwork();
    if (network.chainId !== BigInt(primary.native_chain_id)) {
      throw new Error(
        `the RPC URL serves chain ${network.chainId}, the gateway's primary chain is ${primary.native_chain_id}`,
      );
    }
    const wallet = new Wallet(this.config.privateKey, this.rpc);
    this.address = wallet.address;
    this.client = await createProtocolClient({
      runner: wallet,
      deployment: primary.contracts,
      chainId: network.chainId,
    });
    this.state = new StateFile(this.config.stateFile, this.address);
    if (this.config.webhookPort !== null) await this.listen();
    this.log(
      `provider ${this.address}: serving ${this.config.gatewayUrl} (chain ${network.chainId}), state ${this.config.stateFile}` +
        `${this.webhookUrl === undefined ? ", polling only" : `, webhooks at ${this.webhookUrl}`}` +
        `${this.config.dryRun ? ", DRY RUN: no command runs, no transaction is sent" : ""}`,
    );
    this.stopped = false;
    this.loop = this.run();
  }

  /** Runs a pass now (a webhook arrived). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    await this.loop;
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
    this.rpc?.destroy();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      try {
        await this.pass();
      } catch (error) {
        this.log(`provider: pass failed, retrying at the next one: ${(error as Error).message}`);
      }
      if (this.stopped || this.woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.config.pollMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  /**
   * One pass over the account's redemptions: pending ones, ended or terminated leases, renewals.
   * It starts from the state file as it is now, so a `retry` or `abandon` command written while
   * the agent runs takes effect at the next pass.
   */
  async pass(): Promise<void> {
    this.state.reload();
    const pending = await this.list({ status: "pending" });
    for (const r of pending) {
      if (this.stopped) return;
      await this.unlessChanged(r.redemption_id, () => this.fulfil(r));
    }
    // provisioned before a crash (or set to be retried) but no longer pending: a fulfilment that was
    // mined before the agent heard back, or a deadline that passed
    const listed = new Set(pending.map((r) => r.redemption_id));
    for (const [id, record] of Object.entries(this.state.all())) {
      if (listed.has(id) || !["provisioning", "provisioned", "retry"].includes(record.status)) continue;
      const onChain = await getRedemption(this.client, { redemptionId: BigInt(id) });
      if (onChain.status === "pending") continue; // the gateway has not indexed it yet
      await this.unlessChanged(id, async () => {
        this.state.set(id, { status: onChain.status === "expired" ? "missed" : "fulfilled" });
        this.log(`provider: redemption ${id} already ${onChain.status} on-chain: recorded, not sent again`);
      });
    }
    for (const reason of ["terminated", "ended"] as const) {
      for (const r of await this.list({ lease_status: reason })) {
        await this.unlessChanged(r.redemption_id, () => this.reclaim(r, reason));
      }
    }
    if (this.config.renewal !== null) {
      for (const r of await this.list({ lease_status: "active" })) {
        await this.unlessChanged(r.redemption_id, () => this.offer(r));
      }
    }
  }

  /** Works on one redemption; a command that changed its record meanwhile wins, and the agent leaves it. */
  private async unlessChanged(id: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof RecordChangedError)) throw error;
      this.log(
        `provider: redemption ${id} was changed by a command (now ${error.status ?? "unknown"}): left as it says`,
      );
    }
  }

  private async fulfil(r: ApiRedemption): Promise<void> {
    const id = r.redemption_id;
    let record = this.state.get(id);
    if (record !== undefined && ["fulfilled", "failed", "abandoned", "missed"].includes(record.status)) return;
    if (record?.status === "retry") {
      this.log(`provider: retrying redemption ${id} as the provider asked (retry ${record.retries ?? 1})`);
    }
    const now = await this.chainTime();
    if (now > r.estimated_fulfillment_time) {
      this.state.set(id, { status: "missed", error: "the deadline passed before it could be fulfilled" });
      this.log(`provider: ALERT redemption ${id} missed its deadline (${r.estimated_fulfillment_time}): not fulfilled`);
      return;
    }
    if (r.access_public_key === null) {
      if (record?.status !== "waiting_for_key") {
        this.state.set(id, { status: "waiting_for_key" });
        this.log(
          `provider: redemption ${id} waits: user ${r.user} has registered no access key (nothing is encrypted blind)`,
        );
      }
      return;
    }
    if (record?.details === undefined) {
      const details = await this.provision(r, record);
      if (details === undefined) return;
      record = this.state.get(id)!;
    }
    // the chain decides whether it is still to be fulfilled (a fulfilment sent just before a crash)
    const onChain = await getRedemption(this.client, { redemptionId: BigInt(id) });
    if (onChain.status !== "pending") {
      this.state.set(id, { status: onChain.status === "expired" ? "missed" : "fulfilled" });
      this.log(`provider: redemption ${id} already ${onChain.status} on-chain: recorded, not sent again`);
      return;
    }
    if (this.config.dryRun) {
      this.log(`provider: dry run: would fulfil redemption ${id} with a lease of ${this.config.leaseSeconds} s`);
      return;
    }
    const maxTerm = await this.maxLeaseTerm();
    const leaseEnd = BigInt((await this.chainTime()) + Math.min(this.config.leaseSeconds, maxTerm));
    const { expiration: _expiration, ...details } = record.details as unknown as AccessDetails;
    try {
      const sent = await fulfilRedemptionWithLeaseSync(this.client, {
        redemptionId: BigInt(id),
        details: { ...details, redemption_id: id },
        leaseEnd,
      });
      this.state.set(id, { status: "fulfilled", leaseEnd: Number(leaseEnd), txHash: sent.receipt.hash });
      this.log(
        `provider: fulfilled redemption ${id}, lease until ${new Date(Number(leaseEnd) * 1000).toISOString()} (tx ${sent.receipt.hash})`,
      );
    } catch (error) {
      if (error instanceof AccessKeyNotRegisteredError) {
        this.state.set(id, { status: "waiting_for_key" });
        this.log(`provider: redemption ${id} waits: the chain has no access key of ${r.user}`);
        return;
      }
      throw error;
    }
  }

  /** Runs the provisioning command with retries; keeps its output in the state file before returning it. */
  private async provision(r: ApiRedemption, record: RedemptionRecord | undefined) {
    const id = r.redemption_id;
    if (this.config.dryRun) {
      this.log(`provider: dry run: would run the provisioning command for redemption ${id}`);
      return undefined;
    }
    let attempts = record?.attempts ?? 0;
    let error = "";
    while (attempts < this.config.attempts && !this.stopped) {
      attempts++;
      this.state.set(id, { status: "provisioning", attempts });
      const result = await runCommand(
        this.config.provisionCommand,
        JSON.stringify(r),
        { REDEMPTION_ID: id, PROVIDER_ACTION: "provision" },
        this.config.commandTimeoutSeconds,
      );
      if (result.ok) {
        try {
          const details = JSON.parse(result.stdout) as Record<string, unknown>;
          if (typeof details !== "object" || details === null || Array.isArray(details)) {
            throw new Error("not a JSON object");
          }
          this.state.set(id, { status: "provisioned", details, error: undefined });
          this.log(`provider: provisioned redemption ${id} (attempt ${attempts})`);
          return details;
        } catch (parseError) {
          error = `its output is not access-details JSON: ${(parseError as Error).message}`;
        }
      } else {
        error = result.error;
      }
      this.log(
        `provider: provisioning redemption ${id} failed (attempt ${attempts}/${this.config.attempts}): ${error}`,
      );
      if (attempts < this.config.attempts) {
        await new Promise((resolve) => setTimeout(resolve, this.config.backoffMs * 2 ** (attempts - 1)));
      }
    }
    if (this.stopped) return undefined;
    this.state.set(id, { status: "failed", error });
    this.log(
      `provider: ALERT redemption ${id} not provisioned after ${attempts} attempts: ${error} ` +
        `(npm run provider -- retry ${id}, or abandon ${id})`,
    );
    return undefined;
  }

  /** Runs the deprovisioning command once per lease the agent fulfilled. */
  private async reclaim(r: ApiRedemption, reason: "terminated" | "ended"): Promise<void> {
    const id = r.redemption_id;
    const record = this.state.get(id);
    if (r.lease === null || r.lease.lease_id !== id) return; // a renewal: its lease's first redemption stands for it
    if (record?.status !== "fulfilled" || record.deprovisioned !== undefined) return;
    if (this.config.dryRun) {
      this.log(`provider: dry run: would run the deprovisioning command for lease ${id} (${reason})`);
      return;
    }
    const result = await runCommand(
      this.config.deprovisionCommand,
      JSON.stringify(r),
      { REDEMPTION_ID: id, PROVIDER_ACTION: "deprovision", LEASE_END_REASON: reason },
      this.config.commandTimeoutSeconds,
    );
    if (!result.ok) {
      this.log(
        `provider: ALERT deprovisioning lease ${id} (${reason}) failed, retrying at the next pass: ${result.error}`,
      );
      return;
    }
    this.state.set(id, { deprovisioned: reason });
    this.log(`provider: deprovisioned lease ${id} (${reason})`);
  }

  /** Offers a renewal of a lease the agent fulfilled once its end is within the rule's lead (one offer per end). */
  private async offer(r: ApiRedemption): Promise<void> {
    const rule = this.config.renewal!;
    const id = r.redemption_id;
    const record = this.state.get(id);
    if (r.lease === null || r.lease.lease_id !== id || record?.status !== "fulfilled") return;
    const end = r.lease.expires_at;
    if (end === null || r.lease.renewal_offer !== null || record.offeredForEnd === end) return;
    const now = await this.chainTime();
    if (end - now > rule.beforeSeconds || end <= now + 1) return;
    const lease = await getLease(this.client, { leaseId: BigInt(id) });
    if (lease === null || lease.status !== "active" || lease.offer !== null || lease.openDisputes > 0n) return;
    if (this.config.dryRun) {
      this.log(
        `provider: dry run: would offer lease ${id} a renewal of ${rule.extensionSeconds} s for ${rule.price} sSTB`,
      );
      return;
    }
    const maxTerm = await this.maxLeaseTerm();
    // the new end may be at most the maximum term from the acceptance (later than now: this is the bound now)
    const extension = Math.min(rule.extensionSeconds, now + maxTerm - end);
    if (extension <= 0) return;
    await offerRenewalSync(this.client, {
      leaseId: BigInt(id),
      price: parseUnits(rule.price, 18),
      extension: BigInt(extension),
      validUntil: BigInt(end),
    });
    this.state.set(id, { offeredForEnd: end });
    this.log(`provider: offered lease ${id} a renewal of ${extension} s for ${rule.price} sSTB (valid until ${end})`);
  }

  private async chainTime(): Promise<number> {
    return (await this.rpc.getBlock("latest"))!.timestamp;
  }

  /** The manager's longest lease term, in seconds (read through RedemptionViews). */
  private async maxLeaseTerm(): Promise<number> {
    const address = addressOf(this.client, "RedemptionViews");
    const term = await readContract(this.client, {
      abi: redemptionViewsAbi,
      address,
      functionName: "maxLeaseTerm",
      args: [],
    });
    return Number(term);
  }

  /** Every page of the account's redemptions as provider matching `filter`, oldest first. */
  private async list(filter: Omit<PagedQuery<"/v1/redemptions">, "role" | "limit">): Promise<ApiRedemption[]> {
    const all: ApiRedemption[] = [];
    const query = { ...filter, role: "provider", limit: 100 } as const;
    for await (const redemption of paginate(this.api, "/v1/redemptions", { params: { query } })) all.push(redemption);
    return all.reverse();
  }

  /** The webhook listener: a verified delivery wakes the loop (the pass reads the list: one code path). */
  private async listen(): Promise<void> {
    const secret = this.config.webhookSecret!;
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const verified = verifyWebhook(Buffer.concat(chunks), (name) => request.headers[name.toLowerCase()], secret);
        if (!verified.ok) {
          this.log(`provider: refused a webhook (${verified.reason})`);
          response.writeHead(verified.status).end();
          return;
        }
        response.writeHead(200).end();
        this.log(
          `provider: webhook ${verified.webhook.event} ${String(verified.webhook.payload.data?.redemption_id ?? "")}`.trim(),
        );
        this.wake();
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(this.config.webhookPort!, this.config.webhookHost, () => resolve());
    });
    const { port } = this.server.address() as AddressInfo;
    this.webhookUrl = `http://${this.config.webhookHost}:${port}/`;
  }
}
