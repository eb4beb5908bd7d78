import { Link } from "react-router";

import { Address } from "../../components/Address";
import { Amount } from "../../components/Amount";
import { Badge, Empty, ErrorState, Loading } from "../../components/States";
import { Countdown, Time } from "../../components/Time";
import { useCollateral, useIncoming, useProfile } from "./api";

/** The provider console: profile and status, collateral (free and locked) and capacity, incoming redemptions. */
export function Console({ address }: { address: string }) {
  const profile = useProfile(address);
  const collateral = useCollateral(address, profile.data !== null && profile.data !== undefined);
  if (profile.isPending) return <Loading what="your provider profile" />;
  if (profile.isError) return <ErrorState error={profile.error} retry={() => void profile.refetch()} />;
  if (profile.data === null) {
    return (
      <>
        <h1>Provider console</h1>
        <Empty>
          <Address value={address} /> is not a registered provider. Providers register on the ProviderRegistry contract
          (see the README, "How minting works").
        </Empty>
      </>
    );
  }
  const p = profile.data;
  return (
    <>
      <h1>
        Provider console: {p.name} <Badge value={p.status} />
      </h1>
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
            {p.statistics.successful_redemptions} successful of {p.statistics.total_redemptions}, average response{" "}
            {p.statistics.average_response_time} min
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
              <Time unix={collateral.data.staked_until} />
            </dd>
            <dt>Tier</dt>
            <dd>{collateral.data.tier}</dd>
          </dl>
        )}
      </section>
      <IncomingRedemptions />
    </>
  );
}

function IncomingRedemptions() {
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
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Amount</th>
                <th scope="col">Holder</th>
                <th scope="col">Status</th>
                <th scope="col">Deadline</th>
                <th scope="col">Locked</th>
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
                  <td>{r.collateral_locked.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
