import { formatUnits, parseUnits } from "ethers";
import { useState } from "react";
import type { FormEvent } from "react";
import type { GetListingReturnType } from "@compute-capacity/sdk";

import { Address } from "../../components/Address";
import { Amount } from "../../components/Amount";
import { Empty, ErrorState, Loading } from "../../components/States";
import { Table } from "../../components/Table";
import { Countdown, Time } from "../../components/Time";
import { formatUnitsOf, parseAmount } from "../../lib/amount";
import { canReadChain, useChainNow } from "../../lib/chain";
import { useDeployment } from "../../lib/deployment";
import { plural } from "../../lib/format";
import { useSingleFlight } from "../../lib/mutations";
import { useWallet } from "../../lib/wallet";
import { useCancelListing } from "./api";
import type { Listing, MarketStep } from "./api";
import {
  useBuyOption,
  useBuyOptionQuote,
  useExerciseOption,
  useExerciseQuote,
  useExpireListing,
  useOpenPositions,
  usePosition,
  useWriteOption,
  useWriteQuote,
} from "./derivatives-api";
import { PAYMENT } from "./payment";
import { MarketTabs, RowAction, StepStatus, chainTime, parseDays, pay, sstb, tokenAmount } from "./shared";

const KIND_NAME = { covered_call: "call", cash_secured_put: "put" } as Record<string, "call" | "put" | undefined>;

/**
 * sSTB options: a writer escrows the sSTB (a covered call) or the strike (a cash-secured put) and
 * offers the option for a premium; the buyer may exercise it until expiry; after expiry what is
 * left of the escrow goes back to the writer (anyone may send the reclaim).
 */
export function Options() {
  const deployment = useDeployment();
  const wallet = useWallet();
  const [lookup, setLookup] = useState<number>();
  return (
    <>
      <h1>Options</h1>
      <MarketTabs />
      <p>
        Buy the right to buy sSTB (a call) or to sell it (a put) at a strike price until an expiry on{" "}
        {deployment.chain.label}. The writer's side is held in the market's escrow; expiry is by the chain's clock. The
        market's fee is taken from the premium and from the strike payment at exercise.
      </p>
      {!canReadChain(wallet) ? (
        <p className="state warning" role="status">
          Connect your wallet on {deployment.chain.label} to trade: terms are read from the market through it.
        </p>
      ) : null}
      <OptionsBook onBought={setLookup} />
      <WriteOption onWritten={setLookup} />
      <OptionPosition key={lookup} initial={lookup} />
    </>
  );
}

function OptionsBook({ onBought }: { onBought: (id: number) => void }) {
  const options = useOpenPositions("options");
  const [selected, setSelected] = useState<{ listing: Listing; position: GetListingReturnType }>();
  return (
    <section className="card" aria-labelledby="options-title">
      <h2 id="options-title">Options for sale</h2>
      {options.isPending ? (
        <Loading what="the options for sale" />
      ) : options.isError ? (
        <ErrorState error={options.error} retry={() => void options.refetch()} />
      ) : options.data.listings.length === 0 ? (
        <Empty>No option is for sale right now.</Empty>
      ) : (
        <>
          <p className="muted">{plural(options.data.total, "option")}</p>
          <Table>
            <thead>
              <tr>
                <th scope="col">Option</th>
                <th scope="col">Writer</th>
                <th scope="col">Kind</th>
                <th scope="col">Amount</th>
                <th scope="col">Strike per sSTB</th>
                <th scope="col">Premium per sSTB</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {options.data.listings.map((l) => (
                <OptionRow key={l.listing_id} option={l} onBuy={(position) => setSelected({ listing: l, position })} />
              ))}
            </tbody>
          </Table>
        </>
      )}
      {selected === undefined ? null : (
        <BuyOptionForm
          key={selected.listing.listing_id}
          option={selected.listing}
          position={selected.position}
          onBought={onBought}
        />
      )}
    </section>
  );
}

function OptionRow({ option, onBuy }: { option: Listing; onBuy: (p: GetListingReturnType) => void }) {
  const wallet = useWallet();
  const deployment = useDeployment();
  const now = useChainNow();
  const onChain = usePosition(wallet, deployment, option.listing_id);
  const reclaim = useExpireListing(wallet, deployment);
  const reclaimOnce = useSingleFlight(reclaim);
  const cancel = useCancelListing(wallet, deployment);
  const cancelOnce = useSingleFlight(cancel);
  const mine = wallet.account?.toLowerCase() === option.seller.toLowerCase();
  const expired = now !== undefined && now >= option.expiration;
  const p = onChain.data;
  return (
    <tr data-testid={`option-${option.listing_id}`}>
      <td>#{option.listing_id}</td>
      <td>
        <Address value={option.seller} />
      </td>
      <td>{p === undefined ? "…" : (KIND_NAME[p.kind] ?? p.kind)}</td>
      <td>
        <Amount value={option.amount} unit="sSTB" decimals={18} />
      </td>
      <td>{p === undefined ? "…" : formatUnitsOf(p.strikePrice, PAYMENT.decimals, PAYMENT.symbol)}</td>
      <td>
        <Amount value={option.price_per_token} unit={PAYMENT.symbol} decimals={PAYMENT.decimals} />
      </td>
      <td>
        <Time unix={option.expiration} /> <Countdown unix={option.expiration} passed="expired" />
      </td>
      <td>
        {expired ? (
          <RowAction
            mutation={reclaim}
            label="Reclaim escrow"
            pendingLabel="Returning…"
            ariaLabel={`Return the escrow of option ${option.listing_id} to its writer`}
            onClick={() => reclaimOnce(BigInt(option.listing_id))}
          />
        ) : mine ? (
          <RowAction
            mutation={cancel}
            label="Cancel"
            pendingLabel="Cancelling…"
            ariaLabel={`Cancel option ${option.listing_id}`}
            danger
            onClick={() => cancelOnce(BigInt(option.listing_id))}
          />
        ) : (
          <button
            type="button"
            aria-label={`Buy option ${option.listing_id}`}
            disabled={p === undefined}
            onClick={() => onBuy(p!)}
          >
            Buy
          </button>
        )}
      </td>
    </tr>
  );
}

function BuyOptionForm({
  option,
  position,
  onBought,
}: {
  option: Listing;
  position: GetListingReturnType;
  onBought: (id: number) => void;
}) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const [step, setStep] = useState<MarketStep>();
  const buy = useBuyOption(wallet, deployment);
  const buyOnce = useSingleFlight(buy);
  const terms = {
    listingId: BigInt(option.listing_id),
    maxPremium: parseUnits(String(option.price_per_token), PAYMENT.decimals),
  };
  const quote = useBuyOptionQuote(wallet, deployment, terms);
  const kind = KIND_NAME[position.kind];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (quote.data === undefined) return;
    buyOnce(
      { ...terms, onStep: setStep },
      { onSettled: () => setStep(undefined), onSuccess: () => onBought(option.listing_id) },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="buy-option-title" className="offer">
      <h3 id="buy-option-title">Buy option #{option.listing_id}</h3>
      <div aria-live="polite">
        {quote.isPending && quote.fetchStatus !== "idle" ? (
          <Loading what="the premium" />
        ) : quote.isError ? (
          <ErrorState error={quote.error} />
        ) : quote.data !== undefined ? (
          <p data-testid="buy-option-quote">
            You pay a premium of {pay(quote.data.payment)}, of which {pay(quote.data.fee)} is the market's fee (to the
            treasury) and the rest goes to the writer. You then hold the right, until {chainTime(option.expiration)}, to{" "}
            {kind === "put" ? "sell" : "buy"} up to {sstb(position.amount)} at {pay(position.strikePrice)} per sSTB; the
            writer's {kind === "put" ? "strike payment" : "sSTB"} stays in the market's escrow until then.
          </p>
        ) : null}
      </div>
      <button type="submit" className="primary" disabled={buy.isPending || quote.data === undefined}>
        {buy.isPending ? "Buying…" : "Buy the option"}
      </button>
      <StepStatus step={step} />
      {buy.isError ? <ErrorState error={buy.error} /> : null}
      {buy.isSuccess ? (
        <p className="state" role="status" data-testid="option-bought">
          Bought: you hold option #{option.listing_id}; exercise it below until {chainTime(option.expiration)}.
        </p>
      ) : null}
    </form>
  );
}

function WriteOption({ onWritten }: { onWritten: (id: number) => void }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const now = useChainNow();
  const write = useWriteOption(wallet, deployment);
  const writeOnce = useSingleFlight(write);
  const [kind, setKind] = useState<"call" | "put">("call");
  const [amount, setAmount] = useState("2");
  const [strike, setStrike] = useState("1.5");
  const [premium, setPremium] = useState("0.1");
  const [days, setDays] = useState("7");
  const [step, setStep] = useState<MarketStep>();
  const a = parseAmount(amount, "sSTB");
  const s = parseAmount(strike, PAYMENT.symbol, PAYMENT.decimals);
  const p = parseAmount(premium, PAYMENT.symbol, PAYMENT.decimals);
  const d = parseDays(days, "The expiry");
  const problem = !a.ok
    ? a.reason
    : !s.ok
      ? `Strike: ${s.reason}`
      : !p.ok
        ? `Premium: ${p.reason}`
        : !d.ok
          ? d.reason
          : now === undefined
            ? "Connect your wallet: the expiry is set by the chain's clock."
            : undefined;
  const expiry = now !== undefined && d.ok ? BigInt(Math.floor((now + d.days * 86_400) / 60) * 60) : undefined;
  const terms =
    problem === undefined && a.ok && s.ok && p.ok && expiry !== undefined
      ? { kind, amount: a.value, strike: s.value, premium: p.value, expiry }
      : undefined;
  const quote = useWriteQuote(wallet, deployment, terms);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (terms === undefined || quote.data === undefined) return;
    writeOnce(
      { ...terms, onStep: setStep },
      { onSettled: () => setStep(undefined), onSuccess: (r) => onWritten(Number(r.listingId)) },
    );
  };
  return (
    <section className="card" aria-labelledby="write-title">
      <h2 id="write-title">Write an option</h2>
      <form onSubmit={submit} noValidate className="grid">
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.target.value as "call" | "put")}>
            <option value="call">Call (you escrow the sSTB)</option>
            <option value="put">Put (you escrow the strike payment)</option>
          </select>
        </label>
        <label>
          Amount (sSTB)
          <input inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </label>
        <label>
          Strike per sSTB ({PAYMENT.symbol})
          <input inputMode="decimal" value={strike} onChange={(e) => setStrike(e.target.value)} />
        </label>
        <label>
          Premium per sSTB ({PAYMENT.symbol})
          <input inputMode="decimal" value={premium} onChange={(e) => setPremium(e.target.value)} />
        </label>
        <label>
          Expires in (days)
          <input type="number" min={1} max={365} value={days} onChange={(e) => setDays(e.target.value)} />
        </label>
        <div className="wide" aria-live="polite" data-testid="write-terms">
          {problem !== undefined ? (
            <p className="state warning">{problem}</p>
          ) : quote.isPending && quote.fetchStatus !== "idle" ? (
            <Loading what="the option's escrow" />
          ) : quote.isError ? (
            <ErrorState error={quote.error} />
          ) : quote.data !== undefined && expiry !== undefined ? (
            <p>
              The market escrows {tokenAmount(deployment, quote.data.approval)} from your wallet until the option is
              exercised or expires on {chainTime(Number(expiry))}; then what is left comes back to you (reclaim). A
              buyer pays {pay(quote.data.payment)} of premium, of which {pay(quote.data.fee)} is the market's fee: you
              receive {pay(quote.data.payment - quote.data.fee)}.
            </p>
          ) : null}
        </div>
        <button type="submit" className="primary" disabled={write.isPending || quote.data === undefined}>
          {write.isPending ? "Writing…" : "Write the option"}
        </button>
      </form>
      <StepStatus step={step} />
      {write.isError ? <ErrorState error={write.error} /> : null}
      {write.isSuccess ? (
        <p className="state" role="status" data-testid="written">
          Written: option #{String(write.data.listingId)} is for sale.
        </p>
      ) : null}
    </section>
  );
}

/**
 * An option by its id, as the market holds it (a sold option leaves the gateway's list): its holder
 * exercises it until expiry; after expiry anyone returns what is left of the escrow to the writer.
 */
function OptionPosition({ initial }: { initial: number | undefined }) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const now = useChainNow();
  const [text, setText] = useState(initial === undefined ? "" : String(initial));
  const [id, setId] = useState(initial);
  const position = usePosition(wallet, deployment, id);
  const reclaim = useExpireListing(wallet, deployment);
  const reclaimOnce = useSingleFlight(reclaim);
  const exercise = useExerciseOption(wallet, deployment);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = Number(text);
    setId(Number.isInteger(n) && n > 0 ? n : undefined);
  };
  const p = position.data;
  const expiry = p === undefined ? undefined : Number(p.expiration);
  const holder = p !== undefined && wallet.account?.toLowerCase() === p.counterparty.toLowerCase();
  const open = p !== undefined && (p.status === "active" || p.status === "sold");
  return (
    <section className="card" aria-labelledby="option-position-title">
      <h2 id="option-position-title">An option by its number</h2>
      <p className="muted">
        A bought option leaves the list above; find it here by its number (the page gives it when you write or buy) to
        exercise it or, after expiry, to return the escrow to its writer.
      </p>
      <form onSubmit={submit} className="grid">
        <label>
          Option number
          <input inputMode="numeric" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit">Show</button>
      </form>
      {id === undefined ? null : !canReadChain(wallet) ? null : position.isPending ? (
        <Loading what={`option #${id}`} />
      ) : position.isError ? (
        <ErrorState error={position.error} />
      ) : p === undefined || expiry === undefined ? null : p.market !== "options" ? (
        <p className="state warning">
          #{id} is not an option (it is on the {p.market} market).
        </p>
      ) : (
        <div data-testid="option-position">
          <p>
            Option #{id}: a {KIND_NAME[p.kind] ?? p.kind} on {sstb(p.amount)} at a strike of {pay(p.strikePrice)} per
            sSTB, {sstb(p.remaining)} still exercisable, status <strong>{p.status}</strong>. Writer{" "}
            <Address value={p.seller} />
            {p.status === "active" ? null : (
              <>
                , holder <Address value={p.counterparty} />
              </>
            )}
            . Expires {chainTime(expiry)} <Countdown unix={expiry} passed="expired" />
          </p>
          {!open ? null : now !== undefined && now >= expiry ? (
            <button type="button" disabled={reclaim.isPending} onClick={() => reclaimOnce(BigInt(id))}>
              {reclaim.isPending ? "Returning…" : `Return the escrow of option #${id} to its writer`}
            </button>
          ) : holder && p.status === "sold" && p.remaining > 0n ? (
            <ExerciseForm position={p} exercise={exercise} />
          ) : (
            <p className="muted">
              {p.status === "active"
                ? "Not sold yet: buy it from the list above."
                : "Only its holder can exercise it, until expiry; after expiry anyone can return the escrow to the writer."}
            </p>
          )}
          {exercise.isSuccess ? (
            <p className="state" role="status" data-testid="exercised">
              Exercised: {pay(exercise.data.payment)} at the strike ({pay(exercise.data.fee)} fee);{" "}
              {sstb(exercise.data.remaining)} left to exercise.
            </p>
          ) : null}
          {reclaim.isError ? <ErrorState error={reclaim.error} /> : null}
          {reclaim.isSuccess ? (
            <p className="state" role="status" data-testid="reclaimed">
              Reclaimed: what was left of the escrow is back with the writer.
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}

function ExerciseForm({
  position,
  exercise,
}: {
  position: GetListingReturnType;
  exercise: ReturnType<typeof useExerciseOption>;
}) {
  const deployment = useDeployment();
  const wallet = useWallet();
  const [text, setText] = useState(formatUnits(position.remaining, 18));
  const [step, setStep] = useState<MarketStep>();
  const exerciseOnce = useSingleFlight(exercise);
  const a = parseAmount(text, "sSTB");
  const problem = !a.ok
    ? a.reason
    : a.value > position.remaining
      ? `Option #${position.listingId} has ${sstb(position.remaining)} left to exercise.`
      : undefined;
  const terms = problem === undefined && a.ok ? { listingId: position.listingId, amount: a.value } : undefined;
  const quote = useExerciseQuote(wallet, deployment, terms);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (terms === undefined || quote.data === undefined) return;
    exerciseOnce({ ...terms, onStep: setStep }, { onSettled: () => setStep(undefined) });
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="exercise-title" className="offer">
      <h3 id="exercise-title">Exercise option #{String(position.listingId)}</h3>
      <label>
        Amount to exercise (sSTB)
        <input
          inputMode="decimal"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby="exercise-terms"
        />
      </label>
      <div id="exercise-terms" aria-live="polite">
        {problem !== undefined ? (
          <p className="state warning">{problem}</p>
        ) : quote.isPending && quote.fetchStatus !== "idle" ? (
          <Loading what="the strike payment" />
        ) : quote.isError ? (
          <ErrorState error={quote.error} />
        ) : quote.data !== undefined && a.ok ? (
          <p data-testid="exercise-quote">
            {quote.data.kind === "call"
              ? `You pay ${pay(quote.data.payment)} (the strike) and receive ${sstb(a.value)} from the escrow; the writer receives ${pay(quote.data.payment - quote.data.fee)} after the market's fee of ${pay(quote.data.fee)}.`
              : `You deliver ${sstb(a.value)} and receive ${pay(quote.data.payment - quote.data.fee)} from the escrow: the strike of ${pay(quote.data.payment)} less the market's fee of ${pay(quote.data.fee)}.`}{" "}
            The market takes {tokenAmount(deployment, quote.data.approval)} from your wallet.
          </p>
        ) : null}
      </div>
      <button type="submit" className="primary" disabled={exercise.isPending || quote.data === undefined}>
        {exercise.isPending ? "Exercising…" : "Exercise"}
      </button>
      <StepStatus step={step} />
      {exercise.isError ? <ErrorState error={exercise.error} /> : null}
    </form>
  );
}
