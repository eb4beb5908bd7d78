import { useEffect, useState } from "react";

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

/** Time left until `unix`, counting down every second ("overdue" once passed). */
export function Countdown({ unix }: { unix: number }) {
  const [now, setNow] = useState(() => Date.now() / 1000);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() / 1000), 1_000);
    return () => clearInterval(timer);
  }, []);
  const left = unix - now;
  return (
    <span className={left > 0 ? "countdown" : "countdown overdue"} data-testid="countdown">
      {left > 0 ? `${formatDuration(left)} left` : `overdue by ${formatDuration(-left)}`}
    </span>
  );
}
