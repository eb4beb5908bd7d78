import { formatEther, parseEther } from "ethers";
import { useState } from "react";
import type { FormEvent } from "react";

import { Amount } from "../../components/Amount";
import { Badge, ErrorState, Loading } from "../../components/States";
import { Countdown, Time } from "../../components/Time";
import { canReadChain, useLease } from "../../lib/chain";
import type { LeaseView } from "../../lib/chain";
import { useDeployment } from "../../lib/deployment";
import { formatDuration } from "../../lib/format";
import { useWallet } from "../../lib/wallet";
import { useOfferRenewal, useWithdrawOffer } from "./api";
import { useSingleFlight } from "../../lib/mutations";

/**
 * The provider's view of a lease (read from the chain): status, end and time left; a renewal offer
 * to make, replace or withdraw while the lease runs; what to reclaim once it is terminated or ended.
 */
export function ProviderLease({ redemptionId }: { redemptionId: number }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const view = useLease(wallet, deployment, redemptionId);
  return (
    <section className="card" aria-labelledby="provider-lease-title" data-testid="lease">
      <h2 id="provider-lease-title">Lease</h2>
      {!canReadChain(wallet) ? (
        <p className="state warning" role="status">
          Connect your wallet on {deployment.chain.label} to read the lease from the chain.
        </p>
      ) : view.isPending ? (
        <Loading what="the lease" />
      ) : view.data === undefined ? (
        <ErrorState error={view.error} retry={() => void view.refetch()} />
      ) : (
        <>
          {view.isError ? <ErrorState error={view.error} retry={() => void view.refetch()} /> : null}
          <ProviderLeaseFacts view={view.data} />
        </>
      )}
    </section>
  );
}

function ProviderLeaseFacts({ view }: { view: LeaseView }) {
  const wallet = useWallet();
  const { lease, leaseId, chainNow } = view;
  if (leaseId === null) return <p className="state empty">No lease: the redemption is not fulfilled.</p>;
  if (lease === null) return <p className="state empty">Redemption #{String(leaseId)} is not a lease.</p>;
  const mine = wallet.account?.toLowerCase() === lease.provider.toLowerCase();
  const end = lease.end === null ? null : Number(lease.end);
  return (
    <>
      <dl className="facts">
        <dt>Lease</dt>
        <dd>#{String(leaseId)}</dd>
        <dt>Status</dt>
        <dd data-testid="lease-status">
          <Badge value={lease.status} />
        </dd>
        <dt>Ends</dt>
        <dd data-testid="lease-end-chain">{end === null ? "no stated end" : <Time unix={end} />}</dd>
        {end !== null && lease.status === "active" ? (
          <>
            <dt>Time left</dt>
            <dd>
              <Countdown unix={end} testId="lease-time-left" passed="ended" />
            </dd>
          </>
        ) : null}
      </dl>
      {lease.status === "terminated" || lease.status === "ended" ? (
        <p className="state warning" role="status" data-testid="reclaim">
          {lease.status === "terminated" ? "The holder terminated this lease" : "This lease has ended"}: reclaim the
          resources.
        </p>
      ) : null}
      {!mine ? (
        <p className="muted" data-testid="not-provider">
          Only the lease's provider can offer a renewal.
        </p>
      ) : lease.status !== "active" ? null : end === null ? (
        <p className="muted">A lease without a stated end cannot be renewed (there is no end to move).</p>
      ) : lease.openDisputes > 0n ? (
        <p className="muted">A redemption of this lease is under dispute: no renewal until it is settled.</p>
      ) : (
        <>
          {lease.offer === null ? null : <StandingOffer leaseId={leaseId} offer={lease.offer} end={end} />}
          <OfferForm leaseId={leaseId} end={end} chainNow={chainNow} replacing={lease.offer !== null} />
        </>
      )}
    </>
  );
}

function StandingOffer(props: {
  leaseId: bigint;
  offer: { price: bigint; extension: bigint; validUntil: bigint };
  end: number;
}) {
  const { leaseId, offer, end } = props;
  const deployment = useDeployment();
  const wallet = useWallet();
  const withdraw = useWithdrawOffer(wallet, deployment);
  const withdrawOnce = useSingleFlight(withdraw);
  return (
    <div className="offer" data-testid="standing-offer">
      <h3>Standing renewal offer</h3>
      <dl className="facts">
        <dt>Price</dt>
        <dd>
          <Amount value={Number(formatEther(offer.price))} unit="sSTB" decimals={18} />
        </dd>
        <dt>Extension</dt>
        <dd>
          {formatDuration(Number(offer.extension))} (to <Time unix={end + Number(offer.extension)} />)
        </dd>
        <dt>Valid until</dt>
        <dd>
          <Time unix={Number(offer.validUntil)} />
        </dd>
      </dl>
      <button type="button" disabled={withdraw.isPending} onClick={() => withdrawOnce(leaseId)}>
        {withdraw.isPending ? "Confirm in your wallet…" : "Withdraw the offer"}
      </button>
      {withdraw.isError ? <ErrorState error={withdraw.error} /> : null}
    </div>
  );
}

const DAY = 86_400;

function OfferForm(props: { leaseId: bigint; end: number; chainNow: number; replacing: boolean }) {
  const { leaseId, end, chainNow, replacing } = props;
  const deployment = useDeployment();
  const wallet = useWallet();
  const offer = useOfferRenewal(wallet, deployment);
  const offerOnce = useSingleFlight(offer);
  const [price, setPrice] = useState("1");
  const [days, setDays] = useState("30");
  const [validDays, setValidDays] = useState("7");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // valid for the days asked, from the chain's now, never past the lease's end (the contract's bound)
    const validUntil = Math.min(end, chainNow + Math.round(Number(validDays) * DAY));
    offerOnce({
      leaseId,
      price: parseEther(price),
      extension: BigInt(Math.round(Number(days) * DAY)),
      validUntil: BigInt(validUntil),
    });
  };
  return (
    <form onSubmit={submit} aria-labelledby="offer-title">
      <h3 id="offer-title">{replacing ? "Replace the renewal offer" : "Offer a renewal"}</h3>
      <label>
        Renewal price (sSTB)
        <input
          inputMode="decimal"
          required
          pattern="^[0-9]+(\.[0-9]{1,18})?$"
          value={price}
          onChange={(e) => setPrice(e.target.value)}
        />
      </label>
      <label>
        Extension (days)
        <input required type="number" min={1} step="any" value={days} onChange={(e) => setDays(e.target.value)} />
      </label>
      <label>
        Offer valid for (days, at most until the lease ends)
        <input
          required
          type="number"
          min={0.01}
          step="any"
          value={validDays}
          onChange={(e) => setValidDays(e.target.value)}
        />
      </label>
      <button type="submit" className="primary" disabled={offer.isPending}>
        {offer.isPending ? "Confirm in your wallet…" : replacing ? "Replace the offer" : "Offer the renewal"}
      </button>
      {offer.isError ? <ErrorState error={offer.error} /> : null}
    </form>
  );
}
