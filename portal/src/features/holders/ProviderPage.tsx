import { useDeferredValue, useState } from "react";
import type { FormEvent } from "react";
import { Link, useNavigate } from "react-router";

import { Address } from "../../components/Address";
import { Amount } from "../../components/Amount";
import { Badge, ErrorState, Loading } from "../../components/States";
import { Time } from "../../components/Time";
import { useDeployment } from "../../lib/deployment";
import { formatDuration } from "../../lib/format";
import { useWallet } from "../../lib/wallet";
import { AccessKeySetup } from "./Holder";
import { useAccessKey, useProvider, useQuote, useRedeem } from "./api";
import type { Quote, RedeemStep } from "./api";

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
            {p.statistics.successful_redemptions} successful of {p.statistics.total_redemptions}, average response{" "}
            {p.statistics.average_response_time} min
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

const STEP_TEXT: Record<RedeemStep, string> = {
  permit: "Sign the permit for amount plus fee in your wallet…",
  approve: "Approve amount plus fee in your wallet…",
  initiate: "Confirm the redemption in your wallet…",
};

function RedeemForm({ provider }: { provider: string }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const navigate = useNavigate();
  const accessKey = useAccessKey();
  const [amount, setAmount] = useState("1");
  const deferred = useDeferredValue(amount);
  const quote = useQuote(Number(deferred), provider);
  const redeem = useRedeem(wallet, deployment);
  const [step, setStep] = useState<RedeemStep>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    redeem.mutate(
      { amount, provider, onStep: setStep },
      { onSuccess: (id) => void navigate(`/holders/redemptions/${id}`), onSettled: () => setStep(undefined) },
    );
  };
  const noKey = accessKey.data?.public_key === null;
  return (
    <section className="card" aria-labelledby="redeem-title">
      <h2 id="redeem-title">Redeem sSTB with this provider</h2>
      {noKey ? <AccessKeySetup /> : null}
      <form onSubmit={submit}>
        <label>
          Amount (sSTB)
          <input
            inputMode="decimal"
            required
            pattern="^[0-9]+(\.[0-9]{1,18})?$"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-describedby="quote"
          />
        </label>
        <div id="quote" aria-live="polite">
          {quote.isPending && quote.fetchStatus !== "idle" ? (
            <Loading what="the quote" />
          ) : quote.isError ? (
            <ErrorState error={quote.error} />
          ) : quote.data ? (
            <QuoteFacts quote={quote.data} />
          ) : null}
        </div>
        <button
          type="submit"
          className="primary"
          disabled={redeem.isPending || noKey || quote.data === undefined || quote.data.refusal !== null}
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
      {quote.refusal === null ? null : (
        <>
          <dt>Not possible now</dt>
          <dd role="alert">{quote.refusal}</dd>
        </>
      )}
    </dl>
  );
}
