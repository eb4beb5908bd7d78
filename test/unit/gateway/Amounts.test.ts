import { expect } from "chai";

import { amountOf } from "../../../gateway/http/amounts.js";
import { ApiError } from "../../../gateway/http/errors.js";
import { amount } from "../../../gateway/http/format.js";

/** The invalid_parameter refusal of `read` (fails if it does not refuse). */
function refusal(read: () => unknown): { parameter: string; reason: string } {
  try {
    read();
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).code).to.equal("invalid_parameter");
    return (error as ApiError).details as { parameter: string; reason: string };
  }
  return expect.fail("the amount was accepted");
}

describe("amounts in and out of the API (gateway/http/amounts.ts, format.ts)", function () {
  describe("amountOf: what a write takes", function () {
    it("reads a JSON number, a decimal string exactly, or base units, to the same base units", function () {
      expect(amountOf({ sstb_amount: 12.5 }, "sstb_amount")).to.equal(12_500_000_000_000_000_000n);
      expect(amountOf({ sstb_amount: "12.5" }, "sstb_amount")).to.equal(12_500_000_000_000_000_000n);
      expect(amountOf({ sstb_amount_base_units: "12500000000000000000" }, "sstb_amount")).to.equal(
        12_500_000_000_000_000_000n,
      );
      // beyond a double's 15-17 digits: only the string forms are exact
      expect(amountOf({ sstb_amount: "123456789.123456789012345678" }, "sstb_amount")).to.equal(
        123_456_789_123_456_789_012_345_678n,
      );
      expect(amountOf({ sstb_amount: 123456789.123456789012345678 }, "sstb_amount")).to.not.equal(
        123_456_789_123_456_789_012_345_678n,
      );
      expect(amountOf({ sstb_amount_base_units: "1" }, "sstb_amount")).to.equal(1n);
      expect(amountOf({ amount: "0.000001" }, "amount", 6)).to.equal(1n);
    });

    it("refuses both forms at once, neither, zero, too many decimals, malformed text and more than uint256", function () {
      expect(refusal(() => amountOf({ sstb_amount: 1, sstb_amount_base_units: "1" }, "sstb_amount"))).to.deep.equal({
        parameter: "sstb_amount",
        reason: "give sstb_amount or sstb_amount_base_units, not both",
      });
      expect(refusal(() => amountOf({}, "sstb_amount")).reason).to.equal("is required (or sstb_amount_base_units)");
      for (const input of [{ sstb_amount: 0 }, { sstb_amount: "0.0" }, { sstb_amount_base_units: "0" }]) {
        expect(refusal(() => amountOf(input, "sstb_amount")).reason, JSON.stringify(input)).to.equal(
          "must be greater than 0",
        );
      }
      expect(refusal(() => amountOf({ sstb_amount: "1.0000000000000000001" }, "sstb_amount")).reason).to.equal(
        "has more than 18 decimals",
      );
      expect(refusal(() => amountOf({ amount: "0.0000001" }, "amount", 6)).reason).to.equal("has more than 6 decimals");
      for (const text of ["1e3", "-1", " 1", "1.", "0x10", ""]) {
        expect(refusal(() => amountOf({ sstb_amount: text }, "sstb_amount")).parameter, text).to.equal("sstb_amount");
      }
      expect(refusal(() => amountOf({ sstb_amount_base_units: "12.5" }, "sstb_amount")).parameter).to.equal(
        "sstb_amount_base_units",
      );
      expect(
        refusal(() => amountOf({ sstb_amount_base_units: (1n << 256n).toString() }, "sstb_amount")).reason,
      ).to.equal("is too large");
    });
  });

  describe("amount: what an answer shows", function () {
    it("gives the JSON number and the exact decimal string of the same base units", function () {
      expect(amount("sstb_amount", 12_500_000_000_000_000_000n)).to.deep.equal({
        sstb_amount: 12.5,
        sstb_amount_base_units: "12500000000000000000",
      });
      // an amount a double cannot hold: the number is rounded, the string is exact
      const exact = amount("x", "123456789123456789012345678");
      expect(exact.x_base_units).to.equal("123456789123456789012345678");
      expect(exact.x).to.equal(123456789.12345679);
      expect(amount("price", "2400000", 6)).to.deep.equal({ price: 2.4, price_base_units: "2400000" });
      expect(amount("fee", null)).to.deep.equal({ fee: 0, fee_base_units: "0" });
    });
  });
});
