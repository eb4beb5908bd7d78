import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { FormEvent } from "react";
import { Link } from "react-router";

import type { AccessDetails } from "@compute-capacity/sdk";

import { Address } from "../../components/Address";
import { Amount } from "../../components/Amount";
import { Badge, ErrorState, Loading } from "../../components/States";
import { EvidenceView } from "../../components/Evidence";
import { Countdown, Time } from "../../components/Time";
import { api, unwrap } from "../../lib/api-client";
import { useChainNow } from "../../lib/chain";
import { useDeployment } from "../../lib/deployment";
import { useSession } from "../../lib/session";
import { useWallet } from "../../lib/wallet";
import { LeaseCard } from "./Lease";
import { openEnvelope, useDeriveKey, useDerivedKey } from "./access-key";
import { MAX_EVIDENCE_BYTES, readEvidenceFile, useConfirm, useDispute, useEvidence, useRedemption } from "./api";
import type { IssueType, Redemption } from "./api";
import { useSingleFlight } from "../../lib/mutations";

const DISPUTE_WINDOW = 72 * 3_600;

/** One of the holder's redemptions: status and deadline, the access details, confirm, dispute. */
export function RedemptionPage({ id }: { id: number }) {
  const redemption = useRedemption(id);
  const session = useSession();
  const chainNow = useChainNow();
  if (redemption.isPending) return <Loading what={`redemption #${id}`} />;
  if (redemption.data === undefined) {
    return <ErrorState error={redemption.error} retry={() => void redemption.refetch()} />;
  }
  const r = redemption.data;
  // only the holder may confirm, dispute or open the details (the contract and the gateway refuse anyone else)
  const holder = session.data?.address.toLowerCase() === r.user.toLowerCase();
  const unsettled = r.status === "pending" || r.status === "fulfilled";
  return (
    <>
      <p>
        <Link to="/holders">← My redemptions</Link>
      </p>
      <h1>
        Redemption #{r.redemption_id} <Badge value={r.status} />
      </h1>
      {redemption.isError ? <ErrorState error={redemption.error} retry={() => void redemption.refetch()} /> : null}
      <section className="card" aria-labelledby="terms-title">
        <h2 id="terms-title">Terms</h2>
        <dl className="facts">
          <dt>Amount</dt>
          <dd>
            <Amount value={r.sstb_amount} unit="sSTB" decimals={18} />
          </dd>
          <dt>Provider</dt>
          <dd>
            <Address value={r.provider_id} />
          </dd>
          <dt>Requested</dt>
          <dd>
            <Time unix={r.initiated_at} />
          </dd>
          <dt>Deadline</dt>
          <dd>
            <Time unix={r.estimated_fulfillment_time} />{" "}
            {r.status === "pending" ? <Countdown unix={r.estimated_fulfillment_time} /> : null}
          </dd>
          <dt>Fulfilled</dt>
          <dd>
            <Time unix={r.fulfilled_at} />
          </dd>
          <dt>Completed</dt>
          <dd>
            <Time unix={r.completed_at} />
          </dd>
        </dl>
      </section>
      {r.fulfilled_at === null ? null : <LeaseCard redemptionId={id} fulfilledAt={r.fulfilled_at} />}
      {r.fulfilled_at === null || !holder ? null : <AccessDetailsCard redemption={r} />}
      {holder && r.status === "fulfilled" ? <ConfirmCard id={id} /> : null}
      {holder && unsettled && chainNow === undefined ? (
        <p className="state warning" role="status">
          Connect your wallet on the deployment's chain to see whether the dispute window is open (it is counted by the
          chain's clock).
        </p>
      ) : null}
      {holder && chainNow !== undefined && canDispute(r, chainNow) ? <DisputeCard id={id} /> : null}
      {!holder && unsettled ? (
        <p className="state" role="note" data-testid="not-holder-redemption">
          Only the redemption's holder can confirm or dispute it (or open its access details): you are signed in as
          another address.
        </p>
      ) : null}
      {r.status === "disputed" || r.status === "resolved" ? <EvidenceCard id={id} /> : null}
    </>
  );
}

/** The holder may dispute a fulfilled redemption, or a pending one past its deadline, within 72 h (chain time). */
function canDispute(r: Redemption, now: number): boolean {
  if (r.status === "fulfilled") return now <= (r.fulfilled_at ?? 0) + DISPUTE_WINDOW;
  if (r.status === "pending") return now > r.estimated_fulfillment_time && now <= r.initiated_at + DISPUTE_WINDOW;
  return false;
}

function AccessDetailsCard({ redemption }: { redemption: Redemption }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const keys = useDerivedKey(wallet.account);
  const derive = useDeriveKey(wallet, deployment);
  const [details, setDetails] = useState<AccessDetails>();
  const id = Number(redemption.redemption_id);
  const open = useMutation({
    mutationFn: async () => {
      const { envelope } = unwrap(
        await api.GET("/api/v1/redemptions/{redemptionId}/access-details", { params: { path: { redemptionId: id } } }),
      );
      return openEnvelope(envelope, keys ?? (await derive()), deployment, id);
    },
    onSuccess: setDetails,
  });
  const openOnce = useSingleFlight(open);
  return (
    <section className="card" aria-labelledby="access-title">
      <h2 id="access-title">Access details</h2>
      {details === undefined ? (
        <>
          <p>The provider's details are encrypted to your access key; they are opened here, in this page.</p>
          <button type="button" className="primary" disabled={open.isPending} onClick={() => openOnce()}>
            {open.isPending ? "Opening…" : "Open the access details"}
          </button>
          {open.isError ? <ErrorState error={open.error} /> : null}
        </>
      ) : (
        <dl className="facts" data-testid="access-details">
          <dt>Access</dt>
          <dd>
            <code>
              {details.access_type} {details.username}@{details.hostname} -p {details.port}
            </code>
          </dd>
          <dt>SSH key</dt>
          <dd>
            <code className="token">{details.ssh_key}</code>
          </dd>
          <dt>Lease ends</dt>
          <dd data-testid="lease-end">
            <Time unix={Math.floor(Date.parse(details.expiration) / 1000)} />
          </dd>
          <dt>Resources</dt>
          <dd>
            {details.resources.cpu_cores} cores, {details.resources.memory_gb} GB memory, {details.resources.storage_gb}{" "}
            GB storage, {details.resources.bandwidth_mbps} Mbit/s
          </dd>
          <dt>Documentation</dt>
          <dd>
            <a href={details.documentation_url} rel="noreferrer noopener" target="_blank">
              {details.documentation_url}
            </a>
          </dd>
        </dl>
      )}
    </section>
  );
}

function ConfirmCard({ id }: { id: number }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const confirm = useConfirm(wallet, deployment, id);
  const confirmOnce = useSingleFlight(confirm);
  return (
    <section className="card" aria-labelledby="confirm-title">
      <h2 id="confirm-title">Confirm</h2>
      <p>Confirm once the access works: the provider's collateral for this redemption is released.</p>
      <button type="button" className="primary" disabled={confirm.isPending} onClick={() => confirmOnce()}>
        {confirm.isPending ? "Confirm in your wallet…" : "Confirm the redemption"}
      </button>
      {confirm.isError ? <ErrorState error={confirm.error} /> : null}
      {confirm.isSuccess ? (
        <p className="state" role="status">
          Confirmed.
        </p>
      ) : null}
    </section>
  );
}

const ISSUE_TYPES: Array<[IssueType, string]> = [
  ["not_delivered", "No usable access details arrived"],
  ["access_failure", "The access details do not work"],
  ["resource_mismatch", "The machine does not match the specification"],
  ["performance_shortfall", "Benchmarks fall clearly below the verified scores"],
  ["other", "Something else (describe it)"],
];

function DisputeCard({ id }: { id: number }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const dispute = useDispute(wallet, deployment, id);
  const disputeOnce = useSingleFlight(dispute);
  const [issueType, setIssueType] = useState<IssueType>("access_failure");
  const [description, setDescription] = useState("");
  const [file, setFile] = useState<File>();
  const [fileError, setFileError] = useState<unknown>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file === undefined) return;
    setFileError(undefined);
    readEvidenceFile(file).then((evidence) => disputeOnce({ issueType, description, evidence }), setFileError);
  };
  return (
    <section className="card" aria-labelledby="dispute-title">
      <h2 id="dispute-title">Dispute</h2>
      <form onSubmit={submit}>
        <label>
          What is wrong
          <select value={issueType} onChange={(e) => setIssueType(e.target.value as IssueType)}>
            {ISSUE_TYPES.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <label>
          Description
          <textarea required maxLength={4_000} value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <label>
          Evidence file (at most {Math.floor(MAX_EVIDENCE_BYTES / 1024)} KiB: a log, a screenshot)
          <input
            type="file"
            required
            onChange={(e) => {
              setFileError(undefined);
              setFile(e.target.files?.[0]);
            }}
          />
        </label>
        <button type="submit" className="danger" disabled={dispute.isPending || file === undefined}>
          {dispute.isPending ? "Opening the dispute…" : "Open a dispute"}
        </button>
      </form>
      {fileError === undefined ? null : <ErrorState error={fileError} />}
      {dispute.isError ? <ErrorState error={dispute.error} /> : null}
      {dispute.isSuccess ? (
        <p className="state" role="status">
          Dispute opened; evidence hash <code>{dispute.data.evidence_hash}</code>.
        </p>
      ) : null}
    </section>
  );
}

function EvidenceCard({ id }: { id: number }) {
  const evidence = useEvidence(id, true);
  return (
    <section className="card" aria-labelledby="evidence-title">
      <h2 id="evidence-title">Dispute evidence</h2>
      {evidence.isPending ? (
        <Loading what="the evidence" />
      ) : evidence.isError ? (
        <ErrorState error={evidence.error} retry={() => void evidence.refetch()} />
      ) : (
        <EvidenceView evidence={evidence.data} />
      )}
    </section>
  );
}
