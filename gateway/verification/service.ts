import { JsonRpcProvider, getAddress } from "ethers";
import type { TypedDataDomain, Wallet } from "ethers";

import {
  attestationDomain,
  attestationFromJson,
  attestationSigner,
  attestationToJson,
  benchmarkReportDomain,
  benchmarkReportHash,
  benchmarkReportSigner,
  combineSignatures,
  cuValueOf,
  encodeProof,
  randomNonce,
  signAttestation,
  specsOfReport,
} from "@compute-capacity/sdk";
import type {
  Attestation,
  AttestationJson,
  ComputeSpecs,
  DeployedChain,
  SignedBenchmarkReport,
} from "@compute-capacity/sdk";
import { AttestationVerifier__factory, ProviderRegistry__factory } from "../../typechain-types/index.js";
import type { AttestationVerifier, ProviderRegistry } from "../../typechain-types/index.js";
import { ConfigError } from "../config-error.js";
import { ApiError, invalidParameter, notFound } from "../http/errors.js";
import type { Db, Tx } from "../store/db.js";
import { rejectionOf } from "./checks.js";
import type { Rejection } from "./checks.js";
import { verificationCompleted } from "./events.js";
import type { PublishEvent } from "./events.js";
import { resolveVerifierWallets } from "./keys.js";
import { VerificationStore } from "./store.js";
import type { VerificationRequestRow } from "./store.js";
import { verificationView } from "./view.js";
import type { MintInstructions, VerificationView } from "./view.js";

export interface VerificationOptions {
  /** Verifier private keys; undefined: the environment's default (the devnet's keys on the devnet). */
  keys?: readonly string[];
  environment?: string;
  /** How long an attestation can be minted, seconds of chain time (default one day). */
  ttlSeconds?: number;
  log?: (line: string) => void;
  /** Queues `verification.completed` in the transaction that stores a verdict (the webhook outbox). */
  publish?: PublishEvent;
}

/** A report the service has accepted for a decision: its id, figures and provider. */
interface Prepared {
  id: string;
  specs: ComputeSpecs;
  providerId: string;
  provider: NonNullable<Awaited<ReturnType<VerificationStore["provider"]>>>;
}

const DEFAULT_TTL = 86_400;

/**
 * The gateway's verifier (DESIGN.md section 6): checks a provider's signed benchmark report
 * against the indexed registry, values it ({@link cuValueOf}), signs the EIP-712 attestation the
 * AttestationVerifier accepts with this gateway's verifier key(s) up to the on-chain threshold,
 * and keeps the decision. Several operators, one key each, reach the threshold together through
 * {@link cosign}.
 */
export class VerificationService {
  private readonly store: VerificationStore;
  private readonly attestationDomain: TypedDataDomain;
  private readonly reportDomain: TypedDataDomain;
  private readonly ttl: number;
  private readonly publish?: PublishEvent;
  private collateralToken?: string;

  private constructor(
    db: Db,
    private readonly rpc: JsonRpcProvider,
    private readonly chainId: number,
    private readonly verifier: AttestationVerifier,
    private readonly registry: ProviderRegistry,
    private readonly mintingAgent: string,
    private readonly wallets: readonly Wallet[],
    options: VerificationOptions,
  ) {
    this.store = new VerificationStore(db, chainId);
    const verifierAddress = getAddress(verifier.target as string);
    this.attestationDomain = attestationDomain(BigInt(chainId), verifierAddress);
    this.reportDomain = benchmarkReportDomain(BigInt(chainId), verifierAddress);
    this.ttl = options.ttlSeconds ?? DEFAULT_TTL;
    this.publish = options.publish;
  }

  /**
   * Connects to the primary chain and refuses (ConfigError) a key the deployment's verifier set
   * does not hold.
   */
  static async start(db: Db, primary: DeployedChain, options: VerificationOptions = {}): Promise<VerificationService> {
    const { contracts } = primary;
    for (const name of ["AttestationVerifier", "ProviderRegistry", "MintingAgent"]) {
      if (contracts[name] === undefined) throw new ConfigError(`the deployment's ${primary.chain} has no ${name}`);
    }
    // no response cache: a decision reads the chain's time and the verifier set as they are now
    const rpc = new JsonRpcProvider(primary.rpcUrl, primary.chainId, { staticNetwork: true, cacheTimeout: -1 });
    try {
      const verifier = AttestationVerifier__factory.connect(contracts.AttestationVerifier, rpc);
      const registry = ProviderRegistry__factory.connect(contracts.ProviderRegistry, rpc);
      // a gateway without keys only shows verifications: it starts whether the chain answers or not
      const wallets = await resolveVerifierWallets(
        options.keys,
        options.environment ?? "devnet",
        (address) => verifier.isVerifier(address),
        options.log ?? (() => {}),
      );
      return new VerificationService(
        db,
        rpc,
        primary.chainId!,
        verifier,
        registry,
        getAddress(contracts.MintingAgent),
        wallets,
        options,
      );
    } catch (error) {
      rpc.destroy();
      throw error;
    }
  }

  /** Whether this gateway holds verifier keys (otherwise it only shows verifications). */
  get signs(): boolean {
    return this.wallets.length > 0;
  }

  close(): void {
    this.rpc.destroy();
  }

  /**
   * `POST /verification/submit`: decides on `report` for the API key's `account` and signs with
   * this gateway's keys. Idempotent by report: the same report while its attestation can be
   * minted (or after) answers the stored verification; a rejected or expired one is decided anew.
   */
  async submit(account: string, report: SignedBenchmarkReport): Promise<VerificationView> {
    const p = await this.prepare(account, report);
    const now = await this.chainNow();
    const reusable = (row: VerificationRequestRow | undefined) =>
      row !== undefined && row.status !== "rejected" && (row.expiry ?? 0) > now;
    if (reusable(await this.store.request(p.id)) || (await this.store.onChain(p.id)) !== undefined) {
      return (await this.find(p.id))!;
    }
    const [threshold, keys] = await Promise.all([this.threshold(), this.activeKeys()]);
    const row = await this.store.db.transaction(async (tx) => {
      await this.store.lockProvider(tx, p.providerId);
      const existing = await this.store.request(p.id, tx);
      if (reusable(existing)) return existing!;
      const base = this.baseRow(report, p, existing?.createdAt ?? now, now);
      const rejection = await this.rejection(tx, report, p, now);
      if (rejection !== undefined) return this.saveRejected(tx, base, rejection);
      const attestation: Attestation = {
        provider: p.providerId,
        cuHash: p.id,
        cuValue: cuValueOf(p.specs),
        specs: p.specs,
        expiry: BigInt(now + this.ttl),
        nonce: randomNonce(),
      };
      const own = await signAttestation(attestation, this.attestationDomain, keys.slice(0, threshold));
      return this.saveSigned(tx, base, attestation, own, threshold, now);
    });
    return this.view(row);
  }

  /**
   * The co-sign route: another verifier operator's attestation of `report` and the signatures it
   * gathered so far. This gateway checks the report itself as on submit (it trusts no other
   * operator's figures), checks that the attestation is exactly what it would attest (provider,
   * cuHash, value, figures; an expiry within its own window) and that every signature is a
   * verifier's, then adds its own up to the threshold.
   */
  async cosign(
    account: string,
    report: SignedBenchmarkReport,
    attestationJson: AttestationJson,
    signatures: readonly string[],
  ): Promise<VerificationView> {
    const p = await this.prepare(account, report);
    const attestation = attestationFromJson(attestationJson);
    const now = await this.chainNow();
    this.assertOwnAttestation(p, attestation, now);
    await this.assertVerifierSignatures(attestation, signatures);
    if ((await this.store.onChain(p.id)) !== undefined) return (await this.find(p.id))!;
    const [threshold, keys] = await Promise.all([this.threshold(), this.activeKeys()]);
    const row = await this.store.db.transaction(async (tx) => {
      await this.store.lockProvider(tx, p.providerId);
      const existing = await this.store.request(p.id, tx);
      const base = this.baseRow(report, p, existing?.createdAt ?? now, now);
      const rejection = await this.rejection(tx, report, p, now);
      if (rejection !== undefined) return this.saveRejected(tx, base, rejection);
      // signatures this gateway already holds for the very same attestation count too
      const same =
        existing?.attestation != null &&
        JSON.stringify(existing.attestation) === JSON.stringify(attestationToJson(attestation));
      const held = [...signatures, ...(same ? existing!.signatures.map((s) => s.signature) : [])];
      const signed = new Set(combineSignatures(attestation, this.attestationDomain, held).map((s) => s.signer));
      const missing = Math.max(threshold - signed.size, 0);
      const own = await signAttestation(
        attestation,
        this.attestationDomain,
        keys.filter((k) => !signed.has(k.address)).slice(0, missing),
      );
      return this.saveSigned(tx, base, attestation, [...held, ...own], threshold, now);
    });
    return this.view(row);
  }

  /** A verification by id (cuHash): submitted here, minted on-chain, or both. */
  async find(id: string): Promise<VerificationView | undefined> {
    const [request, onChain] = await Promise.all([this.store.request(id), this.store.onChain(id)]);
    if (request === undefined && onChain === undefined) return undefined;
    if (request === undefined)
      return verificationView(undefined, onChain, { proof: null, threshold: null, mint: null });
    return onChain === undefined
      ? this.view(request)
      : verificationView(request, onChain, { proof: null, threshold: null, mint: null });
  }

  // --- steps ---

  /** Who may submit, for which provider, and the report's identity. */
  private async prepare(account: string, report: SignedBenchmarkReport): Promise<Prepared> {
    // any letter case: an address is its 20 bytes (a wrong checksum is no reason for a 500)
    const providerId = getAddress(report.provider_id.toLowerCase());
    if (providerId !== getAddress(account)) {
      throw new ApiError("authorization_error", "an API key may submit reports for its own account's provider only", {
        parameter: "provider_id",
        account: getAddress(account),
      });
    }
    const provider = await this.store.provider(providerId);
    if (provider === undefined) throw notFound("provider", providerId);
    let id: string;
    try {
      id = benchmarkReportHash(report);
    } catch {
      throw invalidParameter("proof", "is not a canonical 65-byte ECDSA signature (r, s in range, low s)");
    }
    return { id, specs: specsOfReport(report), providerId, provider };
  }

  /** The attestation must be exactly what this verifier attests for the report, and mintable now. */
  private assertOwnAttestation(p: Prepared, attestation: Attestation, now: number): void {
    const expected: Record<string, string> = {
      provider: p.providerId,
      cuHash: p.id,
      cuValue: cuValueOf(p.specs).toString(),
      specs: JSON.stringify(p.specs),
    };
    const given: Record<string, string> = {
      provider: attestation.provider,
      cuHash: attestation.cuHash,
      cuValue: attestation.cuValue.toString(),
      specs: JSON.stringify(attestation.specs),
    };
    for (const field of Object.keys(expected)) {
      if (expected[field] !== given[field]) {
        throw invalidParameter(`attestation.${field}`, `does not match the report (expected ${expected[field]})`);
      }
    }
    if (attestation.nonce >= 2n ** 256n) throw invalidParameter("attestation.nonce", "must fit in 256 bits");
    if (attestation.expiry <= BigInt(now)) throw invalidParameter("attestation.expiry", "has passed");
    if (attestation.expiry > BigInt(now + this.ttl)) {
      throw invalidParameter(
        "attestation.expiry",
        `is more than ${this.ttl} s ahead; this verifier attests for no longer`,
      );
    }
  }

  /** Every signature must be a current verifier's signature of the attestation. */
  private async assertVerifierSignatures(attestation: Attestation, signatures: readonly string[]): Promise<void> {
    for (const [i, signature] of signatures.entries()) {
      let signer: string;
      try {
        signer = attestationSigner(attestation, this.attestationDomain, signature);
      } catch {
        throw invalidParameter(`signatures.${i}`, "is not a signature");
      }
      if (!(await this.verifier.isVerifier(signer))) {
        throw invalidParameter(`signatures.${i}`, `is signed by ${signer}, which is not a verifier of this deployment`);
      }
    }
  }

  /** The verifier's refusal of a report, or undefined: the provider's signature, then {@link rejectionOf}. */
  private async rejection(
    tx: Tx,
    report: SignedBenchmarkReport,
    p: Prepared,
    now: number,
  ): Promise<Rejection | undefined> {
    let signer: string | undefined;
    try {
      signer = benchmarkReportSigner(this.reportDomain, report);
    } catch {
      signer = undefined;
    }
    if (signer !== p.providerId) {
      return {
        parameter: "proof",
        reason:
          "is not the provider's EIP-712 signature of this report (BenchmarkReport, domain ComputeBenchmarkReport)",
      };
    }
    const r = p.provider;
    return rejectionOf(p.specs, {
      status: r.status,
      totals: {
        cpuCores: r.totalCpuCores,
        ramGb: r.totalRamGb,
        storageGb: r.totalStorageGb,
        networkMbps: r.networkCapacityMbps,
      },
      used: await this.store.hardwareInUse(tx, p.providerId, p.id, now),
    });
  }

  private baseRow(report: SignedBenchmarkReport, p: Prepared, createdAt: number, now: number): VerificationRequestRow {
    return {
      verificationId: p.id,
      chainId: this.chainId,
      providerId: p.providerId,
      providerLower: p.providerId.toLowerCase(),
      verificationType: report.verification_type,
      report: { ...report, provider_id: p.providerId },
      status: "rejected",
      rejection: null,
      cpuCores: p.specs.cpuCores,
      ramGb: p.specs.ramGb,
      storageGb: p.specs.storageGb,
      networkMbps: p.specs.networkMbps,
      cuValue: cuValueOf(p.specs).toString(),
      attestation: null,
      signatures: [],
      expiry: null,
      createdAt,
      verifiedAt: null,
      updatedAt: now,
    };
  }

  private async saveRejected(tx: Tx, base: VerificationRequestRow, rejection: Rejection) {
    const row = { ...base, status: "rejected", rejection };
    await this.store.save(tx, row);
    const view = verificationView(row, undefined, { proof: null, threshold: null, mint: null });
    await this.publish?.(tx, verificationCompleted(view, row.updatedAt));
    return row;
  }

  private async saveSigned(
    tx: Tx,
    base: VerificationRequestRow,
    attestation: Attestation,
    signatures: readonly string[],
    threshold: number,
    now: number,
  ): Promise<VerificationRequestRow> {
    const combined = combineSignatures(attestation, this.attestationDomain, signatures);
    const verified = combined.length >= threshold;
    const row: VerificationRequestRow = {
      ...base,
      status: verified ? "verified" : "partially_signed",
      attestation: attestationToJson(attestation),
      signatures: combined,
      expiry: Number(attestation.expiry),
      verifiedAt: verified ? now : null,
    };
    await this.store.save(tx, row);
    if (verified) {
      const proof = encodeProof(
        attestation,
        combined.map((s) => s.signature),
      );
      const view = verificationView(row, undefined, { proof, threshold, mint: null });
      await this.publish?.(tx, verificationCompleted(view, now));
    }
    return row;
  }

  /** A stored, not yet minted verification with what minting it needs as of now. */
  private async view(row: VerificationRequestRow): Promise<VerificationView> {
    if (row.status === "rejected" || row.attestation === null) {
      return verificationView(row, undefined, { proof: null, threshold: null, mint: null });
    }
    const [threshold, mint] = await Promise.all([this.threshold(), this.mintInstructions(row)]);
    const proof =
      row.status === "verified"
        ? encodeProof(
            attestationFromJson(row.attestation),
            row.signatures.map((s) => s.signature),
          )
        : null;
    return verificationView(row, undefined, { proof, threshold, mint });
  }

  /** Collateral the mint must bring: ratio x price x (available + value) beyond the free collateral. */
  private async mintInstructions(row: VerificationRequestRow): Promise<MintInstructions> {
    const [account, [minPeriod, maxPeriod]] = await Promise.all([
      this.registry.accountOf(row.providerId),
      this.registry.stakingPeriodBounds(),
    ]);
    const required = await this.registry.requiredCollateral(account.availableCU + BigInt(row.cuValue));
    this.collateralToken ??= getAddress(await this.registry.collateralToken());
    return {
      minting_agent: this.mintingAgent,
      collateral_token: this.collateralToken,
      collateral_amount: (required > account.freeCollateral ? required - account.freeCollateral : 0n).toString(),
      staking_period_min: Number(minPeriod),
      staking_period_max: Number(maxPeriod),
    };
  }

  /** The chain's time: attestations expire in block time, which a devnet may have moved ahead. */
  private async chainNow(): Promise<number> {
    const block = await this.rpc.getBlock("latest");
    if (block === null) throw new Error("the primary chain returned no latest block");
    return block.timestamp;
  }

  private async threshold(): Promise<number> {
    return Number(await this.verifier.threshold());
  }

  /** This gateway's keys that are verifiers now (governance may have removed one since the start). */
  private async activeKeys(): Promise<Wallet[]> {
    const listed = await Promise.all(this.wallets.map((w) => this.verifier.isVerifier(w.address)));
    return this.wallets.filter((_, i) => listed[i]);
  }
}
