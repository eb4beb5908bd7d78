import { useDeferredValue, useState } from "react";
import type { FormEvent } from "react";
import { Link, useNavigate } from "react-router";

import { Address } from "../../components/Address";
import { Amount } from "../../components/Amount";
import { RedemptionStats } from "../../components/RedemptionStats";
import { Badge, ErrorState, Loading } from "../../components/States";
import { Time } from "../../components/Time";
import { useChainAccessKey } from "../../lib/chain";
import { parseAmount } from "../../lib/amount";
import { useDeployment } from "../../lib/deployment";
import { formatAmount, formatDuration } from "../../lib/format";
import { useSingleFlight } from "../../lib/mutations";
import { useWallet } from "../../lib/wallet";
import { AccessKeySetup } from "./Holder";
import { STEP_TEXT, useBalance, useProvider, useQuote, useRedeem, useRedemptionAllowance } from "./api";
import type { Balance, Quote, RedeemStep } from "./api";

/** A provider's page: profile, hardware, statistics, and the redemption form. */
export function ProviderPage({ id }: { id: string }) {
  const provider = useProvider(id);
  if (provider.isPending) return <Loading what="the provider" />;
  if (provider.isError) return <ErrorState error={provider.error} retry={() => void provider.refetch()} />;
  const p = provider.data;
  return (
    <>
      <p>
        <Link to="/holders/providers">← All providers</Link>
      </p>
      <h1>
        {p.name} <Badge value={p.status} />
      </h1>
      <section className="card" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <dl className="facts">
          <dt>Address</dt>
          <dd>
            <Address value={p.provider_id} />
          </dd>
          <dt>Reputation</dt>
          <dd>{p.reputation_score.toFixed(2)} / 100</dd>
          <dt>Location</dt>
          <dd>
            {p.location.country} · {p.location.region}
          </dd>
          <dt>Registered</dt>
          <dd>
            <Time unix={p.registration_date} />
          </dd>
          <dt>Hardware</dt>
          <dd>
            {p.hardware_specifications.cpu_type}: {p.hardware_specifications.total_cpu_cores} cores,{" "}
            {p.hardware_specifications.total_ram_gb} GB RAM, {p.hardware_specifications.total_storage_gb} GB storage,{" "}
            {p.hardware_specifications.network_capacity_mbps} Mbit/s
          </dd>
          <dt>Capacity</dt>
          <dd>
            <Amount value={p.available_cu_value} unit="sSTB" decimals={18} /> available of{" "}
            <Amount value={p.total_cu_value} unit="sSTB" decimals={18} />
          </dd>
          <dt>Redemptions</dt>
          <dd>
            <RedemptionStats
              successful={p.statistics.successful_redemptions}
              total={p.statistics.total_redemptions}
              averageMinutes={p.statistics.average_response_time}
            />
          </dd>
          <dt>Contact</dt>
          <dd>
            {p.contact_info.email} · {p.contact_info.website}
          </dd>
        </dl>
      </section>
      <RedeemForm provider={p.provider_id} />
    </>
  );
}

function RedeemForm({ provider }: { provider: string }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const navigate = useNavigate();
  const accessKey = useChainAccessKey(wallet, deployment, wallet.account);
  const [amount, setAmount] = useState("1");
  const deferred = useDeferredValue(amount);
  const typed = parseAmount(amount, "sSTB");
  const asked = parseAmount(deferred, "sSTB");
  // nothing is quoted, let alone signed, for an amount the form cannot take
  const quote = useQuote(asked.ok ? Number(deferred) : Number.NaN, provider);
  const balance = useBalance();
  const allowance = useRedemptionAllowance(wallet, deployment);
  const redeem = useRedeem(wallet, deployment);
  const redeemOnce = useSingleFlight(redeem);
  const [step, setStep] = useState<RedeemStep>();
  const check = redeemCheck({
    typed,
    quote: asked.ok && deferred === amount ? quote.data : undefined,
    balance: balance.data,
    chainId: deployment.chain.chain_id,
    chainLabel: deployment.chain.label,
    allowance: allowance.data,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (check.problem !== undefined || check.total === undefined) return;
    redeemOnce(
      { amount, provider, onStep: setStep },
      { onSuccess: (id) => void navigate(`/holders/redemptions/${id}`), onSettled: () => setStep(undefined) },
    );
  };
  const noKey = accessKey.data === null;
  return (
    <section className="card" aria-labelledby="redeem-title">
      <h2 id="redeem-title">Redeem sSTB with this provider</h2>
      {noKey ? <AccessKeySetup /> : null}
      <form onSubmit={submit} noValidate>
        <label>
          Amount (sSTB)
          <input
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={check.problem !== undefined}
            aria-describedby="redeem-check quote"
          />
        </label>
        <div id="redeem-check" aria-live="polite">
          {check.problem === undefined ? null : (
            <p className="state warning" data-testid="redeem-problem">
              {check.problem}
            </p>
          )}
          {check.problem === undefined && check.steps !== undefined ? <p className="muted">{check.steps}</p> : null}
        </div>
        <div id="quote" aria-live="polite">
          {!typed.ok ? null : quote.isPending && quote.fetchStatus !== "idle" ? (
            <Loading what="the quote" />
          ) : quote.isError ? (
            <ErrorState error={quote.error} />
          ) : quote.data && check.refused === false ? (
            <QuoteFacts quote={quote.data} />
          ) : null}
        </div>
        <button
          type="submit"
          className="primary"
          disabled={redeem.isPending || noKey || check.problem !== undefined || check.total === undefined}
        >
          {redeem.isPending ? "Redeeming…" : "Redeem"}
        </button>
        {step === undefined ? null : (
          <p className="state" role="status">
            {STEP_TEXT[step]}
          </p>
        )}
      </form>
      {redeem.isError ? <ErrorState error={redeem.error} /> : null}
    </section>
  );
}

/**
 * What the page checks before anything is signed, in words: the amount as typed, the provider's
 * capacity and the manager's refusal (from the quote), the holder's balance on this chain against
 * amount plus fee; and what the wallet will be asked (a permit unless the allowance covers it).
 */
function redeemCheck(input: {
  typed: ReturnType<typeof parseAmount>;
  quote: Quote | undefined;
  balance: Balance | undefined;
  chainId: number;
  chainLabel: string;
  allowance: bigint | undefined;
}): { problem?: string; refused: boolean; total?: bigint; steps?: string } {
  const { typed, quote, balance } = input;
  if (!typed.ok) return { problem: typed.reason, refused: true };
  if (quote === undefined) return { refused: false };
  const total = BigInt(quote.total_base_units);
  const totalText = formatAmount(quote.total, "sSTB", 18);
  if (quote.provider_available_cu_value < quote.sstb_amount) {
    return {
      problem: `This provider has ${formatAmount(quote.provider_available_cu_value, "sSTB", 18)} of capacity available now: redeem at most that.`,
      refused: true,
    };
  }
  if (quote.sstb_amount < quote.minimum) {
    return { problem: `The smallest redemption is ${formatAmount(quote.minimum, "sSTB", 18)}.`, refused: true };
  }
  if (quote.refusal !== null) return { problem: `Not possible now: ${quote.refusal}`, refused: true };
  if (balance === undefined) return { refused: false };
  const row = balance.balances.find((b) => b.native_chain_id === input.chainId);
  const held = BigInt(row?.sstb_balance_base_units ?? "0");
  if (held < total) {
    return {
      problem: `Your balance on ${input.chainLabel} is ${formatAmount(row?.sstb_balance ?? 0, "sSTB", 18)}: less than the ${totalText} this redemption takes (amount plus fee).`,
      refused: false,
    };
  }
  const steps =
    input.allowance === undefined
      ? undefined
      : input.allowance >= total
        ? `Your allowance already covers ${totalText}: you confirm one transaction, the redemption.`
        : `Your wallet asks you to sign a permit for ${totalText} (a signature, no gas), then to confirm the redemption.`;
  return { refused: false, total, steps };
}

/** What the holder signs up to: the fee, the deadline, the collateral behind it and what comes back if the provider fails. */
function QuoteFacts({ quote }: { quote: Quote }) {
  const symbol = quote.collateral_token.symbol;
  const during = quote.compensation.applies_now === "during_stake";
  return (
    <dl className="facts quote" data-testid="quote">
      <dt>Redemption fee</dt>
      <dd>
        <Amount value={quote.fee} unit="sSTB" decimals={18} /> (you approve{" "}
        <Amount value={quote.total} unit="sSTB" decimals={18} />)
      </dd>
      <dt>Deadline</dt>
      <dd>
        {formatDuration(quote.fulfilment_seconds)} ({quote.tier} tier): by <Time unix={quote.deadline} />
      </dd>
      <dt>Collateral locked for you</dt>
      <dd>
        <Amount value={quote.collateral_locked} unit={symbol} decimals={quote.collateral_token.decimals} /> (
        {quote.collateral_ratio_bps / 100}% of the value)
      </dd>
      <dt>If the provider fails</dt>
      <dd data-testid="compensation">
        {during ? (
          <>
            While the provider's stake runs (until <Time unix={quote.compensation.provider_staked_until} />) an expired
            redemption pays you its value,{" "}
            <Amount
              value={quote.compensation.if_expired_during_stake}
              unit={symbol}
              decimals={quote.collateral_token.decimals}
            />
            ; after it, the whole lock (
            <Amount
              value={quote.compensation.if_expired_after_stake}
              unit={symbol}
              decimals={quote.collateral_token.decimals}
            />
            ).
          </>
        ) : (
          <>
            An expired redemption pays you the whole lock,{" "}
            <Amount
              value={quote.compensation.if_expired_after_stake}
              unit={symbol}
              decimals={quote.collateral_token.decimals}
            />
            .
          </>
        )}{" "}
        A dispute you win pays the whole lock (
        <Amount value={quote.compensation.if_dispute_won} unit={symbol} decimals={quote.collateral_token.decimals} />
        ).
      </dd>
    </dl>
  );
}
