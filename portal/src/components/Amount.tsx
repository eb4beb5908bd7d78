import { formatAmount } from "../lib/format";

/** An amount with its unit. */
export function Amount({ value, unit, decimals = 6 }: { value: number; unit: string; decimals?: number }) {
  return <span className="amount">{formatAmount(value, unit, decimals)}</span>;
}
