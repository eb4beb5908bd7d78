import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { FEE_OPTION_NAMES } from "@compute-capacity/sdk";
import type { BridgeFee, BridgeTransaction, FeeOptionName } from "@compute-capacity/sdk";

import { ErrorState, Loading } from "../../components/States";
import { parseAmount, formatUnitsOf } from "../../lib/amount";
import { useDeployment } from "../../lib/deployment";
import { formatDuration, formatTime, plural } from "../../lib/format";
import { useSingleFlight } from "../../lib/mutations";
import { useWallet } from "../../lib/wallet";
import type { WalletState } from "../../lib/wallet";
import {
  bridgeQuoteQueryOptions,
  feeFundsQueryOptions,
  isOn,
  sstbBalanceQueryOptions,
  useBridgeStatus,
  useExecuteQueued,
  useSendBridgeTransfer,
} from "./api";
import type { BridgeChain, BridgeStep } from "./api";

const STEP_TEXT: Record<BridgeStep, string> = {
  approve: "Approve the sSTB (and the fee's token) for the bridge in your wallet (only if the allowance is short)…",
  send: "Confirm the transfer in your wallet…",
};

const FEE_OPTION_TEXT: Record<FeeOptionName, string> = {
  default: "the stablecoin (the default)",
  service: "sSTB",
  stb_gov: "STBGOV, the governance token",
};

const sstb = (value: bigint) => formatUnitsOf(value, 18, "sSTB");

/**
 * sSTB between the deployment's chains over CCIP: the source is the chain the wallet is on (the page
 * asks to switch it), the fee of every option is quoted by the source bridge before anything is
 * signed, and the transfer is followed by its CCIP message id from the source to the destination.
 */
export function Bridge() {
  const deployment = useDeployment();
  const wallet = useWallet();
  const chains = deployment.chains;
  const [fromId, setFromId] = useState(chains[0]!.chain_id);
  const [toId, setToId] = useState(chains[1]?.chain_id ?? chains[0]!.chain_id);
  const [messageId, setMessageId] = useState<string>();
  // the source follows the wallet: a wallet moved to another chain of the deployment sends from there
  useEffect(() => {
    const on = chains.find((c) => c.chain_id === wallet.chainId);
    if (on === undefined) return;
    setFromId(on.chain_id);
    setToId((to) => (to === on.chain_id ? chains.find((c) => c.chain_id !== on.chain_id)!.chain_id : to));
  }, [wallet.chainId, chains]);
  const from = chains.find((c) => c.chain_id === fromId)!;
  const to = chains.find((c) => c.chain_id === toId)!;
  return (
    <>
      <h1>Bridge</h1>
      <p>
        Move sSTB between the deployment's chains over Chainlink CCIP. The bridge burns it on the chain you send from
        and mints it to your address on the other; it takes a protocol fee in the option you choose and CCIP's fee in
        the chain's gas. Your wallet signs on the chain you send from.
      </p>
      {chains.length < 2 ? (
        <p className="state warning">This deployment has one chain: there is nowhere to bridge to.</p>
      ) : (
        <SendForm
          from={from}
          to={to}
          chains={chains}
          onFrom={setFromId}
          onTo={setToId}
          onSent={(id) => setMessageId(id)}
          key={`${from.chain_id}`}
        />
      )}
      <FollowTransfer onFollow={setMessageId} />
      {messageId === undefined ? null : (
        <TransferStatus messageId={messageId} chains={chains} wallet={wallet} key={messageId} />
      )}
    </>
  );
}

function SendForm(props: {
  from: BridgeChain;
  to: BridgeChain;
  chains: BridgeChain[];
  onFrom: (chainId: number) => void;
  onTo: (chainId: number) => void;
  onSent: (messageId: string) => void;
}) {
  const { from, to, chains } = props;
  const deployment = useDeployment();
  const wallet = useWallet();
  const [amountText, setAmountText] = useState("");
  const [feeOption, setFeeOption] = useState<FeeOptionName>("default");
  const [step, setStep] = useState<BridgeStep>();
  const stablecoin = deployment.environment === "devnet" ? "mUSDC" : "USDC";
  const onSource = isOn(wallet, from);
  function feeTokenName(fee: BridgeFee): string {
    const token = fee.token.toLowerCase();
    if (token === from.contracts.SSTB?.toLowerCase()) return "sSTB";
    if (token === from.contracts.GovernanceToken?.toLowerCase()) return "STBGOV";
    return stablecoin;
  }
  function feeText(fee: BridgeFee): string {
    return formatUnitsOf(fee.amount, feeTokenName(fee) === stablecoin ? 6 : 18, feeTokenName(fee));
  }
  const balance = useQuery(sstbBalanceQueryOptions(wallet, from));
  const parsed = parseAmount(amountText, "sSTB");
  const tooMuch = parsed.ok && balance.data !== undefined && parsed.value > balance.data;
  const terms = parsed.ok && !tooMuch && from.chain_id !== to.chain_id ? { from, to, amount: parsed.value } : undefined;
  const quote = useQuery(bridgeQuoteQueryOptions(wallet, terms));
  const fee = quote.data?.fees[feeOption];
  const funds = useQuery(feeFundsQueryOptions(wallet, from, fee?.token));
  // what the wallet would be short of, said before anything is signed: the fee in its token (with the
  // amount when both are sSTB) and CCIP's fee in the chain's gas
  const feeProblem = (() => {
    if (terms === undefined || quote.data === undefined || fee === undefined || funds.data === undefined) return;
    const feeInSstb = fee.token.toLowerCase() === from.contracts.SSTB?.toLowerCase();
    const needed = fee.amount + (feeInSstb ? terms.amount : 0n);
    if (funds.data.tokens < needed) {
      return feeInSstb
        ? `Your sSTB on ${from.label} is ${sstb(funds.data.tokens)}: less than ${sstb(terms.amount)} plus the fee of ${feeText(fee)}. Send less or pay the fee in another token.`
        : `Your ${feeTokenName(fee)} on ${from.label} is ${feeText({ ...fee, amount: funds.data.tokens })}: less than the fee of ${feeText(fee)}. Choose another fee option or get some first.`;
    }
    const gas = from.native_currency;
    if (funds.data.gas < quote.data.transportFee) {
      return `Your ${gas.symbol} on ${from.label} is ${formatUnitsOf(funds.data.gas, gas.decimals, gas.symbol)}: less than CCIP's fee of ${formatUnitsOf(quote.data.transportFee, gas.decimals, gas.symbol)}.`;
    }
    return undefined;
  })();
  const send = useSendBridgeTransfer(wallet);
  const sendOnce = useSingleFlight(send);
  const switchChain = useMutation({ mutationFn: (chainId: number) => wallet.switchChain(chainId) });
  const switchOnce = useSingleFlight(switchChain);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // the button is disabled then; an Enter in the form must not get around it
    if (terms === undefined || quote.data === undefined || feeProblem !== undefined) return;
    sendOnce(
      { terms, feeOption, onStep: setStep },
      {
        onSettled: () => setStep(undefined),
        onSuccess: (r) => {
          setAmountText("");
          props.onSent(r.messageId);
        },
      },
    );
  };
  const problem =
    amountText === ""
      ? undefined
      : !parsed.ok
        ? parsed.reason
        : tooMuch
          ? `Your sSTB on ${from.label} is ${sstb(balance.data!)}: less than ${sstb(parsed.value)}.`
          : undefined;
  return (
    <section className="card" aria-labelledby="send-title">
      <h2 id="send-title">Send sSTB to another chain</h2>
      <form onSubmit={submit} noValidate className="grid">
        <ChainSelect label="From" value={from} chains={chains} onChange={props.onFrom} />
        <ChainSelect
          label="To"
          value={to}
          chains={chains.filter((c) => c.chain_id !== from.chain_id)}
          onChange={props.onTo}
        />
        <label>
          Amount (sSTB)
          <input inputMode="decimal" value={amountText} onChange={(e) => setAmountText(e.target.value)} />
        </label>
        <fieldset className="wide">
          <legend>Pay the bridge's fee in</legend>
          {FEE_OPTION_NAMES.map((option) => (
            <label key={option} className="inline">
              <input
                type="radio"
                name="fee-option"
                value={option}
                checked={feeOption === option}
                onChange={() => setFeeOption(option)}
              />{" "}
              {FEE_OPTION_TEXT[option]}
              {quote.data === undefined ? null : `: ${feeText(quote.data.fees[option])}`}
              {quote.data === undefined || quote.data.fees[option].discountBps === 0n
                ? null
                : ` (${Number(quote.data.fees[option].discountBps) / 100}% off)`}
            </label>
          ))}
        </fieldset>
        <div className="wide" aria-live="polite" data-testid="bridge-quote">
          {!onSource ? (
            <p className="state warning">
              {wallet.account === undefined
                ? "Connect your wallet to send."
                : `Your wallet is on ${chains.find((c) => c.chain_id === wallet.chainId)?.label ?? `chain ${wallet.chainId}`}; the transfer is signed on ${from.label}.`}{" "}
              {wallet.account === undefined ? null : (
                <button type="button" onClick={() => switchOnce(from.chain_id)} disabled={switchChain.isPending}>
                  {switchChain.isPending ? "Switching…" : `Switch to ${from.label}`}
                </button>
              )}
            </p>
          ) : balance.data === undefined ? null : (
            <p data-testid="bridge-balance">
              You hold {sstb(balance.data)} on {from.label}.
            </p>
          )}
          {problem !== undefined || feeProblem !== undefined ? (
            <p className="state warning">{problem ?? feeProblem}</p>
          ) : quote.isPending && quote.fetchStatus !== "idle" ? (
            <Loading what="the bridge's fees" />
          ) : quote.isError ? (
            <ErrorState error={quote.error} />
          ) : quote.data !== undefined && terms !== undefined ? (
            <p>
              The bridge burns {sstb(terms.amount)} on {from.label} and mints {sstb(terms.amount)} to you on {to.label}.
              You pay {feeText(quote.data.fees[feeOption])} of protocol fee and{" "}
              {formatUnitsOf(quote.data.transportFee, from.native_currency.decimals, from.native_currency.symbol)} of
              CCIP's fee (the transaction's value).
            </p>
          ) : null}
        </div>
        {switchChain.isError ? <ErrorState error={switchChain.error} /> : null}
        <button
          type="submit"
          className="primary"
          disabled={send.isPending || quote.data === undefined || !onSource || feeProblem !== undefined}
        >
          {send.isPending ? "Sending…" : `Send to ${to.label}`}
        </button>
      </form>
      {step === undefined ? null : (
        <p className="state" role="status">
          {STEP_TEXT[step]}
        </p>
      )}
      {send.isError ? <ErrorState error={send.error} /> : null}
    </section>
  );
}

/** A choice of one of `chains`, by its label; `onChange` gets the chain id. */
function ChainSelect(props: {
  label: string;
  value: BridgeChain;
  chains: BridgeChain[];
  onChange: (chainId: number) => void;
}) {
  return (
    <label>
      {props.label}
      <select value={props.value.chain_id} onChange={(e) => props.onChange(Number(e.target.value))}>
        {props.chains.map((c) => (
          <option key={c.chain_id} value={c.chain_id}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A transfer sent earlier (or by someone else), followed by its CCIP message id. */
function FollowTransfer({ onFollow }: { onFollow: (messageId: string) => void }) {
  const [text, setText] = useState("");
  const id = text.trim();
  const valid = /^0x[0-9a-fA-F]{64}$/.test(id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) onFollow(id.toLowerCase());
  };
  return (
    <section className="card" aria-labelledby="follow-title">
      <h2 id="follow-title">Follow a transfer</h2>
      <form onSubmit={submit} noValidate className="grid">
        <label className="wide">
          CCIP message id
          <input
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="0x…"
            spellCheck={false}
            aria-invalid={id !== "" && !valid}
            aria-describedby={id !== "" && !valid ? "follow-hint" : undefined}
          />
        </label>
        {id !== "" && !valid ? (
          <p className="state warning wide" id="follow-hint">
            A message id is 0x followed by 64 hexadecimal digits (the transfer's acknowledgement and the source chain's
            `MessageSent` event name it).
          </p>
        ) : null}
        <button type="submit" disabled={!valid}>
          Follow
        </button>
      </form>
    </section>
  );
}

const STATUS_TEXT: Record<string, string> = {
  pending: "sent; on its way to the destination chain",
  queued: "arrived; its delivery waits in the destination's queue (see below)",
  completed: "delivered",
  failed: "failed on arrival",
};

/** A transfer from its source to its destination, as the gateway's indexers of both chains see it. */
function TransferStatus({
  messageId,
  chains,
  wallet,
}: {
  messageId: string;
  chains: BridgeChain[];
  wallet: WalletState;
}) {
  const status = useBridgeStatus(messageId);
  const switchChain = useMutation({ mutationFn: (chainId: number) => wallet.switchChain(chainId) });
  const switchOnce = useSingleFlight(switchChain);
  const t = status.data;
  const destination = t === undefined ? undefined : chains.find((c) => c.name === t.destination_chain);
  const labelOf = (name: string) => chains.find((c) => c.name === name)?.label ?? name;
  return (
    <section className="card" aria-labelledby="status-title">
      <h2 id="status-title">Transfer {`${messageId.slice(0, 10)}…`}</h2>
      {status.isPending ? (
        <Loading what="the transfer" />
      ) : status.isError ? (
        <ErrorState error={status.error} retry={() => void status.refetch()} />
      ) : (
        <div data-testid="bridge-status">
          <p>
            {formatUnitsOf(BigInt(t!.amount_base_units), 18, t!.token)} from {labelOf(t!.source_chain)} to{" "}
            {labelOf(t!.destination_chain)}: status <strong>{t!.status}</strong> ({STATUS_TEXT[t!.status] ?? t!.status}
            ).
          </p>
          <p className="muted">
            Sent {formatTime(t!.created_at).utc} by {labelOf(t!.source_chain)}'s clock
            {t!.completed_at === null
              ? ""
              : `; delivered ${formatTime(t!.completed_at).utc} by ${labelOf(t!.destination_chain)}'s clock`}
            . CCIP message id <code>{t!.message_id}</code>.
          </p>
          {t!.queue === null || destination === undefined ? null : (
            <QueuedDelivery
              messageId={t!.message_id}
              token={t!.token}
              queue={t!.queue}
              destination={destination}
              wallet={wallet}
              onSwitch={() => switchOnce(destination.chain_id)}
              switching={switchChain.isPending}
            />
          )}
          {t!.status === "completed" && destination !== undefined && wallet.chainId !== destination.chain_id ? (
            <button type="button" onClick={() => switchOnce(destination.chain_id)} disabled={switchChain.isPending}>
              {switchChain.isPending ? "Switching…" : `Switch your wallet to ${destination.label}`}
            </button>
          ) : null}
          {switchChain.isError ? <ErrorState error={switchChain.error} /> : null}
        </div>
      )}
    </section>
  );
}

type BridgeQueue = NonNullable<BridgeTransaction["queue"]>;

/**
 * Where a queued delivery stands in its destination's queue, when it can complete by that chain's clock
 * (the gateway reads the queue, the limit and the pause live), and the button that completes it, which
 * anyone may press once it heads its queue and the limit holds its next installment.
 */
function QueuedDelivery(props: {
  messageId: string;
  token: string;
  queue: BridgeQueue;
  destination: BridgeChain;
  wallet: WalletState;
  onSwitch: () => void;
  switching: boolean;
}) {
  const { queue: q, destination, wallet } = props;
  const execute = useExecuteQueued(wallet);
  const executeOnce = useSingleFlight(execute);
  const tokens = (value: bigint | string) => formatUnitsOf(BigInt(value), 18, props.token);
  const remaining = BigInt(q.remaining_base_units);
  const next = BigInt(q.next_installment_base_units);
  const clock = `${destination.label}'s clock`;
  const onDestination = isOn(wallet, destination);
  const pause = !q.paused
    ? ""
    : q.paused_until === null
      ? ` The bridge there is paused by governance until governance lifts the pause.`
      : ` The bridge there is paused until ${formatTime(q.paused_until).utc} by ${clock}.`;
  return (
    <div data-testid="bridge-queue">
      <p>
        {q.position === 0
          ? "It is next in its queue"
          : `${plural(q.position, "transfer")} from the same chain ${q.position === 1 ? "waits" : "wait"} before it, with ${tokens(q.waiting_before_base_units)} still to deliver`}
        ; it has {tokens(remaining)} to deliver.{" "}
        {q.rate_limited
          ? `${destination.label} lets in ${tokens(q.available_base_units)} now from there (at most ${tokens(q.capacity_base_units)} at once, refilling ${tokens(q.refill_per_second_base_units)} a second).`
          : `${destination.label} has no limit on it.`}
        {pause}
      </p>
      <p data-testid="bridge-queue-eta">
        {q.completes_at === null
          ? q.paused
            ? "No time can be given while governance's pause lasts."
            : "Its route's limit does not refill: it completes only once governance raises the limit."
          : q.completes_at <= q.as_of
            ? "All of it can be delivered now."
            : `All of it can be delivered in about ${formatDuration(q.completes_at - q.as_of)} (at ${formatTime(q.completes_at).utc} by ${clock}), if each delivery before it is completed as soon as the limit allows.`}
      </p>
      {q.executable_now ? (
        onDestination ? (
          <button
            type="button"
            className="primary"
            disabled={execute.isPending}
            onClick={() => executeOnce({ chain: destination, messageId: props.messageId, amount: next })}
          >
            {execute.isPending
              ? "Delivering…"
              : next < remaining
                ? `Deliver ${tokens(next)} of it now (one installment)`
                : `Deliver it now (${tokens(next)})`}
          </button>
        ) : (
          <p className="state">
            It can be delivered now by anyone, on {destination.label}.{" "}
            {wallet.account === undefined ? null : (
              <button type="button" onClick={props.onSwitch} disabled={props.switching}>
                {props.switching ? "Switching…" : `Switch your wallet to ${destination.label} to deliver it`}
              </button>
            )}
          </p>
        )
      ) : (
        <p className="muted">
          {q.position > 0
            ? "Anyone may deliver it once the transfers before it have gone and the limit holds its next installment."
            : "Anyone may deliver it once the limit holds its next installment" +
              (q.paused ? " and the pause is over." : ".")}
        </p>
      )}
      {execute.isError ? <ErrorState error={execute.error} /> : null}
      {execute.isSuccess ? (
        <p className="state success" role="status">
          Delivered {tokens(execute.variables.amount)} on {destination.label}.
        </p>
      ) : null}
    </div>
  );
}
