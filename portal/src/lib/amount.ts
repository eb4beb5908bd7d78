import { formatUnits, parseUnits } from "ethers";

import { formatAmount } from "./format";

/** An amount the person typed: its base units, or why the form cannot take it (in words). */
export type ParsedAmount = { ok: true; value: bigint } | { ok: false; reason: string };

/**
 * Reads a token amount as a person types it ("1", "0.5", ".5"), refusing with the reason in words:
 * nothing typed, a sign, a comma for the decimals, anything not a number, more decimals than the
 * token has, or zero. The check runs before any quote or signature is asked for.
 */
export function parseAmount(text: string, unit: string, decimals = 18): ParsedAmount {
  const t = text.trim();
  if (t === "") return { ok: false, reason: `Enter an amount of ${unit}.` };
  if (/^-/.test(t)) return { ok: false, reason: "Enter an amount above 0." };
  const comma = /^(\d+),(\d+)$/.exec(t);
  if (comma !== null) {
    return { ok: false, reason: `Use a point for the decimals: ${comma[1]}.${comma[2]}, not ${t}.` };
  }
  if (!/^(\d+\.?\d*|\.\d+)$/.test(t)) {
    return { ok: false, reason: `Enter the amount as a number of ${unit}, such as 1 or 0.5.` };
  }
  const fraction = t.includes(".") ? t.split(".")[1] : "";
  if (fraction.length > decimals) return { ok: false, reason: `${unit} has at most ${decimals} decimal places.` };
  const value = parseUnits(t.startsWith(".") ? `0${t}` : t.endsWith(".") ? `${t}0` : t, decimals);
  if (value === 0n) return { ok: false, reason: "Enter an amount above 0." };
  return { ok: true, value };
}

/** Base units as a number of whole tokens (for display with {@link formatAmount}). */
export function wholeUnits(value: bigint, decimals = 18): number {
  return Number(formatUnits(value, decimals));
}

/** Base units of a token as "1.5 mUSDC": whole units, grouped, no trailing zeros. */
export function formatUnitsOf(value: bigint, decimals: number, unit: string): string {
  return formatAmount(wholeUnits(value, decimals), unit, decimals);
}
