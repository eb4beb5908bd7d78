import { useState } from "react";
import type { FormEvent } from "react";

import { hashReviewedProfile } from "@compute-capacity/sdk";
import type { GetProviderAccountReturnType, ProviderProfile } from "@compute-capacity/sdk";

import { Address } from "../../components/Address";
import { Amount } from "../../components/Amount";
import { Badge, ErrorState, Loading } from "../../components/States";
import { Time } from "../../components/Time";
import { formatUnitsOf, parseAmount, wholeUnits } from "../../lib/amount";
import { useChainNow } from "../../lib/chain";
import { useDeployment } from "../../lib/deployment";
import { useDevnetFaucet } from "../../lib/faucet";
import { formatAmount, formatDuration } from "../../lib/format";
import { useSingleFlight } from "../../lib/mutations";
import { useWallet } from "../../lib/wallet";
import {
  useDepositCollateral,
  useMint,
  useRegisterProvider,
  useRetire,
  useSubmitBenchmark,
  useVerification,
  useWithdrawCollateral,
} from "./onboarding-api";
import type { Tier, TwoStep } from "./onboarding-api";

type Account = GetProviderAccountReturnType;
const DAY = 86_400;
const TIERS: Array<[Tier, string]> = [
  ["standard", "Standard: fulfil within 24 h"],
  ["premium", "Premium: fulfil within 6 h"],
  ["enterprise", "Enterprise: fulfil within 1 h"],
];
const TIER_INDEX: Record<Tier, number> = { standard: 0, premium: 1, enterprise: 2 };
/** Where the staking period chosen at registration is kept for the mint (this browser only; nothing secret). */
const stakingKey = (address: string) => `compute-portal:staking-days:${address.toLowerCase()}`;

function Step({ step, texts }: { step: TwoStep | undefined; texts: Record<TwoStep, string> }) {
  return step === undefined ? null : (
    <p className="state" role="status">
      {texts[step]}
    </p>
  );
}

/**
 * Registration: the profile (shown to holders; its name, location, CPU type and capacity figures
 * are what governance reviews), the tier (the fulfilment deadline holders get), and the staking
 * period the first mint will commit capacity for.
 */
export function RegisterProvider({ address, account }: { address: string; account: Account | undefined }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const register = useRegisterProvider(wallet, deployment);
  const registerOnce = useSingleFlight(register);
  const [form, setForm] = useState({
    name: "",
    country: "",
    region: "",
    email: "",
    website: "https://",
    cpuType: "",
    totalCpuCores: "64",
    totalRamGb: "256",
    totalStorageGb: "4096",
    networkCapacityMbps: "10000",
  });
  const [tier, setTier] = useState<Tier>("standard");
  const min = account === undefined ? 7 : Number(account.stakingPeriod.min) / DAY;
  const max = account === undefined ? 365 : Number(account.stakingPeriod.max) / DAY;
  const [days, setDays] = useState("30");
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [name]: e.target.value });
  const daysValue = Number(days);
  const daysProblem =
    !Number.isInteger(daysValue) || daysValue < min || daysValue > max
      ? `The staking period is a whole number of days from ${min} to ${max} (the registry's bounds).`
      : undefined;
  const profile: ProviderProfile = {
    name: form.name.trim(),
    country: form.country.trim(),
    region: form.region.trim(),
    email: form.email.trim(),
    website: form.website.trim(),
    cpuType: form.cpuType.trim(),
    totalCpuCores: Number(form.totalCpuCores),
    totalRamGb: Number(form.totalRamGb),
    totalStorageGb: Number(form.totalStorageGb),
    networkCapacityMbps: Number(form.networkCapacityMbps),
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (daysProblem !== undefined) return;
    localStorage.setItem(stakingKey(address), String(daysValue));
    registerOnce({ profile, tier });
  };
  return (
    <section className="card" aria-labelledby="register-title">
      <h2 id="register-title">Register as a provider</h2>
      <p>
        <Address value={address} /> is not a provider yet. Registering costs one transaction; governance then reviews
        the profile's name, location, CPU type and capacity figures with the tier, and approves them before you can
        mint.
      </p>
      <form onSubmit={submit} className="grid">
        <label>
          Name
          <input required maxLength={64} value={form.name} onChange={set("name")} />
        </label>
        <label>
          Country (ISO code)
          <input required maxLength={64} value={form.country} onChange={set("country")} />
        </label>
        <label>
          Region
          <input required maxLength={64} value={form.region} onChange={set("region")} />
        </label>
        <label>
          Contact e-mail
          <input type="email" maxLength={128} value={form.email} onChange={set("email")} />
        </label>
        <label>
          Website
          <input type="url" maxLength={128} value={form.website} onChange={set("website")} />
        </label>
        <label>
          CPU type
          <input required maxLength={64} value={form.cpuType} onChange={set("cpuType")} />
        </label>
        <label>
          CPU cores (total)
          <input required type="number" min={1} value={form.totalCpuCores} onChange={set("totalCpuCores")} />
        </label>
        <label>
          Memory (GB, total)
          <input required type="number" min={1} value={form.totalRamGb} onChange={set("totalRamGb")} />
        </label>
        <label>
          Storage (GB, total)
          <input required type="number" min={1} value={form.totalStorageGb} onChange={set("totalStorageGb")} />
        </label>
        <label>
          Network (Mbit/s)
          <input
            required
            type="number"
            min={1}
            value={form.networkCapacityMbps}
            onChange={set("networkCapacityMbps")}
          />
        </label>
        <fieldset className="wide">
          <legend>Tier (the fulfilment deadline holders get)</legend>
          {TIERS.map(([value, text]) => (
            <label key={value} className="inline">
              <input type="radio" name="tier" checked={tier === value} onChange={() => setTier(value)} /> {text}
            </label>
          ))}
        </fieldset>
        <label>
          Staking period (days, {min} to {max})
          <input
            required
            type="number"
            min={min}
            max={max}
            value={days}
            onChange={(e) => setDays(e.target.value)}
            aria-describedby="staking-help"
          />
        </label>
        <p id="staking-help" className="muted wide">
          Capacity you mint stays committed this long: until then it cannot be retired and its collateral cannot be
          withdrawn. {daysProblem ?? ""}
        </p>
        <button type="submit" className="primary" disabled={register.isPending || daysProblem !== undefined}>
          {register.isPending ? "Confirm in your wallet…" : "Register"}
        </button>
      </form>
      {register.isError ? <ErrorState error={register.error} /> : null}
    </section>
  );
}

/** A pending provider: what governance reviews and the hash it approves, refreshed until it does. */
export function ReviewState({ account, profile }: { account: Account; profile: ProviderProfile | undefined }) {
  const hash = profile === undefined ? undefined : hashReviewedProfile(profile, TIER_INDEX[account.tier]);
  return (
    <section className="card" aria-labelledby="review-title" data-testid="review-state">
      <h2 id="review-title">
        Under review <Badge value="pending" />
      </h2>
      <p>
        Registered <Time unix={Number(account.registeredAt)} /> with the {account.tier} tier. Governance's approver
        checks the reviewed part of your profile (name, location, CPU type, the four capacity figures) with the tier,
        and approves exactly that: if you change one of them, the approval has to be given again. This page updates when
        the approval lands on the chain; meanwhile you can deposit collateral.
      </p>
      {hash === undefined ? null : (
        <p>
          The approver approves the hash <code className="token">{hash}</code>.
        </p>
      )}
    </section>
  );
}

/** Collateral: what is deposited, free, locked and withdrawable, what a deposit allows; deposit and withdraw. */
export function CollateralCard({ account }: { account: Account }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const now = useChainNow();
  const { symbol, decimals } = account.collateralToken;
  const deposit = useDepositCollateral(wallet, deployment);
  const depositOnce = useSingleFlight(deposit);
  const withdraw = useWithdrawCollateral(wallet, deployment);
  const withdrawOnce = useSingleFlight(withdraw);
  const faucet = useDevnetFaucet(wallet, deployment);
  const faucetOnce = useSingleFlight(faucet);
  const [depositText, setDepositText] = useState("120");
  const [withdrawText, setWithdrawText] = useState("");
  const [step, setStep] = useState<TwoStep>();
  const amountOf = (text: string) => parseAmount(text, symbol, decimals);
  const c = (value: bigint) => formatAmount(wholeUnits(value, decimals), symbol, decimals);
  const backs = (collateral: bigint) =>
    account.collateralPerSstb === 0n ? 0n : (collateral * 10n ** 18n) / account.collateralPerSstb;
  const depositAmount = amountOf(depositText);
  const depositProblem = !depositAmount.ok
    ? depositAmount.reason
    : depositAmount.value > account.collateralBalance
      ? `Your wallet holds ${c(account.collateralBalance)}: less than ${c(depositAmount.value)}.`
      : undefined;
  const staking = now !== undefined && Number(account.stakedUntil) > now;
  const withdrawAmount = amountOf(withdrawText);
  const withdrawProblem =
    withdrawText.trim() === ""
      ? undefined
      : !withdrawAmount.ok
        ? withdrawAmount.reason
        : staking
          ? `Your capacity is staked until the chain reaches ${new Date(Number(account.stakedUntil) * 1000).toUTCString()}: collateral can be withdrawn after that.`
          : withdrawAmount.value > account.excessCollateral
            ? `At most ${c(account.excessCollateral)} is withdrawable: the rest backs your available capacity or is locked for open redemptions.`
            : undefined;
  return (
    <section className="card" aria-labelledby="manage-collateral-title">
      <h2 id="manage-collateral-title">Collateral</h2>
      <dl className="facts" data-testid="collateral-account">
        <dt>Deposited, free</dt>
        <dd>{c(account.freeCollateral)}</dd>
        <dt>Locked for open redemptions</dt>
        <dd>{c(account.lockedCollateral)}</dd>
        <dt>Withdrawable</dt>
        <dd data-testid="withdrawable">
          {c(staking ? 0n : account.excessCollateral)}
          {staking ? (
            <>
              {" "}
              (staked until <Time unix={Number(account.stakedUntil)} />)
            </>
          ) : null}
        </dd>
        <dt>What it allows</dt>
        <dd data-testid="collateral-allows">
          {c(account.collateralPerSstb)} backs 1 sSTB of capacity; your free collateral backs{" "}
          {formatAmount(wholeUnits(backs(account.freeCollateral)), "sSTB", 6)} in all (
          {formatAmount(wholeUnits(account.availableCapacity), "sSTB", 18)} minted and available).
        </dd>
        <dt>In your wallet</dt>
        <dd data-testid="collateral-wallet">{c(account.collateralBalance)}</dd>
      </dl>
      {deployment.environment === "devnet" ? (
        <p>
          <button type="button" disabled={faucet.isPending} onClick={() => faucetOnce({ decimals })}>
            {faucet.isPending ? "Minting test collateral…" : `Get 1,000 test ${symbol} (devnet faucet)`}
          </button>
          {faucet.isError ? <ErrorState error={faucet.error} /> : null}
        </p>
      ) : null}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (depositProblem !== undefined || !depositAmount.ok) return;
          depositOnce(
            { amount: depositAmount.value, onStep: setStep },
            { onSettled: () => setStep(undefined), onSuccess: () => setDepositText("") },
          );
        }}
      >
        <label>
          Deposit ({symbol})
          <input
            inputMode="decimal"
            value={depositText}
            onChange={(e) => setDepositText(e.target.value)}
            aria-describedby="deposit-help"
          />
        </label>
        <p id="deposit-help" className={depositProblem === undefined ? "muted" : "state warning"}>
          {depositProblem ??
            (depositAmount.ok
              ? `Backs ${formatAmount(wholeUnits(backs(depositAmount.value)), "sSTB", 6)} of capacity. Your wallet asks you to approve ${c(depositAmount.value)} for the registry, then to confirm the deposit.`
              : "")}
        </p>
        <button type="submit" className="primary" disabled={deposit.isPending || depositProblem !== undefined}>
          {deposit.isPending ? "Depositing…" : "Deposit"}
        </button>
        <Step
          step={step}
          texts={{ approve: "Approve the collateral in your wallet…", send: "Confirm the deposit in your wallet…" }}
        />
      </form>
      {deposit.isError ? <ErrorState error={deposit.error} /> : null}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (withdrawProblem !== undefined || !withdrawAmount.ok) return;
          withdrawOnce(withdrawAmount.value, { onSuccess: () => setWithdrawText("") });
        }}
      >
        <label>
          Withdraw ({symbol})
          <input
            inputMode="decimal"
            value={withdrawText}
            onChange={(e) => setWithdrawText(e.target.value)}
            aria-describedby="withdraw-help"
          />
        </label>
        <p id="withdraw-help" className={withdrawProblem === undefined ? "muted" : "state warning"}>
          {withdrawProblem ?? `Up to ${c(staking ? 0n : account.excessCollateral)} now.`}
        </p>
        <button
          type="submit"
          disabled={withdraw.isPending || withdrawProblem !== undefined || withdrawText.trim() === ""}
        >
          {withdraw.isPending ? "Confirm in your wallet…" : "Withdraw"}
        </button>
      </form>
      {withdraw.isError ? <ErrorState error={withdraw.error} /> : null}
    </section>
  );
}

const REFERENCE = {
  cpu_cores: "64",
  ram_gb: "256",
  storage_gb: "4096",
  network_mbps: "10000",
  cpu_score: "9100",
  memory_score: "8800",
  storage_score: "7600",
  network_score: "9500",
};

/**
 * Verification and minting: a benchmark report signed in the wallet and submitted to the gateway's
 * verification service, its attestations as they arrive, then `verifyAndMintSSTB` with what it
 * escrows shown before signing.
 */
export function VerifyAndMint({ account, address }: { account: Account; address: string }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const submit = useSubmitBenchmark(wallet, deployment);
  const submitOnce = useSingleFlight(submit);
  const [form, setForm] = useState(REFERENCE);
  const [id, setId] = useState<string>();
  const verification = useVerification(id);
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [name]: e.target.value });
  const n = (name: keyof typeof form) => Number(form[name]);
  const send = (event: FormEvent) => {
    event.preventDefault();
    submitOnce(
      {
        verification_type: "attestation",
        provider_id: address,
        benchmark_results: {
          cpu_score: n("cpu_score"),
          memory_score: n("memory_score"),
          storage_score: n("storage_score"),
          network_score: n("network_score"),
        },
        metadata: {
          cpu_cores: n("cpu_cores"),
          ram_gb: n("ram_gb"),
          storage_gb: n("storage_gb"),
          network_mbps: n("network_mbps"),
        },
      },
      { onSuccess: (v) => setId(v.verification_id) },
    );
  };
  const fields: Array<[keyof typeof form, string]> = [
    ["cpu_cores", "CPU cores measured"],
    ["ram_gb", "Memory (GB)"],
    ["storage_gb", "Storage (GB)"],
    ["network_mbps", "Network (Mbit/s)"],
    ["cpu_score", "CPU score"],
    ["memory_score", "Memory score"],
    ["storage_score", "Storage score"],
    ["network_score", "Network score"],
  ];
  return (
    <section className="card" aria-labelledby="verify-title">
      <h2 id="verify-title">Verify a unit and mint sSTB</h2>
      {account.status !== "active" ? (
        <p className="state warning" role="status">
          Verification and minting open once governance has approved your profile.
        </p>
      ) : (
        <>
          <p>
            Run the benchmark on the machine, enter its figures, and sign the report in your wallet (a signature, no
            gas). The gateway's verifiers check it against your registration and sign attestations; with enough of them
            you mint the unit's value in sSTB.
          </p>
          <form onSubmit={send} className="grid">
            {fields.map(([name, label]) => (
              <label key={name}>
                {label}
                <input required type="number" min={1} value={form[name]} onChange={set(name)} />
              </label>
            ))}
            <button type="submit" className="primary" disabled={submit.isPending}>
              {submit.isPending ? "Sign the report in your wallet…" : "Sign and submit the benchmark"}
            </button>
          </form>
          {submit.isError ? <ErrorState error={submit.error} /> : null}
        </>
      )}
      {id === undefined ? null : verification.isPending ? (
        <Loading what="the verification" />
      ) : verification.isError ? (
        <ErrorState error={verification.error} retry={() => void verification.refetch()} />
      ) : (
        <VerificationView verification={verification.data} account={account} address={address} />
      )}
    </section>
  );
}

function VerificationView({
  verification: v,
  account,
  address,
}: {
  verification: NonNullable<ReturnType<typeof useVerification>["data"]>;
  account: Account;
  address: string;
}) {
  return (
    <div data-testid="verification">
      <h3>
        Verification <Badge value={v.status} />
      </h3>
      <dl className="facts">
        <dt>Unit id (cuHash)</dt>
        <dd>
          <code className="token">{v.verification_id}</code>
        </dd>
        <dt>Value</dt>
        <dd>
          <Amount value={v.cu_value} unit="sSTB" decimals={18} />
        </dd>
        <dt>Attestations</dt>
        <dd data-testid="attestations">
          {v.signatures.length} of {v.threshold ?? "?"} needed
          <ol>
            {v.signatures.map((s) => (
              <li key={s.signer}>
                signed by <Address value={s.signer} />
              </li>
            ))}
          </ol>
        </dd>
        {v.expiry === null ? null : (
          <>
            <dt>Mint by</dt>
            <dd>
              <Time unix={v.expiry} /> (the attestation's expiry, chain time)
            </dd>
          </>
        )}
        {v.rejection === null ? null : (
          <>
            <dt>Rejected</dt>
            <dd role="alert">
              {v.rejection.parameter}: {v.rejection.reason}
            </dd>
          </>
        )}
      </dl>
      {v.minted ? (
        <p className="state" role="status" data-testid="minted">
          Minted: compute unit #{v.cu_id}.
        </p>
      ) : v.status === "verified" && v.proof !== null && v.mint !== null ? (
        <MintForm proof={v.proof} value={v.cu_value} mint={v.mint} account={account} address={address} />
      ) : null}
    </div>
  );
}

function MintForm(props: {
  proof: string;
  value: number;
  mint: { collateral_amount: string; staking_period_min: number; staking_period_max: number };
  account: Account;
  address: string;
}) {
  const { proof, value, mint, account, address } = props;
  const deployment = useDeployment();
  const wallet = useWallet();
  const now = useChainNow();
  const run = useMint(wallet, deployment);
  const runOnce = useSingleFlight(run);
  const [step, setStep] = useState<TwoStep>();
  const [days, setDays] = useState(() => localStorage.getItem(stakingKey(address)) ?? "30");
  const { symbol, decimals } = account.collateralToken;
  const collateral = BigInt(mint.collateral_amount);
  const min = mint.staking_period_min / DAY;
  const max = mint.staking_period_max / DAY;
  const d = Number(days);
  const problem =
    !Number.isInteger(d) || d < min || d > max
      ? `The staking period is a whole number of days from ${min} to ${max}.`
      : collateral > account.collateralBalance
        ? `This mint brings ${formatUnitsOf(collateral, decimals, symbol)} of collateral; your wallet holds ${formatUnitsOf(account.collateralBalance, decimals, symbol)}.`
        : undefined;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (problem !== undefined) return;
        runOnce(
          { proof, collateralAmount: collateral, stakingPeriod: BigInt(d * DAY), onStep: setStep },
          { onSettled: () => setStep(undefined) },
        );
      }}
    >
      <label>
        Staking period (days, {min} to {max})
        <input type="number" min={min} max={max} value={days} onChange={(e) => setDays(e.target.value)} />
      </label>
      <dl className="facts" data-testid="mint-terms">
        <dt>You receive</dt>
        <dd>
          <Amount value={value} unit="sSTB" decimals={18} />
        </dd>
        <dt>Collateral escrowed by this mint</dt>
        <dd>
          {formatUnitsOf(collateral, decimals, symbol)} from your wallet into the registry
          {collateral === 0n ? " (your deposited collateral already covers it)" : ""}
        </dd>
        <dt>Capacity committed until</dt>
        <dd>
          {now === undefined ? `${formatDuration(d * DAY)} after the mint` : <Time unix={Math.floor(now) + d * DAY} />}
        </dd>
      </dl>
      {problem === undefined ? null : <p className="state warning">{problem}</p>}
      <button type="submit" className="primary" disabled={run.isPending || problem !== undefined}>
        {run.isPending ? "Minting…" : `Mint ${formatAmount(value, "sSTB", 18)}`}
      </button>
      <Step
        step={step}
        texts={{
          approve: "Approve the collateral for the minting agent in your wallet…",
          send: "Confirm the mint in your wallet…",
        }}
      />
      {run.isError ? <ErrorState error={run.error} /> : null}
      {run.isSuccess ? (
        <p className="state" role="status" data-testid="minted">
          Minted {formatAmount(wholeUnits(run.data.amount), "sSTB", 18)}: compute unit #{String(run.data.cuId)}.
        </p>
      ) : null}
    </form>
  );
}

/** Retiring capacity: after the staking period, burn sSTB to take capacity out; its collateral becomes withdrawable. */
export function RetireCard({ account, sstbBalance }: { account: Account; sstbBalance: bigint | undefined }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const now = useChainNow();
  const retire = useRetire(wallet, deployment);
  const retireOnce = useSingleFlight(retire);
  const [text, setText] = useState("");
  const [step, setStep] = useState<TwoStep>();
  const amount = parseAmount(text, "sSTB");
  const staking = now === undefined || Number(account.stakedUntil) > now;
  const problem =
    text.trim() === ""
      ? undefined
      : !amount.ok
        ? amount.reason
        : staking
          ? "Your capacity is still staked: retire it once the staking period has ended."
          : amount.value > account.availableCapacity
            ? `At most ${formatAmount(wholeUnits(account.availableCapacity), "sSTB", 18)} of capacity is available (the rest is redeemed).`
            : sstbBalance !== undefined && amount.value > sstbBalance
              ? `Retiring burns the sSTB: your wallet holds ${formatAmount(wholeUnits(sstbBalance), "sSTB", 18)}.`
              : undefined;
  return (
    <section className="card" aria-labelledby="retire-title">
      <h2 id="retire-title">Retire capacity</h2>
      <p>
        Available capacity <Amount value={wholeUnits(account.availableCapacity)} unit="sSTB" decimals={18} /> of{" "}
        <Amount value={wholeUnits(account.totalCapacity)} unit="sSTB" decimals={18} />;{" "}
        {Number(account.stakedUntil) === 0 ? (
          "nothing staked yet."
        ) : (
          <>
            staked until <Time unix={Number(account.stakedUntil)} />.
          </>
        )}
      </p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (problem !== undefined || !amount.ok) return;
          retireOnce(
            { amount: amount.value, onStep: setStep },
            { onSettled: () => setStep(undefined), onSuccess: () => setText("") },
          );
        }}
      >
        <label>
          Retire (sSTB)
          <input
            inputMode="decimal"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-describedby="retire-help"
          />
        </label>
        <p id="retire-help" className={problem === undefined ? "muted" : "state warning"}>
          {problem ??
            "The sSTB is burned and the collateral behind it becomes withdrawable. Your wallet asks you to approve the burn, then to confirm."}
        </p>
        <button type="submit" disabled={retire.isPending || problem !== undefined || text.trim() === ""}>
          {retire.isPending ? "Retiring…" : "Retire"}
        </button>
        <Step
          step={step}
          texts={{ approve: "Approve the burn in your wallet…", send: "Confirm the retirement in your wallet…" }}
        />
      </form>
      {retire.isError ? <ErrorState error={retire.error} /> : null}
      {retire.isSuccess ? (
        <p className="state" role="status">
          Retired.
        </p>
      ) : null}
    </section>
  );
}
