import { parseUnits } from "ethers";
import { useState } from "react";
import type { FormEvent } from "react";

import { Address } from "../../components/Address";
import { Amount } from "../../components/Amount";
import { Empty, ErrorState, Loading } from "../../components/States";
import { Table } from "../../components/Table";
import { Time } from "../../components/Time";
import { formatUnitsOf, parseAmount, wholeUnits } from "../../lib/amount";
import { canReadChain, useChainNow } from "../../lib/chain";
import { useDeployment } from "../../lib/deployment";
import { useDevnetFaucet } from "../../lib/faucet";
import { formatAmount, plural } from "../../lib/format";
import { useSingleFlight } from "../../lib/mutations";
import { useWallet } from "../../lib/wallet";
import {
  useBuyQuote,
  useBuySpot,
  useCancelListing,
  useClaimable,
  useListing,
  useListSpot,
  useSpotListings,
  useWithdrawClaimable,
} from "./api";
import type { Listing, MarketStep } from "./api";
import { PAYMENT, STEP_TEXT } from "./payment";
import { MarketTabs } from "./shared";

/** sSTB's markets: the spot order book (buy, list, cancel) and the claimable balances. */
export function Markets() {
  const deployment = useDeployment();
  const wallet = useWallet();
  return (
    <>
      <h1>Markets</h1>
      <MarketTabs />
      <p>
        Buy and sell sSTB for {PAYMENT.symbol} on {deployment.chain.label}. Every figure below is read from the market
        before you sign; what the market takes or escrows is said beside each button.
      </p>
      {!canReadChain(wallet) ? (
        <p className="state warning" role="status">
          Connect your wallet on {deployment.chain.label} to trade: quotes are read from the market through it.
        </p>
      ) : null}
      <SpotBook />
      <ListForSale />
      <Claimable />
      {deployment.environment === "devnet" ? <Faucet /> : null}
    </>
  );
}

function SpotBook() {
  const wallet = useWallet();
  const listings = useSpotListings();
  const [selected, setSelected] = useState<Listing>();
  const cancel = useCancelListing(wallet, useDeployment());
  const cancelOnce = useSingleFlight(cancel);
  return (
    <section className="card" aria-labelledby="spot-title">
      <h2 id="spot-title">Spot: sSTB for sale</h2>
      {listings.isPending ? (
        <Loading what="the spot listings" />
      ) : listings.isError ? (
        <ErrorState error={listings.error} retry={() => void listings.refetch()} />
      ) : listings.data.listings.length === 0 ? (
        <Empty>No sSTB is for sale right now.</Empty>
      ) : (
        <>
          <p className="muted">{plural(listings.data.total, "listing")}</p>
          <Table>
            <thead>
              <tr>
                <th scope="col">Listing</th>
                <th scope="col">Seller</th>
                <th scope="col">For sale</th>
                <th scope="col">Price per sSTB</th>
                <th scope="col">Open until</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {listings.data.listings.map((l) => {
                const mine = wallet.account?.toLowerCase() === l.seller.toLowerCase();
                return (
                  <tr key={l.listing_id} data-testid={`listing-${l.listing_id}`}>
                    <td>#{l.listing_id}</td>
                    <td>
                      <Address value={l.seller} />
                    </td>
                    <td>
                      <Remaining listing={l} />
                    </td>
                    <td>
                      <Amount value={l.price_per_token} unit={PAYMENT.symbol} decimals={PAYMENT.decimals} />
                    </td>
                    <td>
                      <Time unix={l.expiration} />
                    </td>
                    <td>
                      {mine ? (
                        <button
                          type="button"
                          className="danger"
                          disabled={cancel.isPending}
                          aria-label={`Cancel listing ${l.listing_id}`}
                          onClick={() => cancelOnce(BigInt(l.listing_id))}
                        >
                          Cancel
                        </button>
                      ) : (
                        <button
                          type="button"
                          aria-label={`Buy from listing ${l.listing_id}`}
                          onClick={() => setSelected(l)}
                        >
                          Buy
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        </>
      )}
      {cancel.isError ? <ErrorState error={cancel.error} /> : null}
      {cancel.isSuccess ? (
        <p className="state" role="status">
          Listing cancelled: the unsold sSTB is back in your wallet.
        </p>
      ) : null}
      {selected === undefined ? null : <BuyForm key={selected.listing_id} listing={selected} />}
    </section>
  );
}

/** What is left of a listing, read from the market (the gateway lists the amount listed). */
function Remaining({ listing }: { listing: Listing }) {
  const wallet = useWallet();
  const onChain = useListing(wallet, useDeployment(), listing.listing_id);
  if (onChain.data === undefined) return <Amount value={listing.amount} unit="sSTB" decimals={18} />;
  const left = wholeUnits(onChain.data.remaining);
  return left === listing.amount ? (
    <Amount value={left} unit="sSTB" decimals={18} />
  ) : (
    <>
      <Amount value={left} unit="sSTB" decimals={18} /> left of {formatAmount(listing.amount, "sSTB", 18)}
    </>
  );
}

function BuyForm({ listing }: { listing: Listing }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const onChain = useListing(wallet, deployment, listing.listing_id);
  const [text, setText] = useState("1");
  const [step, setStep] = useState<MarketStep>();
  const [bought, setBought] = useState<{ amount: bigint; payment: bigint }>();
  const buy = useBuySpot(wallet, deployment);
  const buyOnce = useSingleFlight(buy);
  const parsed = parseAmount(text, "sSTB");
  const remaining = onChain.data?.remaining ?? parseUnits(String(listing.amount), 18);
  const maxPrice = parseUnits(String(listing.price_per_token), PAYMENT.decimals);
  const problem = !parsed.ok
    ? parsed.reason
    : parsed.value > remaining
      ? `Listing #${listing.listing_id} has ${formatAmount(wholeUnits(remaining), "sSTB", 18)} left.`
      : undefined;
  const terms =
    parsed.ok && problem === undefined
      ? { listingId: BigInt(listing.listing_id), amount: parsed.value, maxPrice }
      : undefined;
  const quote = useBuyQuote(wallet, deployment, terms);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (terms === undefined || quote.data === undefined) return;
    const payment = quote.data.payment;
    buyOnce(
      { ...terms, onStep: setStep },
      { onSettled: () => setStep(undefined), onSuccess: () => setBought({ amount: terms.amount, payment }) },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="buy-title" className="offer">
      <h3 id="buy-title">Buy from listing #{listing.listing_id}</h3>
      <label>
        Amount to buy (sSTB)
        <input
          inputMode="decimal"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby="buy-terms"
        />
      </label>
      <div id="buy-terms" aria-live="polite">
        {problem !== undefined ? (
          <p className="state warning">{problem}</p>
        ) : quote.isPending && quote.fetchStatus !== "idle" ? (
          <Loading what="the price" />
        ) : quote.isError ? (
          <ErrorState error={quote.error} />
        ) : quote.data !== undefined && parsed.ok ? (
          <p data-testid="buy-quote">
            You pay {formatUnitsOf(quote.data.payment, PAYMENT.decimals, PAYMENT.symbol)} for{" "}
            {formatAmount(wholeUnits(parsed.value), "sSTB", 18)}, of which{" "}
            {formatUnitsOf(quote.data.fee, PAYMENT.decimals, PAYMENT.symbol)} is the market's fee (to the treasury). The
            market takes the payment from your wallet; the seller's escrowed sSTB comes to you.
          </p>
        ) : null}
      </div>
      <button
        type="submit"
        className="primary"
        disabled={buy.isPending || terms === undefined || quote.data === undefined}
      >
        {buy.isPending ? "Buying…" : "Buy"}
      </button>
      {step === undefined ? null : (
        <p className="state" role="status">
          {STEP_TEXT[step]}
        </p>
      )}
      {buy.isError ? <ErrorState error={buy.error} /> : null}
      {bought === undefined ? null : (
        <p className="state" role="status" data-testid="bought">
          Bought {formatAmount(wholeUnits(bought.amount), "sSTB", 18)} for{" "}
          {formatUnitsOf(bought.payment, PAYMENT.decimals, PAYMENT.symbol)}: it is in your wallet; redeem it with a
          provider from the holder's pages.
        </p>
      )}
    </form>
  );
}

function ListForSale() {
  const deployment = useDeployment();
  const wallet = useWallet();
  const now = useChainNow();
  const list = useListSpot(wallet, deployment);
  const listOnce = useSingleFlight(list);
  const [amount, setAmount] = useState("5");
  const [price, setPrice] = useState("1.5");
  const [days, setDays] = useState("7");
  const [step, setStep] = useState<MarketStep>();
  const a = parseAmount(amount, "sSTB");
  const p = parseAmount(price, PAYMENT.symbol, PAYMENT.decimals);
  const d = Number(days);
  const problem = !a.ok
    ? a.reason
    : !p.ok
      ? p.reason
      : !(d > 0 && d <= 365)
        ? "The listing stays open from 1 to 365 days."
        : now === undefined
          ? "Connect your wallet: the listing's end is set by the chain's clock."
          : undefined;
  const expiration = now === undefined ? undefined : Math.floor(now + d * 86_400);
  const total = a.ok && p.ok ? (a.value * p.value) / 10n ** 18n : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem !== undefined || !a.ok || !p.ok || expiration === undefined) return;
    listOnce(
      { amount: a.value, price: p.value, expiration: BigInt(expiration), onStep: setStep },
      { onSettled: () => setStep(undefined) },
    );
  };
  return (
    <section className="card" aria-labelledby="list-title">
      <h2 id="list-title">Sell sSTB</h2>
      <form onSubmit={submit} noValidate className="grid">
        <label>
          Amount (sSTB)
          <input inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </label>
        <label>
          Price per sSTB ({PAYMENT.symbol})
          <input inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
        </label>
        <label>
          Open for (days)
          <input type="number" min={1} max={365} value={days} onChange={(e) => setDays(e.target.value)} />
        </label>
        <p className={problem === undefined ? "wide" : "wide state warning"} data-testid="list-terms">
          {problem ??
            `${formatAmount(wholeUnits(a.ok ? a.value : 0n), "sSTB", 18)} move from your wallet into the market's escrow until bought, cancelled or expired (${new Date(expiration! * 1000).toUTCString()}, chain time); sold whole, buyers pay ${formatUnitsOf(total ?? 0n, PAYMENT.decimals, PAYMENT.symbol)}, less the market's fee.`}
        </p>
        <button type="submit" className="primary" disabled={list.isPending || problem !== undefined}>
          {list.isPending ? "Listing…" : "List for sale"}
        </button>
      </form>
      {step === undefined ? null : (
        <p className="state" role="status">
          {step === "approve"
            ? "Approve the sSTB for the market's escrow in your wallet…"
            : "Confirm the listing in your wallet…"}
        </p>
      )}
      {list.isError ? <ErrorState error={list.error} /> : null}
      {list.isSuccess ? (
        <p className="state" role="status" data-testid="listed">
          Listed: listing #{String(list.data.listingId)}.
        </p>
      ) : null}
    </section>
  );
}

function Claimable() {
  const deployment = useDeployment();
  const wallet = useWallet();
  const claimable = useClaimable(wallet, deployment);
  const withdraw = useWithdrawClaimable(wallet, deployment);
  const withdrawOnce = useSingleFlight(withdraw);
  return (
    <section className="card" aria-labelledby="claimable-title">
      <h2 id="claimable-title">Claimable balances</h2>
      <p className="muted">
        Payments a market could not deliver to you (a token that refused the transfer) wait here until you withdraw
        them.
      </p>
      {!canReadChain(wallet) ? null : claimable.isPending ? (
        <Loading what="your claimable balances" />
      ) : claimable.isError ? (
        <ErrorState error={claimable.error} retry={() => void claimable.refetch()} />
      ) : claimable.data.length === 0 ? (
        <Empty>Nothing to claim.</Empty>
      ) : (
        <ul className="rows">
          {claimable.data.map((c) => (
            <li key={`${c.market}-${c.token}`}>
              {formatUnitsOf(c.amount, c.decimals, c.symbol)} on the {c.market} market{" "}
              <button
                type="button"
                disabled={withdraw.isPending}
                onClick={() => withdrawOnce({ market: c.market, token: c.token })}
              >
                Withdraw to my wallet
              </button>
            </li>
          ))}
        </ul>
      )}
      {withdraw.isError ? <ErrorState error={withdraw.error} /> : null}
    </section>
  );
}

function Faucet() {
  const deployment = useDeployment();
  const wallet = useWallet();
  const faucet = useDevnetFaucet(wallet, deployment);
  const faucetOnce = useSingleFlight(faucet);
  return (
    <section className="card" aria-labelledby="faucet-title">
      <h2 id="faucet-title">Test {PAYMENT.symbol} (devnet)</h2>
      <button
        type="button"
        disabled={faucet.isPending || !canReadChain(wallet)}
        onClick={() => faucetOnce({ decimals: PAYMENT.decimals })}
      >
        {faucet.isPending ? "Minting…" : `Get 1,000 test ${PAYMENT.symbol}`}
      </button>
      {faucet.isError ? <ErrorState error={faucet.error} /> : null}
      {faucet.isSuccess ? (
        <p className="state" role="status">
          1,000 {PAYMENT.symbol} are in your wallet.
        </p>
      ) : null}
    </section>
  );
}
