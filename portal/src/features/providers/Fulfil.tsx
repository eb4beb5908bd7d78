import { useEffect, useRef, useState } from "react";
import type { FormEvent } from "react";
import { Link } from "react-router";

import { Address } from "../../components/Address";
import { Amount } from "../../components/Amount";
import { EvidenceView } from "../../components/Evidence";
import { Badge, ErrorState, Loading } from "../../components/States";
import { Countdown, Time } from "../../components/Time";
import { canReadChain, useChainAccessKey, useChainNow } from "../../lib/chain";
import { useDeployment } from "../../lib/deployment";
import { useWallet } from "../../lib/wallet";
import { ProviderLease } from "./Lease";
import { useEvidence, useFulfil, useIncoming } from "./api";
import type { Incoming } from "./api";
import { useSingleFlight } from "../../lib/mutations";

/** One incoming redemption: its terms, the fulfilment form (encrypted in the page), the dispute evidence. */
export function Fulfil({ id }: { id: number }) {
  const incoming = useIncoming();
  if (incoming.isPending) return <Loading what={`redemption #${id}`} />;
  // a failed refresh keeps what was shown (with the failure above it); only a first load that failed has nothing
  if (incoming.data === undefined) return <ErrorState error={incoming.error} retry={() => void incoming.refetch()} />;
  const r = incoming.data.find((x) => Number(x.redemption_id) === id);
  if (r === undefined) {
    return (
      <p className="state empty" role="status">
        Redemption #{id} is not one of yours (or not indexed yet).
      </p>
    );
  }
  return (
    <>
      <p>
        <Link to="/providers">← Provider console</Link>
      </p>
      {incoming.isError ? <ErrorState error={incoming.error} retry={() => void incoming.refetch()} /> : null}
      <h1>
        Redemption #{r.redemption_id} <Badge value={r.status} />
      </h1>
      <section className="card" aria-labelledby="incoming-terms">
        <h2 id="incoming-terms">Request</h2>
        <dl className="facts">
          <dt>Holder</dt>
          <dd>
            <Address value={r.user} />
          </dd>
          <dt>Amount</dt>
          <dd>
            <Amount value={r.sstb_amount} unit="sSTB" decimals={18} />
          </dd>
          <dt>Deadline</dt>
          <dd>
            <Time unix={r.estimated_fulfillment_time} />{" "}
            {r.status === "pending" ? <Countdown unix={r.estimated_fulfillment_time} /> : null}
          </dd>
          <dt>Holder's access key (on-chain)</dt>
          <dd data-testid="holder-key">
            <HolderKey user={r.user} />
          </dd>
        </dl>
      </section>
      {r.fulfilled_at === null ? (
        <FulfilForm redemption={r} />
      ) : (
        <>
          <p className="state" role="status">
            Fulfilled on <Time unix={r.fulfilled_at} />: the holder opens the details with their key.
          </p>
          <ProviderLease redemptionId={id} />
        </>
      )}
      {r.status === "disputed" || r.status === "resolved" ? <Evidence id={id} /> : null}
    </>
  );
}

/** A Unix time as a `datetime-local` value in the reader's time zone. */
const localInput = (unix: number) => {
  const d = new Date(unix * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const LEASE_DAYS = 30;

/** The holder's key as the chain has it (what the SDK encrypts to): registered, none, or not readable yet. */
function HolderKey({ user }: { user: string }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const key = useChainAccessKey(wallet, deployment, user);
  if (!canReadChain(wallet)) return <span className="muted">connect your wallet to read it from the chain</span>;
  if (key.isPending) return <Loading what="the holder's key" />;
  if (key.isError) return <ErrorState error={key.error} retry={() => void key.refetch()} />;
  return key.data === null ? <>not registered</> : <code className="token">{key.data}</code>;
}

function FulfilForm({ redemption }: { redemption: Incoming }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const fulfil = useFulfil(wallet, deployment);
  const fulfilOnce = useSingleFlight(fulfil);
  const key = useChainAccessKey(wallet, deployment, redemption.user);
  const chainNow = useChainNow();
  const [form, setForm] = useState({
    hostname: "",
    port: "22",
    username: "",
    ssh_key: "",
    expiration: "",
    cpu_cores: "8",
    memory_gb: "32",
    storage_gb: "512",
    bandwidth_mbps: "1000",
    documentation_url: "https://",
  });
  // the default lease end: 30 days of the chain's time (the contract checks the end against block time)
  const chainNowSet = chainNow !== undefined;
  const chainNowRef = useRef(chainNow);
  chainNowRef.current = chainNow;
  useEffect(() => {
    const now = chainNowRef.current;
    if (now !== undefined) {
      setForm((f) =>
        f.expiration === "" ? { ...f, expiration: localInput(Math.floor(now) + LEASE_DAYS * 86_400) } : f,
      );
    }
  }, [chainNowSet]);
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [name]: e.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    fulfilOnce({
      redemptionId: BigInt(redemption.redemption_id),
      leaseEnd: BigInt(Math.floor(new Date(form.expiration).getTime() / 1000)),
      details: {
        redemption_id: redemption.redemption_id,
        access_type: "ssh",
        hostname: form.hostname,
        port: Number(form.port),
        username: form.username,
        ssh_key: form.ssh_key,
        resources: {
          cpu_cores: Number(form.cpu_cores),
          memory_gb: Number(form.memory_gb),
          storage_gb: Number(form.storage_gb),
          bandwidth_mbps: Number(form.bandwidth_mbps),
        },
        documentation_url: form.documentation_url,
      },
    });
  };
  if (!canReadChain(wallet)) {
    return (
      <p className="state warning" role="status">
        Connect your wallet on {deployment.chain.label} to fulfil: the holder's key and the lease end are read from the
        chain.
      </p>
    );
  }
  if (key.isPending) return <Loading what="the holder's access key" />;
  if (key.isError) return <ErrorState error={key.error} retry={() => void key.refetch()} />;
  if (key.data === null) {
    return (
      <p className="state warning" role="status" data-testid="no-holder-key">
        The holder has not registered an access key on-chain: the details cannot be encrypted to them, so this
        redemption cannot be fulfilled yet. Ask them to set it up on their holder page (it is a one-time transaction).
      </p>
    );
  }
  return (
    <section className="card" aria-labelledby="fulfil-title">
      <h2 id="fulfil-title">Fulfil</h2>
      <p>
        The details are encrypted in this page to the holder's key registered on-chain; only the envelope goes on-chain,
        with the lease end.
      </p>
      <form onSubmit={submit} className="grid">
        <label>
          Host name
          <input required value={form.hostname} onChange={set("hostname")} />
        </label>
        <label>
          Port
          <input required type="number" min={1} max={65535} value={form.port} onChange={set("port")} />
        </label>
        <label>
          User name
          <input required value={form.username} onChange={set("username")} />
        </label>
        <label className="wide">
          SSH public key (the holder's login key)
          <textarea required value={form.ssh_key} onChange={set("ssh_key")} />
        </label>
        <label>
          Lease end (your time zone; the manager's maximum term, 365 days by default)
          <input required type="datetime-local" value={form.expiration} onChange={set("expiration")} />
        </label>
        <label>
          CPU cores
          <input required type="number" min={1} value={form.cpu_cores} onChange={set("cpu_cores")} />
        </label>
        <label>
          Memory (GB)
          <input required type="number" min={1} value={form.memory_gb} onChange={set("memory_gb")} />
        </label>
        <label>
          Storage (GB)
          <input required type="number" min={1} value={form.storage_gb} onChange={set("storage_gb")} />
        </label>
        <label>
          Bandwidth (Mbit/s)
          <input required type="number" min={1} value={form.bandwidth_mbps} onChange={set("bandwidth_mbps")} />
        </label>
        <label className="wide">
          Documentation URL
          <input required type="url" value={form.documentation_url} onChange={set("documentation_url")} />
        </label>
        <button type="submit" className="primary" disabled={fulfil.isPending}>
          {fulfil.isPending ? "Confirm in your wallet…" : "Encrypt and fulfil"}
        </button>
      </form>
      {fulfil.isError ? <ErrorState error={fulfil.error} /> : null}
      {fulfil.isSuccess ? (
        <p className="state" role="status">
          Fulfilled.
        </p>
      ) : null}
    </section>
  );
}

function Evidence({ id }: { id: number }) {
  const evidence = useEvidence(id, true);
  return (
    <section className="card" aria-labelledby="provider-evidence-title">
      <h2 id="provider-evidence-title">Dispute evidence</h2>
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
