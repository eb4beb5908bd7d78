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

/** The largest amount a uint256 holds. */
const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * An amount an API client sends, in either of the API's forms (schemas.ts `sstbInput`): `name` as
 * whole tokens (a JSON number, read from its shortest decimal text, or a decimal string read exactly)
 * or `name_base_units` (an integer in base units as a decimal string). Exactly one; above 0; at most
 * `decimals` decimals; within uint256. Refusals are `invalid_parameter` naming the field.
 */
export function amountOf(input: Record<string, unknown>, name: string, decimals = 18): bigint {
  const whole = input[name];
  const exactName = `${name}_base_units`;
  const exact = input[exactName];
  if (whole !== undefined && exact !== undefined) {
    throw invalidParameter(name, `give ${name} or ${exactName}, not both`);
  }
  let units: bigint;
  if (exact !== undefined) {
    if (typeof exact !== "string" || !/^[0-9]{1,78}$/.test(exact)) {
      throw invalidParameter(exactName, "must be an integer in base units, as a decimal string");
    }
    units = BigInt(exact);
    if (units === 0n) throw invalidParameter(exactName, "must be greater than 0");
  } else if (typeof whole === "string") {
    const match = /^([0-9]{1,60})(?:\.([0-9]+))?$/.exec(whole);
    if (match === null) throw invalidParameter(name, 'must be a decimal number such as "12.5"');
    const fraction = match[2] ?? "";
    if (fraction.length > decimals) throw invalidParameter(name, `has more than ${decimals} decimals`);
    units = BigInt(match[1] + fraction.padEnd(decimals, "0"));
    if (units === 0n) throw invalidParameter(name, "must be greater than 0");
  } else if (typeof whole === "number") {
    units = decimals === 18 ? baseUnitsOf(whole, name) : exactUnits(whole, name, decimals);
  } else {
    throw invalidParameter(name, `is required (or ${exactName})`);
  }
  if (units > MAX_UINT256) throw invalidParameter(exact !== undefined ? exactName : name, "is too large");
  return units;
}

function exactUnits(value: number, parameter: string, decimals: number): bigint {
  if (!Number.isFinite(value)) throw invalidParameter(parameter, "must be a finite number");
  if (value <= 0) throw invalidParameter(parameter, "must be greater than 0");
  const units = toBaseUnits(value, decimals);
  if (units === undefined) throw invalidParameter(parameter, `has more than ${decimals} decimals`);
  return units;
}
