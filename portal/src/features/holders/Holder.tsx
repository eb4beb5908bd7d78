import { useMutation } from "@tanstack/react-query";
import { Link } from "react-router";

import { Address } from "../../components/Address";
import { Amount } from "../../components/Amount";
import { Badge, Empty, ErrorState, Loading } from "../../components/States";
import { Countdown, Time } from "../../components/Time";
import { canReadChain, useChainAccessKey } from "../../lib/chain";
import { useDeployment } from "../../lib/deployment";
import { useWallet } from "../../lib/wallet";
import { useDeriveKey, useDerivedKey } from "./access-key";
import { useBalance, useMyRedemptions, useRegisterAccessKey } from "./api";
import { useSingleFlight } from "../../lib/mutations";
import { Table } from "../../components/Table";

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
        <Table>
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
        </Table>
      )}
    </section>
  );
}

/**
 * The access key: derived from a wallet signature, its public half registered on the redemption
 * manager (`registerAccessKey`), where providers read it. Shows what the chain holds against the
 * key this wallet derives: registered, not registered, or a different key (registered from another
 * site or wallet; providers would encrypt to that one).
 */
export function AccessKeySetup() {
  const deployment = useDeployment();
  const wallet = useWallet();
  const registered = useChainAccessKey(wallet, deployment, wallet.account);
  const keys = useDerivedKey(wallet.account);
  const derive = useDeriveKey(wallet, deployment);
  const register = useRegisterAccessKey(wallet, deployment);
  const setUp = useMutation({
    mutationFn: async () => {
      const pair = keys ?? (await derive());
      const onChain = await registered.refetch();
      if (onChain.data !== pair.publicKey.toLowerCase()) await register.mutateAsync(pair.publicKey);
      return pair;
    },
  });
  const setUpOnce = useSingleFlight(setUp);
  const state =
    registered.data === undefined || registered.data === null
      ? "none"
      : keys === undefined
        ? "locked"
        : registered.data === keys.publicKey.toLowerCase()
          ? "matches"
          : "mismatch";
  return (
    <section className="card" aria-labelledby="access-key-title">
      <h2 id="access-key-title">Access key</h2>
      <p>
        Providers encrypt your access details to a key your wallet derives by signing a message for this site; its
        public half is registered on the redemption manager, where providers read it. The private key stays in this
        page: nothing secret is stored or sent.
      </p>
      {!canReadChain(wallet) ? (
        <p className="state warning" data-testid="access-key-status">
          Connect your wallet on {deployment.chain.label} to read your registered key from the chain.
        </p>
      ) : registered.isPending ? (
        <Loading what="your registered access key" />
      ) : registered.isError ? (
        <ErrorState error={registered.error} retry={() => void registered.refetch()} />
      ) : state === "none" ? (
        <p data-testid="access-key-status">Not registered: providers cannot send you access details yet.</p>
      ) : (
        <p data-testid="access-key-status">
          Registered on-chain: <code className="token">{registered.data}</code>
          {state === "locked"
            ? " (not unlocked in this page)"
            : state === "matches"
              ? " (matches this wallet's key, unlocked in this page)"
              : " (differs from this wallet's key: register this wallet's key, or providers encrypt to the other one)"}
        </p>
      )}
      <button
        type="button"
        className="primary"
        disabled={setUp.isPending || state === "matches" || !canReadChain(wallet)}
        onClick={() => setUpOnce()}
      >
        {setUp.isPending
          ? "Waiting for your wallet…"
          : state === "matches"
            ? "Access key ready"
            : state === "mismatch"
              ? "Register this wallet's key"
              : "Set up my access key"}
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
        <Table>
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
        </Table>
      )}
    </section>
  );
}
