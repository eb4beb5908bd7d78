import { invalidParameter } from "./errors.js";

/**
 * A whole-token amount from a JSON number -> base units, exactly: the number's shortest decimal
 * text (what `String(n)` prints, which round-trips to the same double) is shifted by `decimals`
 * without floating-point arithmetic. Returns undefined when that text has more fractional digits
 * than the token has (the amount is not representable in base units), or for a negative or
 * non-finite number.
 */
export function toBaseUnits(whole: number, decimals = 18): bigint | undefined {
  if (!Number.isFinite(whole) || whole < 0) return undefined;
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(whole));
  if (match === null) return undefined;
  const digits = match[1] + (match[2] ?? "");
  const scale = decimals - (match[2]?.length ?? 0) + Number(match[3] ?? 0);
  if (scale >= 0) return BigInt(digits) * 10n ** BigInt(scale);
  const cut = digits.length + scale;
  if (/[^0]/.test(digits.slice(Math.max(cut, 0)))) return undefined;
  return cut <= 0 ? 0n : BigInt(digits.slice(0, cut));
}

/**
 * A JSON number of whole sSTB (or another 18-decimal token) -> exact base units, or the
 * `invalid_parameter` error naming `parameter`: not finite, not above 0, or more than 18 decimals.
 */
export function baseUnitsOf(value: number, parameter = "sstb_amount"): bigint {
  if (!Number.isFinite(value)) throw invalidParameter(parameter, "must be a finite number");
  if (value <= 0) throw invalidParameter(parameter, "must be greater than 0");
  const units = toBaseUnits(value, 18);
  if (units === undefined) throw invalidParameter(parameter, "has more than 18 decimals (sSTB has 18)");
  return units;
}
