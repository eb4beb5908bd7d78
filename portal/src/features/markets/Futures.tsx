import { parseUnits } from "ethers";
import { useState } from "react";
import type { FormEvent } from "react";

import { Address } from "../../components/Address";
import { Amount } from "../../components/Amount";
import { Empty, ErrorState, Loading } from "../../components/States";
import { Table } from "../../components/Table";
import { Countdown, Time } from "../../components/Time";
import { parseAmount } from "../../lib/amount";
import { canReadChain, useChainNow } from "../../lib/chain";
import { useDeployment } from "../../lib/deployment";
import { plural } from "../../lib/format";
import { useSingleFlight } from "../../lib/mutations";
import { useWallet } from "../../lib/wallet";
import { useCancelListing } from "./api";
import type { Listing, MarketStep } from "./api";
import {
  useExpireListing,
  useOfferFuture,
  useOfferQuote,
  useOpenPositions,
  usePosition,
  useSettleFuture,
  useTakeFuture,
  useTakeQuote,
} from "./derivatives-api";
import { PAYMENT } from "./payment";
import { MarketTabs, RowAction, StepStatus, chainTime, parseDays, pay, sstb, tokenAmount } from "./shared";

/**
 * sSTB futures: an offer to sell or to buy sSTB at a price, delivered at a settlement time; the
 * taker takes it whole; both sides stay in the market's escrow until anyone settles it.
 */
export function Futures() {
  const deployment = useDeployment();
  const wallet = useWallet();
  const [lookup, setLookup] = useState<number>();
  return (
    <>
      <h1>Futures</h1>
      <MarketTabs />
      <p>
        Agree today on a price for sSTB delivered at a settlement time on {deployment.chain.label}. Both sides are held
        in the market's escrow until then; anyone can settle once the chain's clock reaches the settlement time. The
        market's fee is taken from the payment at settlement.
      </p>
      {!canReadChain(wallet) ? (
        <p className="state warning" role="status">
          Connect your wallet on {deployment.chain.label} to trade: terms are read from the market through it.
        </p>
      ) : null}
      <FuturesBook onTaken={setLookup} />
      <OfferFuture onOffered={setLookup} />
      <FuturePosition key={lookup} initial={lookup} />
    </>
  );
}

function FuturesBook({ onTaken }: { onTaken: (id: number) => void }) {
  const offers = useOpenPositions("futures");
  const [selected, setSelected] = useState<Listing>();
  return (
    <section className="card" aria-labelledby="futures-title">
      <h2 id="futures-title">Open futures offers</h2>
      {offers.isPending ? (
        <Loading what="the futures offers" />
      ) : offers.isError ? (
        <ErrorState error={offers.error} retry={() => void offers.refetch()} />
      ) : offers.data.listings.length === 0 ? (
        <Empty>No futures offer is open right now.</Empty>
      ) : (
        <>
          <p className="muted">{plural(offers.data.total, "offer")}</p>
          <Table>
            <thead>
              <tr>
                <th scope="col">Offer</th>
                <th scope="col">Maker</th>
                <th scope="col">Amount</th>
                <th scope="col">Price per sSTB</th>
                <th scope="col">Settles</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {offers.data.listings.map((l) => (
                <OfferRow key={l.listing_id} offer={l} onTake={() => setSelected(l)} />
              ))}
            </tbody>
          </Table>
        </>
      )}
      {selected === undefined ? null : <TakeForm key={selected.listing_id} offer={selected} onTaken={onTaken} />}
    </section>
  );
}

function OfferRow({ offer, onTake }: { offer: Listing; onTake: () => void }) {
  const wallet = useWallet();
  const deployment = useDeployment();
  const now = useChainNow();
  const onChain = usePosition(wallet, deployment, offer.listing_id);
  const expire = useExpireListing(wallet, deployment);
  const expireOnce = useSingleFlight(expire);
  const cancel = useCancelListing(wallet, deployment);
  const cancelOnce = useSingleFlight(cancel);
  const mine = wallet.account?.toLowerCase() === offer.seller.toLowerCase();
  const over = now !== undefined && now >= offer.expiration;
  const side = onChain.data === undefined ? undefined : onChain.data.kind === "future_buy" ? "buys" : "sells";
  return (
    <tr data-testid={`future-${offer.listing_id}`}>
      <td>#{offer.listing_id}</td>
      <td>
        <Address value={offer.seller} />
        {side === undefined ? null : ` ${side}`}
      </td>
      <td>
        <Amount value={offer.amount} unit="sSTB" decimals={18} />
      </td>
      <td>
        <Amount value={offer.price_per_token} unit={PAYMENT.symbol} decimals={PAYMENT.decimals} />
      </td>
      <td>
        <Time unix={offer.expiration} /> <Countdown unix={offer.expiration} passed="settlement time reached" />
      </td>
      <td>
        {over ? (
          <RowAction
            mutation={expire}
            label="Return escrow"
            pendingLabel="Returning…"
            ariaLabel={`Return the escrow of offer ${offer.listing_id}`}
            onClick={() => expireOnce(BigInt(offer.listing_id))}
          />
        ) : mine ? (
          <RowAction
            mutation={cancel}
            label="Cancel"
            pendingLabel="Cancelling…"
            ariaLabel={`Cancel offer ${offer.listing_id}`}
            danger
            onClick={() => cancelOnce(BigInt(offer.listing_id))}
          />
        ) : (
          <button
            type="button"
            aria-label={`Take offer ${offer.listing_id}`}
            disabled={side === undefined}
            onClick={onTake}
          >
            Take
          </button>
        )}
      </td>
    </tr>
  );
}

function TakeForm({ offer, onTaken }: { offer: Listing; onTaken: (id: number) => void }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const [step, setStep] = useState<MarketStep>();
  const take = useTakeFuture(wallet, deployment);
  const takeOnce = useSingleFlight(take);
  const terms = {
    listingId: BigInt(offer.listing_id),
    limitPrice: parseUnits(String(offer.price_per_token), PAYMENT.decimals),
  };
  const quote = useTakeQuote(wallet, deployment, terms);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (quote.data === undefined) return;
    takeOnce(
      { ...terms, onStep: setStep },
      { onSettled: () => setStep(undefined), onSuccess: () => onTaken(offer.listing_id) },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="take-title" className="offer">
      <h3 id="take-title">Take offer #{offer.listing_id}</h3>
      <div aria-live="polite">
        {quote.isPending && quote.fetchStatus !== "idle" ? (
          <Loading what="the offer's terms" />
        ) : quote.isError ? (
          <ErrorState error={quote.error} />
        ) : quote.data !== undefined ? (
          <p data-testid="take-quote">
            {quote.data.side === "buy"
              ? `You buy ${sstb(quote.data.amount)} for ${pay(quote.data.payment)}. `
              : `You sell ${sstb(quote.data.amount)} for ${pay(quote.data.payment)}, of which ${pay(quote.data.fee)} is the market's fee: you receive ${pay(quote.data.payment - quote.data.fee)}. `}
            The market escrows {tokenAmount(deployment, quote.data.approval)} from your wallet now, until settlement on{" "}
            {chainTime(offer.expiration)}.
            {quote.data.side === "buy"
              ? ` At settlement the seller receives it less the market's fee (${pay(quote.data.fee)}); the sSTB comes to you.`
              : null}
          </p>
        ) : null}
      </div>
      <button type="submit" className="primary" disabled={take.isPending || quote.data === undefined}>
        {take.isPending ? "Taking…" : "Take the offer"}
      </button>
      <StepStatus step={step} />
      {take.isError ? <ErrorState error={take.error} /> : null}
      {take.isSuccess ? (
        <p className="state" role="status" data-testid="taken">
          Taken: future #{offer.listing_id} settles on {chainTime(offer.expiration)}; settle it below from then.
        </p>
      ) : null}
    </form>
  );
}

function OfferFuture({ onOffered }: { onOffered: (id: number) => void }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const now = useChainNow();
  const offer = useOfferFuture(wallet, deployment);
  const offerOnce = useSingleFlight(offer);
  const [side, setSide] = useState<"sell" | "buy">("sell");
  const [amount, setAmount] = useState("2");
  const [price, setPrice] = useState("1.5");
  const [days, setDays] = useState("7");
  const [step, setStep] = useState<MarketStep>();
  const a = parseAmount(amount, "sSTB");
  const p = parseAmount(price, PAYMENT.symbol, PAYMENT.decimals);
  const d = parseDays(days, "The settlement");
  const problem = !a.ok
    ? a.reason
    : !p.ok
      ? p.reason
      : !d.ok
        ? d.reason
        : now === undefined
          ? "Connect your wallet: the settlement time is set by the chain's clock."
          : undefined;
  // rounded to the minute, so the quote's key does not change every second
  const settlementTime = now !== undefined && d.ok ? BigInt(Math.floor((now + d.days * 86_400) / 60) * 60) : undefined;
  const terms =
    problem === undefined && a.ok && p.ok && settlementTime !== undefined
      ? { side, amount: a.value, price: p.value, settlementTime }
      : undefined;
  const quote = useOfferQuote(wallet, deployment, terms);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (terms === undefined || quote.data === undefined) return;
    offerOnce(
      { ...terms, onStep: setStep },
      { onSettled: () => setStep(undefined), onSuccess: (r) => onOffered(Number(r.listingId)) },
    );
  };
  return (
    <section className="card" aria-labelledby="offer-title">
      <h2 id="offer-title">Offer a future</h2>
      <form onSubmit={submit} noValidate className="grid">
        <label>
          Side
          <select value={side} onChange={(e) => setSide(e.target.value as "sell" | "buy")}>
            <option value="sell">Sell sSTB at settlement</option>
            <option value="buy">Buy sSTB at settlement</option>
          </select>
        </label>
        <label>
          Amount (sSTB)
          <input inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </label>
        <label>
          Price per sSTB ({PAYMENT.symbol})
          <input inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
        </label>
        <label>
          Settles in (days)
          <input type="number" min={1} max={365} value={days} onChange={(e) => setDays(e.target.value)} />
        </label>
        <div className="wide" aria-live="polite" data-testid="offer-terms">
          {problem !== undefined ? (
            <p className="state warning">{problem}</p>
          ) : quote.isPending && quote.fetchStatus !== "idle" ? (
            <Loading what="the offer's escrow" />
          ) : quote.isError ? (
            <ErrorState error={quote.error} />
          ) : quote.data !== undefined && settlementTime !== undefined ? (
            <p>
              The market escrows {tokenAmount(deployment, quote.data.approval)} from your wallet until settlement on{" "}
              {chainTime(Number(settlementTime))} (or until the offer expires untaken and the escrow is returned). At
              settlement {pay(quote.data.payment)} changes hands, of which {pay(quote.data.fee)} is the market's fee
              (taken from the seller's side).
            </p>
          ) : null}
        </div>
        <button type="submit" className="primary" disabled={offer.isPending || quote.data === undefined}>
          {offer.isPending ? "Offering…" : "Make the offer"}
        </button>
      </form>
      <StepStatus step={step} />
      {offer.isError ? <ErrorState error={offer.error} /> : null}
      {offer.isSuccess ? (
        <p className="state" role="status" data-testid="offered">
          Offered: future #{String(offer.data.listingId)}.
        </p>
      ) : null}
    </section>
  );
}

/**
 * A future by its id, as the market holds it (a matched future leaves the gateway's list of open
 * offers): its two sides, its settlement time by the chain's clock, and Settle when it has come.
 */
function FuturePosition({ initial }: { initial: number | undefined }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const now = useChainNow();
  const [text, setText] = useState(initial === undefined ? "" : String(initial));
  const [id, setId] = useState(initial);
  const position = usePosition(wallet, deployment, id);
  const settle = useSettleFuture(wallet, deployment);
  const settleOnce = useSingleFlight(settle);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = Number(text);
    setId(Number.isInteger(n) && n > 0 ? n : undefined);
  };
  const p = position.data;
  const time = p === undefined ? undefined : Number(p.expiration);
  return (
    <section className="card" aria-labelledby="future-position-title">
      <h2 id="future-position-title">A future by its number</h2>
      <p className="muted">
        A taken offer leaves the list above; find it here by its number (the page gives it when you offer or take) to
        follow it and settle it.
      </p>
      <form onSubmit={submit} className="grid">
        <label>
          Future number
          <input inputMode="numeric" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit">Show</button>
      </form>
      {id === undefined ? null : !canReadChain(wallet) ? null : position.isPending ? (
        <Loading what={`future #${id}`} />
      ) : position.isError ? (
        <ErrorState error={position.error} />
      ) : p === undefined || time === undefined ? null : p.market !== "futures" ? (
        <p className="state warning">
          #{id} is not a future (it is on the {p.market} market).
        </p>
      ) : (
        <div data-testid="future-position">
          <p>
            Future #{id}: {sstb(p.amount)} at {pay(p.pricePerToken)} per sSTB ({pay(p.totalPrice)}), status{" "}
            <strong>{p.status}</strong>. The maker <Address value={p.seller} />{" "}
            {p.kind === "future_buy" ? "buys" : "sells"}
            {p.status === "matched" ? (
              <>
                ; the taker <Address value={p.counterparty} /> {p.kind === "future_buy" ? "sells" : "buys"}
              </>
            ) : null}
            . Settlement: {chainTime(time)} <Countdown unix={time} passed="the settlement time has come" />
          </p>
          {p.status !== "matched" ? null : now === undefined || now < time ? (
            <p className="muted">Settle becomes possible at the settlement time, by the chain's clock.</p>
          ) : (
            <button
              type="button"
              className="primary"
              disabled={settle.isPending}
              onClick={() => settleOnce(BigInt(id))}
            >
              {settle.isPending ? "Settling…" : `Settle future #${id}`}
            </button>
          )}
          {settle.isError ? <ErrorState error={settle.error} /> : null}
          {settle.isSuccess ? (
            <p className="state" role="status" data-testid="settled">
              Settled: {sstb(settle.data.amount)} to the buyer; {pay(settle.data.payment - settle.data.fee)} to the
              seller after the market's fee of {pay(settle.data.fee)}.
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}
