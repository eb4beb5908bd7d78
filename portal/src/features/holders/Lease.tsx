import { formatEther } from "ethers";
import { useState } from "react";
import { Link } from "react-router";

import type { RenewalOffer } from "@compute-capacity/sdk";

import { Amount } from "../../components/Amount";
import { Badge, ErrorState, Loading } from "../../components/States";
import { Countdown, Time } from "../../components/Time";
import { canReadChain, useLease } from "../../lib/chain";
import type { LeaseView } from "../../lib/chain";
import { useDeployment } from "../../lib/deployment";
import { formatDuration } from "../../lib/format";
import { useSingleFlight } from "../../lib/mutations";
import { useWallet } from "../../lib/wallet";
import { STEP_TEXT, useAcceptRenewal, useTerminate } from "./api";
import type { RedeemStep } from "./api";

const sstb = (wei: bigint) => Number(formatEther(wei));

/**
 * The lease of a fulfilled redemption, read from the chain (issue 19): status, start, end and time
 * left by the chain's clock; the provider's renewal offer with Accept (bound to the terms shown);
 * Terminate after a confirmation step. Only the lease's holder sees the two actions (the contract
 * refuses anyone else with `RedemptionUnauthorized` anyway).
 */
export function LeaseCard({ redemptionId, fulfilledAt }: { redemptionId: number; fulfilledAt: number | null }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const view = useLease(wallet, deployment, redemptionId);
  // the acknowledgement outlives the offer it answers (the offer is gone once accepted)
  const [renewed, setRenewed] = useState<Renewed>();
  return (
    <section className="card" aria-labelledby="lease-title" data-testid="lease">
      <h2 id="lease-title">Lease</h2>
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
          <LeaseFacts view={view.data} fulfilledAt={fulfilledAt} onRenewed={setRenewed} />
        </>
      )}
      {renewed === undefined ? null : <RenewedNote renewed={renewed} />}
    </section>
  );
}

/** An accepted renewal: what it cost and which redemption it is. */
interface Renewed {
  price: bigint;
  fee: bigint;
  end: bigint;
  renewalId: bigint;
}

function RenewedNote({ renewed }: { renewed: Renewed }) {
  return (
    <p className="state" role="status" data-testid="renewed">
      Renewed. You paid <Amount value={sstb(renewed.price + renewed.fee)} unit="sSTB" decimals={18} /> (
      <Amount value={sstb(renewed.price)} unit="sSTB" decimals={18} /> plus the{" "}
      <Amount value={sstb(renewed.fee)} unit="sSTB" decimals={18} /> fee); the lease now ends{" "}
      <Time unix={Number(renewed.end)} />; the renewal is redemption{" "}
      <Link to={`/holders/redemptions/${String(renewed.renewalId)}`}>#{String(renewed.renewalId)}</Link> (confirm or
      dispute it like any other).
    </p>
  );
}

function LeaseFacts({
  view,
  fulfilledAt,
  onRenewed,
}: {
  view: LeaseView;
  fulfilledAt: number | null;
  onRenewed: (renewed: Renewed) => void;
}) {
  const wallet = useWallet();
  const { lease, leaseId, chainNow } = view;
  if (leaseId === null) {
    return <p className="state empty">No lease yet: it starts when the provider fulfils.</p>;
  }
  if (lease === null) return <p className="state empty">Redemption #{String(leaseId)} is not a lease.</p>;
  const mine = wallet.account?.toLowerCase() === lease.user.toLowerCase();
  const end = lease.end === null ? null : Number(lease.end);
  return (
    <>
      {view.renewal ? (
        <p>
          This redemption renews <Link to={`/holders/redemptions/${String(leaseId)}`}>lease #{String(leaseId)}</Link>.
        </p>
      ) : null}
      <dl className="facts" data-testid="lease-facts">
        <dt>Status</dt>
        <dd data-testid="lease-status">
          <Badge value={lease.status} />
        </dd>
        {view.renewal ? null : (
          <>
            <dt>Started</dt>
            <dd>
              <Time unix={fulfilledAt} />
            </dd>
          </>
        )}
        <dt>Ends</dt>
        <dd data-testid="lease-end-chain">
          {end === null ? "no stated end (runs until you terminate it)" : <Time unix={end} />}
        </dd>
        {end !== null && lease.status === "active" ? (
          <>
            <dt>Time left</dt>
            <dd>
              <Countdown unix={end} testId="lease-time-left" passed="ended" />
            </dd>
          </>
        ) : null}
        {lease.openDisputes > 0n ? (
          <>
            <dt>Under dispute</dt>
            <dd>{String(lease.openDisputes)} redemption(s): no renewal until settled</dd>
          </>
        ) : null}
      </dl>
      {lease.status === "terminated" ? (
        <p className="state" role="status">
          You terminated this lease: the provider reclaims the resources. You can still confirm or dispute its
          redemptions within their windows.
        </p>
      ) : null}
      {lease.offer !== null && lease.status === "active" ? (
        <RenewalOfferView
          leaseId={leaseId}
          offer={lease.offer}
          end={end}
          chainNow={chainNow}
          mine={mine}
          disputed={lease.openDisputes > 0n}
          onRenewed={onRenewed}
        />
      ) : lease.status === "active" && end !== null ? (
        <p className="muted" data-testid="no-offer">
          No renewal offer from the provider.
        </p>
      ) : null}
      {lease.status === "active" && mine ? <Terminate leaseId={leaseId} /> : null}
      {lease.status === "active" && !mine ? (
        <p className="muted" data-testid="not-holder">
          Only the lease's holder can renew or terminate it.
        </p>
      ) : null}
    </>
  );
}

function RenewalOfferView(props: {
  leaseId: bigint;
  offer: RenewalOffer;
  end: number | null;
  chainNow: number;
  mine: boolean;
  disputed: boolean;
  onRenewed: (renewed: Renewed) => void;
}) {
  const { leaseId, offer, end, chainNow, mine, disputed, onRenewed } = props;
  const deployment = useDeployment();
  const wallet = useWallet();
  const accept = useAcceptRenewal(wallet, deployment);
  const acceptOnce = useSingleFlight(accept);
  const [step, setStep] = useState<RedeemStep>();
  const lapsed = chainNow > Number(offer.validUntil);
  return (
    <div className="offer" data-testid="renewal-offer">
      <h3>Renewal offer</h3>
      <dl className="facts">
        <dt>Price</dt>
        <dd>
          <Amount value={sstb(offer.price)} unit="sSTB" decimals={18} /> plus the redemption fee
        </dd>
        <dt>Extension</dt>
        <dd>{formatDuration(Number(offer.extension))}</dd>
        <dt>New end</dt>
        <dd>{end === null ? "—" : <Time unix={end + Number(offer.extension)} />}</dd>
        <dt>Valid until</dt>
        <dd>
          <Time unix={Number(offer.validUntil)} /> {lapsed ? "(lapsed)" : null}
        </dd>
      </dl>
      {mine ? (
        <button
          type="button"
          className="primary"
          disabled={accept.isPending || lapsed || disputed}
          onClick={() =>
            acceptOnce(
              { leaseId, price: offer.price, extension: offer.extension, onStep: setStep },
              {
                onSuccess: (r) => onRenewed({ price: offer.price, fee: r.fee, end: r.end, renewalId: r.renewalId }),
                onSettled: () => setStep(undefined),
              },
            )
          }
        >
          {accept.isPending ? "Renewing…" : "Accept the renewal"}
        </button>
      ) : null}
      {step === undefined ? null : (
        <p className="state" role="status">
          {STEP_TEXT[step]}
        </p>
      )}
      {accept.isError ? <ErrorState error={accept.error} /> : null}
    </div>
  );
}

function Terminate({ leaseId }: { leaseId: bigint }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const terminate = useTerminate(wallet, deployment);
  const terminateOnce = useSingleFlight(terminate);
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <p>
        <button type="button" className="danger" onClick={() => setAsking(true)}>
          Terminate the lease…
        </button>
      </p>
    );
  }
  return (
    <div className="state warning" role="group" aria-labelledby="terminate-question">
      <p id="terminate-question">
        <strong>Terminate lease #{String(leaseId)} now?</strong> The provider reclaims the resources and there is no
        refund. Redemptions of this lease keep their state: you can still confirm, or dispute within the window.
      </p>
      <button
        type="button"
        className="danger"
        disabled={terminate.isPending}
        onClick={() => terminateOnce(leaseId, { onSuccess: () => setAsking(false) })}
      >
        {terminate.isPending ? "Confirm in your wallet…" : "Yes, terminate the lease"}
      </button>{" "}
      <button type="button" disabled={terminate.isPending} onClick={() => setAsking(false)}>
        Keep the lease
      </button>
      {terminate.isError ? <ErrorState error={terminate.error} /> : null}
    </div>
  );
}
