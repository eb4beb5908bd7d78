import { Link } from "react-router";

import { Address } from "../../components/Address";
import { Amount } from "../../components/Amount";
import { RedemptionStats } from "../../components/RedemptionStats";
import { Badge, Empty, ErrorState, Loading } from "../../components/States";
import { Countdown, Time } from "../../components/Time";
import { canReadChain, useLease } from "../../lib/chain";
import { useDeployment } from "../../lib/deployment";
import { useWallet } from "../../lib/wallet";
import { CollateralCard, RegisterProvider, RetireCard, ReviewState, VerifyAndMint } from "./Onboarding";
import type { ProviderDetail } from "./api";
import { useCollateral, useIncoming, useProfile, useSstbBalance } from "./api";
import { useProviderAccount } from "./onboarding-api";
import { Table } from "../../components/Table";

/** The provider console: profile and status, collateral (free and locked) and capacity, incoming redemptions. */
export function Console({ address }: { address: string }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const account = useProviderAccount(wallet, deployment, address);
  // registered on the chain: follow the gateway's index until it shows the registration and its approval
  const profile = useProfile(address, account.data !== undefined && account.data.status !== "none");
  const registered = profile.data !== null && profile.data !== undefined;
  const collateral = useCollateral(address, registered);
  const balance = useSstbBalance();
  if (profile.isPending) return <Loading what="your provider profile" />;
  if (profile.isError) return <ErrorState error={profile.error} retry={() => void profile.refetch()} />;
  // the chain decides the status (the gateway's index follows it a few seconds later)
  const status = account.data?.status ?? (registered ? profile.data!.status : undefined);
  if (!canReadChain(wallet) && !registered) {
    return (
      <>
        <h1>Provider console</h1>
        <p className="state warning" role="status">
          <Address value={address} /> is not a registered provider. Connect your wallet on {deployment.chain.label} to
          register.
        </p>
      </>
    );
  }
  if (status === undefined) {
    return account.isError ? (
      <ErrorState error={account.error} retry={() => void account.refetch()} />
    ) : (
      <Loading what="your provider account" />
    );
  }
  if (status === "none") {
    return (
      <>
        <h1>Provider console</h1>
        <RegisterProvider address={address} account={account.data} />
      </>
    );
  }
  if (!registered) return <Loading what="your registration (the gateway is indexing it)" />;
  const p = profile.data!;
  const sstbHeld =
    balance.data === undefined
      ? undefined
      : BigInt(
          balance.data.balances.find((b) => b.native_chain_id === deployment.chain.chain_id)?.sstb_balance_base_units ??
            "0",
        );
  return (
    <>
      <h1>
        Provider console: {p.name} <Badge value={status} />
      </h1>
      {status === "pending" && account.data !== undefined ? (
        <ReviewState account={account.data} profile={profileOf(p)} />
      ) : null}
      <section className="card" aria-labelledby="standing-title">
        <h2 id="standing-title">Standing</h2>
        <dl className="facts">
          <dt>Address</dt>
          <dd>
            <Address value={p.provider_id} />
          </dd>
          <dt>Reputation</dt>
          <dd>{p.reputation_score.toFixed(2)} / 100</dd>
          <dt>Redemptions</dt>
          <dd>
            <RedemptionStats
              successful={p.statistics.successful_redemptions}
              total={p.statistics.total_redemptions}
              averageMinutes={p.statistics.average_response_time}
            />
          </dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="collateral-title">
        <h2 id="collateral-title">Collateral and capacity</h2>
        {collateral.isPending ? (
          <Loading what="your collateral" />
        ) : collateral.isError ? (
          <ErrorState error={collateral.error} retry={() => void collateral.refetch()} />
        ) : (
          <dl className="facts" data-testid="collateral">
            <dt>Free collateral</dt>
            <dd>
              <Amount value={collateral.data.free_collateral} unit={collateral.data.collateral_token.symbol} />
            </dd>
            <dt>Locked collateral</dt>
            <dd>
              <Amount value={collateral.data.locked_collateral} unit={collateral.data.collateral_token.symbol} />
            </dd>
            <dt>Required for the capacity available</dt>
            <dd>
              <Amount value={collateral.data.required_collateral} unit={collateral.data.collateral_token.symbol} />
            </dd>
            <dt>Capacity</dt>
            <dd>
              <Amount value={collateral.data.available_cu_value} unit="sSTB" decimals={18} /> available of{" "}
              <Amount value={collateral.data.total_cu_value} unit="sSTB" decimals={18} />
            </dd>
            <dt>Staked until</dt>
            <dd>
              {collateral.data.staked_until === 0 ? "nothing staked yet" : <Time unix={collateral.data.staked_until} />}
            </dd>
            <dt>Tier</dt>
            <dd>{collateral.data.tier}</dd>
          </dl>
        )}
      </section>
      {account.data === undefined ? null : <CollateralCard account={account.data} />}
      {account.data === undefined ? null : <VerifyAndMint account={account.data} address={address} />}
      {account.data === undefined || account.data.totalCapacity === 0n ? null : (
        <RetireCard account={account.data} sstbBalance={sstbHeld} />
      )}
      <IncomingRedemptions collateralSymbol={collateral.data?.collateral_token.symbol} />
      <Leases />
    </>
  );
}

function IncomingRedemptions({ collateralSymbol }: { collateralSymbol: string | undefined }) {
  const incoming = useIncoming();
  return (
    <section className="card" aria-labelledby="incoming-title">
      <h2 id="incoming-title">Incoming redemptions</h2>
      {incoming.isPending ? (
        <Loading what="incoming redemptions" />
      ) : incoming.isError ? (
        <ErrorState error={incoming.error} retry={() => void incoming.refetch()} />
      ) : incoming.data.length === 0 ? (
        <Empty>No redemptions yet.</Empty>
      ) : (
        <Table>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Amount</th>
              <th scope="col">Holder</th>
              <th scope="col">Status</th>
              <th scope="col">Deadline</th>
              <th scope="col">Collateral locked</th>
            </tr>
          </thead>
          <tbody>
            {incoming.data.map((r) => (
              <tr key={r.redemption_id}>
                <td>
                  <Link
                    to={`/providers/redemptions/${r.redemption_id}`}
                    aria-label={`Incoming redemption ${r.redemption_id}`}
                  >
                    #{r.redemption_id}
                  </Link>
                </td>
                <td>
                  <Amount value={r.sstb_amount} unit="sSTB" decimals={18} />
                </td>
                <td>
                  <Address value={r.user} />
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
                  <Amount value={r.collateral_locked} unit={collateralSymbol ?? "(collateral token)"} />
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

/**
 * The provider's leases (fulfilled redemptions that are not renewals), each read from the chain:
 * running ones with their end, terminated and ended ones to reclaim.
 */
function Leases() {
  const deployment = useDeployment();
  const wallet = useWallet();
  const incoming = useIncoming();
  const fulfilled = (incoming.data ?? []).filter((r) => r.fulfilled_at !== null);
  return (
    <section className="card" aria-labelledby="leases-title">
      <h2 id="leases-title">Leases</h2>
      {!canReadChain(wallet) ? (
        <p className="state warning" role="status">
          Connect your wallet on {deployment.chain.label} to read your leases from the chain.
        </p>
      ) : incoming.isPending ? (
        <Loading what="your leases" />
      ) : incoming.data === undefined ? (
        <ErrorState error={incoming.error} retry={() => void incoming.refetch()} />
      ) : fulfilled.length === 0 ? (
        <Empty>No leases yet: a lease starts when you fulfil a redemption.</Empty>
      ) : (
        <Table>
          <thead>
            <tr>
              <th scope="col">Lease</th>
              <th scope="col">Holder</th>
              <th scope="col">Status</th>
              <th scope="col">Ends</th>
            </tr>
          </thead>
          <tbody>
            {fulfilled.map((r) => (
              <LeaseRow key={r.redemption_id} id={Number(r.redemption_id)} user={r.user} />
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

function LeaseRow({ id, user }: { id: number; user: string }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const view = useLease(wallet, deployment, id);
  // a renewal is a redemption of an existing lease, listed with that lease
  if (view.data?.renewal === true || (view.data !== undefined && view.data.lease === null)) return null;
  const lease = view.data?.lease;
  return (
    <tr data-testid={`lease-row-${id}`}>
      <td>
        <Link to={`/providers/redemptions/${id}`} aria-label={`Lease ${id}`}>
          #{id}
        </Link>
      </td>
      <td>
        <Address value={user} />
      </td>
      <td>
        {view.isPending ? (
          <Loading what="the lease" />
        ) : lease === undefined || lease === null ? (
          <ErrorState error={view.error} retry={() => void view.refetch()} />
        ) : (
          <>
            <Badge value={lease.status} />
            {lease.status === "terminated" || lease.status === "ended" ? " reclaim the resources" : null}
          </>
        )}
      </td>
      <td>{lease?.end === null || lease === undefined || lease === null ? "—" : <Time unix={Number(lease.end)} />}</td>
    </tr>
  );
}

/** The registry's profile as the gateway shows it (what governance reviewed). */
function profileOf(p: ProviderDetail) {
  return {
    name: p.name,
    country: p.location.country,
    region: p.location.region,
    email: p.contact_info.email,
    website: p.contact_info.website,
    cpuType: p.hardware_specifications.cpu_type,
    totalCpuCores: p.hardware_specifications.total_cpu_cores,
    totalRamGb: p.hardware_specifications.total_ram_gb,
    totalStorageGb: p.hardware_specifications.total_storage_gb,
    networkCapacityMbps: p.hardware_specifications.network_capacity_mbps,
  };
}
