import { useMutation } from "@tanstack/react-query";
import { Link } from "react-router";

import { Address } from "../../components/Address";
import { Amount } from "../../components/Amount";
import { Badge, Empty, ErrorState, Loading } from "../../components/States";
import { Countdown, Time } from "../../components/Time";
import { useDeployment } from "../../lib/deployment";
import { useWallet } from "../../lib/wallet";
import { useDeriveKey, useDerivedKey } from "./access-key";
import { useAccessKey, useBalance, useMyRedemptions, useRegisterAccessKey } from "./api";

/** The holder's page: sSTB on each chain, the access key, my redemptions. */
export function Holder() {
  return (
    <>
      <h1>Holder</h1>
      <p>
        <Link to="/holders/providers">Find a provider and redeem →</Link>
      </p>
      <Balances />
      <AccessKeySetup />
      <MyRedemptions />
    </>
  );
}

function Balances() {
  const deployment = useDeployment();
  const balance = useBalance();
  return (
    <section className="card" aria-labelledby="balance-title">
      <h2 id="balance-title">sSTB balance</h2>
      {balance.isPending ? (
        <Loading what="your balance" />
      ) : balance.isError ? (
        <ErrorState error={balance.error} retry={() => void balance.refetch()} />
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Chain</th>
              <th scope="col">Balance</th>
            </tr>
          </thead>
          <tbody>
            {deployment.chains.map((c) => {
              const row = balance.data.balances.find((b) => b.native_chain_id === c.chain_id);
              return (
                <tr key={c.chain_id}>
                  <td>
                    {c.label} <span className="muted">({c.chain_id})</span>
                  </td>
                  <td data-testid={`balance-${c.name}`}>
                    <Amount value={row?.sstb_balance ?? 0} unit="sSTB" decimals={18} />
                  </td>
                </tr>
              );
            })}
            <tr>
              <th scope="row">Total</th>
              <td data-testid="balance-total">
                <Amount value={balance.data.sstb_balance} unit="sSTB" decimals={18} />
              </td>
            </tr>
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The access key: derived from a wallet signature, its public half registered for providers to encrypt to. */
export function AccessKeySetup() {
  const deployment = useDeployment();
  const wallet = useWallet();
  const registered = useAccessKey();
  const keys = useDerivedKey(wallet.account);
  const derive = useDeriveKey(wallet, deployment);
  const register = useRegisterAccessKey();
  const setUp = useMutation({
    mutationFn: async () => {
      const pair = keys ?? (await derive());
      if (registered.data?.public_key !== pair.publicKey) await register.mutateAsync(pair.publicKey);
      return pair;
    },
  });
  const matches = keys !== undefined && registered.data?.public_key === keys.publicKey;
  return (
    <section className="card" aria-labelledby="access-key-title">
      <h2 id="access-key-title">Access key</h2>
      <p>
        Providers encrypt your access details to a key your wallet derives by signing a message for this site. The key
        stays in this page: nothing secret is stored or sent.
      </p>
      {registered.isPending ? (
        <Loading what="your access key" />
      ) : registered.isError ? (
        <ErrorState error={registered.error} retry={() => void registered.refetch()} />
      ) : registered.data.public_key === null ? (
        <p data-testid="access-key-status">No access key registered yet: providers cannot send you access details.</p>
      ) : (
        <p data-testid="access-key-status">
          Registered <Time unix={registered.data.updated_at} />:{" "}
          <code className="token">{registered.data.public_key}</code>
          {keys === undefined
            ? " (not unlocked in this page)"
            : matches
              ? " (unlocked in this page)"
              : " (differs from this wallet's)"}
        </p>
      )}
      <button type="button" className="primary" disabled={setUp.isPending || matches} onClick={() => setUp.mutate()}>
        {setUp.isPending ? "Waiting for your wallet…" : matches ? "Access key ready" : "Set up my access key"}
      </button>
      {setUp.isError ? <ErrorState error={setUp.error} /> : null}
    </section>
  );
}

function MyRedemptions() {
  const list = useMyRedemptions();
  return (
    <section className="card" aria-labelledby="my-redemptions-title">
      <h2 id="my-redemptions-title">My redemptions</h2>
      {list.isPending ? (
        <Loading what="your redemptions" />
      ) : list.isError ? (
        <ErrorState error={list.error} retry={() => void list.refetch()} />
      ) : list.data.redemptions.length === 0 ? (
        <Empty>No redemptions yet.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Amount</th>
                <th scope="col">Provider</th>
                <th scope="col">Status</th>
                <th scope="col">Deadline</th>
                <th scope="col">Requested</th>
              </tr>
            </thead>
            <tbody>
              {list.data.redemptions.map((r) => (
                <tr key={r.redemption_id}>
                  <td>
                    <Link to={`/holders/redemptions/${r.redemption_id}`} aria-label={`Redemption ${r.redemption_id}`}>
                      #{r.redemption_id}
                    </Link>
                  </td>
                  <td>
                    <Amount value={r.sstb_amount} unit="sSTB" decimals={18} />
                  </td>
                  <td>
                    <Address value={r.provider_id} />
                  </td>
                  <td>
                    <Badge value={r.status} />
                  </td>
                  <td>
                    {r.status === "pending" ? (
                      <Countdown unix={r.estimated_fulfillment_time} />
                    ) : (
                      <Time unix={r.estimated_fulfillment_time} />
                    )}
                  </td>
                  <td>
                    <Time unix={r.initiated_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
