import { Signature, Wallet, keccak256, parseEther, parseUnits, toUtf8Bytes } from "ethers";
import type { ContractTransactionResponse } from "ethers";
import type { HardhatEthers } from "@nomicfoundation/hardhat-ethers/types";

import { attestationDomain, buildProof, cuHashOf } from "./attestation.js";
import type { Attestation } from "./attestation.js";
import { deployPrimary } from "./deploy.js";

/** One measured operation. */
export interface GasRow {
  operation: string;
  gasUsed: bigint;
  note: string;
}

const DAY = 86_400n;

const SPECS = {
  cpuCores: 64,
  ramGb: 256,
  storageGb: 4096,
  networkMbps: 10000,
  cpuScore: 9100,
  memoryScore: 8800,
  storageScore: 7600,
  networkScore: 9500,
};

const PROFILE = {
  name: "Acme Compute",
  country: "DE",
  region: "eu-central",
  email: "ops@acme.example",
  website: "https://acme.example",
  cpuType: "AMD EPYC 9654",
  totalCpuCores: 192,
  totalRamGb: 1536,
  totalStorageGb: 61440,
  networkCapacityMbps: 100000,
};

/**
 * Deploys the protocol on the given (in-process) chain and measures the gas of every user-facing
 * operation built so far, in the order a provider and a holder would use them.
 */
export async function runGasBenchmark(ethers: HardhatEthers): Promise<GasRow[]> {
  const [deployer, treasury, approver, provider, holder, spender] = await ethers.getSigners();
  const verifierKeys = [1, 2, 3].map((i) => new Wallet(keccak256(toUtf8Bytes(`bench-verifier-${i}`))));
  const d = await deployPrimary({
    deployer,
    treasury: treasury.address,
    collateralPerCU: parseUnits("1", 6),
    verifiers: verifierKeys.map((w) => w.address),
    verifierThreshold: 2,
    governanceSupply: parseEther("100000000"),
    cuTokenUri: "",
    approvers: [approver.address],
  });
  const rows: GasRow[] = [];
  const measure = async (operation: string, note: string, tx: Promise<ContractTransactionResponse>) => {
    const receipt = await (await tx).wait();
    rows.push({ operation, gasUsed: receipt!.gasUsed, note });
  };

  const { chainId } = await ethers.provider.getNetwork();
  const domain = attestationDomain(chainId, await d.verifier.getAddress());
  const proofFor = async (n: number, cuValue: bigint) => {
    const now = BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
    const attestation: Attestation = {
      provider: provider.address,
      cuHash: cuHashOf({ bench: n }),
      cuValue,
      specs: SPECS,
      expiry: now + DAY,
      nonce: BigInt(n),
    };
    return buildProof(attestation, domain, verifierKeys.slice(0, 2));
  };

  await d.collateral.mint(provider.address, parseUnits("1000000", 6));
  await d.collateral.connect(provider).approve(await d.mintingAgent.getAddress(), ethers.MaxUint256);
  await d.collateral.connect(provider).approve(await d.registry.getAddress(), ethers.MaxUint256);
  await d.sstb.connect(provider).approve(await d.mintingAgent.getAddress(), ethers.MaxUint256);

  await measure("register", "provider profile (6 strings), tier", d.registry.connect(provider).register(PROFILE, 0));
  await measure(
    "approveProvider",
    "approver role: pending -> active",
    d.registry.connect(approver).approveProvider(provider.address),
  );
  await measure(
    "depositCollateral",
    "first deposit (vault balance and free collateral from zero)",
    d.registry.connect(provider).depositCollateral(parseUnits("100", 6)),
  );
  const value = parseEther("100");
  await measure(
    "verifyAndMintSSTB",
    "2-of-3 attestation, first mint of the provider, 120 USDC pulled",
    d.mintingAgent.connect(provider).verifyAndMintSSTB(await proofFor(1, value), parseUnits("120", 6), 30n * DAY),
  );
  await measure(
    "verifyAndMintSSTB",
    "2-of-3 attestation, later mint, covered by collateral deposited earlier",
    d.mintingAgent.connect(provider).verifyAndMintSSTB(await proofFor(2, parseEther("50")), 0n, 30n * DAY),
  );
  await measure(
    "verifyAndMintSSTB",
    "2-of-3 attestation, later mint, 60 USDC pulled",
    d.mintingAgent
      .connect(provider)
      .verifyAndMintSSTB(await proofFor(3, parseEther("50")), parseUnits("60", 6), 30n * DAY),
  );
  await measure(
    "sSTB transfer",
    "to a fresh holder",
    d.sstb.connect(provider).transfer(holder.address, parseEther("10")),
  );

  const deadline = BigInt((await ethers.provider.getBlock("latest"))!.timestamp) + 3600n;
  const permit = Signature.from(
    await holder.signTypedData(
      { name: "Staked Compute Token", version: "1", chainId, verifyingContract: await d.sstb.getAddress() },
      {
        Permit: [
          { name: "owner", type: "address" },
          { name: "spender", type: "address" },
          { name: "value", type: "uint256" },
          { name: "nonce", type: "uint256" },
          { name: "deadline", type: "uint256" },
        ],
      },
      { owner: holder.address, spender: spender.address, value: parseEther("1"), nonce: 0n, deadline },
    ),
  );
  await measure(
    "sSTB permit",
    "EIP-2612, first permit of the holder",
    d.sstb.permit(holder.address, spender.address, parseEther("1"), deadline, permit.v, permit.r, permit.s),
  );

  await ethers.provider.send("evm_increaseTime", [Number(30n * DAY)]);
  await ethers.provider.send("evm_mine", []);
  await measure(
    "retireCapacity",
    "burns 40 sSTB after the staking period",
    d.mintingAgent.connect(provider).retireCapacity(parseEther("40")),
  );
  await measure(
    "withdrawCollateral",
    "excess freed by the retirement",
    d.registry.connect(provider).withdrawCollateral(await d.registry.excessCollateral(provider.address)),
  );
  return rows;
}

/** The Markdown report written to docs/gas-report.md. */
export function renderGasReport(rows: readonly GasRow[], context: string): string {
  const lines = [
    "# Gas report",
    "",
    `Generated by \`npm run bench:gas\` (${context}). Gas used per transaction, including the 21,000 base`,
    "and calldata. Re-run after any contract change and commit the result.",
    "",
    "| operation | gas used | scenario |",
    "| --- | ---: | --- |",
    ...rows.map((r) => `| ${r.operation} | ${r.gasUsed.toLocaleString("en-US")} | ${r.note} |`),
    "",
  ];
  return lines.join("\n");
}
