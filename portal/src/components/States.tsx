import type { ReactNode } from "react";

import { describeError } from "../lib/errors";

/** A query's loading state: announced to screen readers, distinct from empty and error. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="state loading" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** A query's empty state. */
export function Empty({ children }: { children: ReactNode }) {
  return <p className="state empty">{children}</p>;
}

/** What failed, in words (a wallet refusal, a contract's reason verbatim, the gateway unreachable, the API's message). */
export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const d = describeError(error);
  return (
    <div className={`state error error-${d.kind}`} role="alert">
      <strong>{d.title}</strong>
      <span data-testid="error-message">{d.message}</span>
      {retry === undefined ? null : (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A status badge (a redemption's, a provider's, a delivery's). */
export function Badge({ value }: { value: string }) {
  return <span className={`badge badge-${value}`}>{value}</span>;
}
