import { getAddress } from "ethers";

/** An amount with its unit, grouped in the reader's locale, with up to `decimals` fraction digits. */
export function formatAmount(value: number, unit: string, decimals = 6): string {
  return `${value.toLocaleString(undefined, { maximumFractionDigits: decimals })} ${unit}`;
}

/** The EIP-55 checksummed form of an address (as given when it is not one). */
export function checksummed(address: string): string {
  try {
    return getAddress(address);
  } catch {
    return address;
  }
}

/** A Unix time in the reader's time zone, and the same instant in UTC (shown on hover). */
export function formatTime(unix: number): { local: string; utc: string; iso: string } {
  const date = new Date(unix * 1000);
  return {
    local: date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }),
    utc: `${date.toISOString().replace("T", " ").slice(0, 19)} UTC`,
    iso: date.toISOString(),
  };
}

/** A duration in words: "5 h 12 min", "42 s". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3_600);
  const m = Math.floor((s % 3_600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min ${s % 60} s`;
  return `${s} s`;
}

/** "1 provider", "2 providers", "0 providers". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}
