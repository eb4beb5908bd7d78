import { invalidParameter } from "../http/errors.js";

const DECIMALS = 18;

/**
 * A JSON number of whole sSTB -> exact 18-decimal base units. The number is read from its shortest
 * round-trip decimal text (`String(n)`: 0.1 is "0.1", not 0.1000000000000000055...), which is the
 * text a client wrote for any amount of up to 15 significant digits; exponents are expanded
 * exactly. More than 18 decimals, zero, negatives and non-finite numbers are refused.
 */
export function baseUnitsOf(value: number, parameter = "sstb_amount"): bigint {
  if (!Number.isFinite(value)) throw invalidParameter(parameter, "must be a finite number");
  if (value <= 0) throw invalidParameter(parameter, "must be greater than 0");
  const match = /^(\d+)(?:\.(\d+))?(?:e([-+]\d+))?$/.exec(String(value));
  if (match === null) throw invalidParameter(parameter, "is not a decimal number");
  const [, whole, fraction = "", exponentText = "0"] = match;
  const exponent = Number(exponentText);
  // digits * 10^(exponent - fraction length) whole sSTB
  const digits = (whole + fraction).replace(/^0+(?=\d)/, "");
  const scale = exponent - fraction.length + DECIMALS;
  if (scale < 0) {
    const dropped = digits.slice(digits.length + scale);
    if (/[^0]/.test(dropped) || digits.length + scale < 0) {
      throw invalidParameter(parameter, `has more than ${DECIMALS} decimals (sSTB has ${DECIMALS})`);
    }
    return BigInt(digits.slice(0, digits.length + scale) || "0");
  }
  return BigInt(digits) * 10n ** BigInt(scale);
}
