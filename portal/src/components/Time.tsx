import { useChainNow } from "../lib/chain";
import { formatDuration, formatTime } from "../lib/format";

/** A time in the reader's time zone; the UTC value on hover. */
export function Time({ unix }: { unix: number | null | undefined }) {
  if (unix === null || unix === undefined) return <span className="muted">—</span>;
  const t = formatTime(unix);
  return (
    <time dateTime={t.iso} title={t.utc}>
      {t.local}
    </time>
  );
}

/**
 * Time left until `unix` by the chain's clock ({@link useChainNow}: deadlines and lease ends are
 * block times, which need not be the computer's), counting down every second. Until the chain has
 * been read (no wallet on the deployment's chain) it says so rather than guess from the computer.
 */
export function Countdown({
  unix,
  testId = "countdown",
  passed,
}: {
  unix: number;
  testId?: string;
  /** What to say once `unix` has passed (default: "overdue by …"). */
  passed?: string;
}) {
  const now = useChainNow();
  if (now === undefined) {
    return (
      <span className="countdown muted" data-testid={testId}>
        time left shown once your wallet is connected (it is counted by the chain's clock)
      </span>
    );
  }
  const left = unix - now;
  return (
    <span className={left > 0 ? "countdown" : "countdown overdue"} data-testid={testId}>
      {left > 0 ? `${formatDuration(left)} left` : (passed ?? `overdue by ${formatDuration(-left)}`)}
    </span>
  );
}
