import { NavLink } from "react-router";
import type { TokenApproval } from "@compute-capacity/sdk";

import { ErrorState } from "../../components/States";
import type { Deployment } from "../../config/deployment";
import { formatUnitsOf } from "../../lib/amount";
import { formatTime } from "../../lib/format";
import type { MarketStep } from "./api";
import { PAYMENT, STEP_TEXT } from "./payment";

/** A token amount of the markets (sSTB or the payment token), named by the token's address. */
export function tokenAmount(deployment: Deployment, approval: TokenApproval): string {
  return approval.token.toLowerCase() === deployment.chain.contracts.SSTB?.toLowerCase()
    ? formatUnitsOf(approval.amount, 18, "sSTB")
    : formatUnitsOf(approval.amount, PAYMENT.decimals, PAYMENT.symbol);
}

/** A payment-token amount ("1.5 mUSDC"). */
export const pay = (value: bigint) => formatUnitsOf(value, PAYMENT.decimals, PAYMENT.symbol);
/** An sSTB amount ("2 sSTB"). */
export const sstb = (value: bigint) => formatUnitsOf(value, 18, "sSTB");
/** A chain time as a sentence says it (UTC, since the chain's clock is meant). */
export const chainTime = (unix: number) => `${formatTime(unix).utc} (chain time)`;

/** What the wallet is being asked for now, during a market write. */
export function StepStatus({ step }: { step: MarketStep | undefined }) {
  return step === undefined ? null : (
    <p className="state" role="status">
      {STEP_TEXT[step]}
    </p>
  );
}

/** The three markets' pages, linked from each. */
export function MarketTabs() {
  return (
    <nav aria-label="Markets" className="tabs">
      <NavLink to="/markets" end>
        Spot
      </NavLink>{" "}
      · <NavLink to="/markets/futures">Futures</NavLink> · <NavLink to="/markets/options">Options</NavLink>
    </nav>
  );
}

/** Reads the number of days a form asks for (1 to 365), or why not. */
export function parseDays(text: string, what: string): { ok: true; days: number } | { ok: false; reason: string } {
  const d = Number(text);
  return Number.isFinite(d) && d > 0 && d <= 365
    ? { ok: true, days: d }
    : { ok: false, reason: `${what} is 1 to 365 days away.` };
}

/**
 * A position's one-click action in a table row (cancel, return the escrow): disabled and named by
 * what it is doing while it runs, its failure shown under it.
 */
export function RowAction(props: {
  mutation: { isPending: boolean; isError: boolean; error: unknown };
  label: string;
  pendingLabel: string;
  ariaLabel: string;
  danger?: boolean;
  onClick: () => void;
}) {
  const { mutation } = props;
  return (
    <>
      <button
        type="button"
        className={props.danger === true ? "danger" : undefined}
        disabled={mutation.isPending}
        aria-label={props.ariaLabel}
        onClick={props.onClick}
      >
        {mutation.isPending ? props.pendingLabel : props.label}
      </button>
      {mutation.isError ? <ErrorState error={mutation.error} /> : null}
    </>
  );
}
