import { expect } from "chai";
import { AbiCoder, Interface, concat, id } from "ethers";
import type { InterfaceAbi } from "ethers";

import { redemptionManagerAbi, sstbAbi } from "@compute-capacity/sdk";

import { ApiError } from "../../../gateway/api/errors.js";
import { baseUnitsOf } from "../../../gateway/api/amounts.js";
import { canonicalJson } from "../../../gateway/writes/canonical.js";
import { decodeRevert, revertToApiError } from "../../../gateway/writes/reverts.js";

describe("write inputs and revert decoding", function () {
  describe("baseUnitsOf (whole sSTB as a JSON number -> base units)", function () {
    it("converts from the number's shortest decimal text, exactly", function () {
      const cases: Array<[number, bigint]> = [
        [1, 10n ** 18n],
        [0.1, 10n ** 17n],
        [2.5, 25n * 10n ** 17n],
        [123456.789, 123456789n * 10n ** 15n],
        [1e-18, 1n],
        [3e-7, 3n * 10n ** 11n],
        [1.5e-17, 15n],
        [1e21, 10n ** 39n],
        [0.000001, 10n ** 12n],
      ];
      for (const [value, expected] of cases) expect(baseUnitsOf(value), String(value)).to.equal(expected);
    });

    it("refuses more than 18 decimals, zero, negatives and non-finite numbers with invalid_parameter", function () {
      for (const value of [1e-19, 1.5e-18, 0.1234567890123456789e-3, 0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(() => baseUnitsOf(value, "amount"), String(value))
          .to.throw(ApiError)
          .with.property("details")
          .that.has.property("parameter", "amount");
      }
    });
  });

  describe("canonicalJson", function () {
    it("sorts keys at every depth and keeps arrays in order", function () {
      expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "x" } })).to.equal(
        '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
      );
      expect(canonicalJson({ a: undefined, b: null })).to.equal('{"b":null}');
    });
  });

  describe("decodeRevert", function () {
    const coder = AbiCoder.defaultAbiCoder();
    it("gives a reason string verbatim", function () {
      const data = concat(["0x08c379a0", coder.encode(["string"], ["Not fulfilled yet"])]);
      expect(decodeRevert(data)).to.deep.equal({
        name: "Error",
        message: "Not fulfilled yet",
        args: { reason: "Not fulfilled yet" },
      });
    });

    it("names the protocol's custom errors with their arguments, across the manager, registry and sSTB", function () {
      const manager = new Interface(redemptionManagerAbi as InterfaceAbi);
      const below = decodeRevert(manager.encodeErrorResult("RedemptionBelowMinimum", [5n, 10n ** 18n]));
      expect(below).to.deep.equal({
        name: "RedemptionBelowMinimum",
        message: `RedemptionBelowMinimum(amount=5, minimum=${10n ** 18n})`,
        args: { amount: "5", minimum: (10n ** 18n).toString() },
      });
      const sstb = new Interface(sstbAbi as InterfaceAbi);
      const allowance = decodeRevert(
        sstb.encodeErrorResult("ERC20InsufficientAllowance", ["0x" + "11".repeat(20), 1n, 2n]),
      );
      expect(allowance.name).to.equal("ERC20InsufficientAllowance");
      expect(allowance.args.needed).to.equal("2");
    });

    it("reports panics and unknown data without failing", function () {
      expect(decodeRevert(concat(["0x4e487b71", coder.encode(["uint256"], [0x11])])).message).to.equal("panic 0x11");
      const unknown = decodeRevert(id("Nothing()").slice(0, 10));
      expect(unknown.name).to.equal("unknown");
    });

    it("maps an ethers revert to invalid_parameter and leaves other errors alone", function () {
      const data = concat(["0x08c379a0", coder.encode(["string"], ["Already confirmed"])]);
      const mapped = revertToApiError({ code: "CALL_EXCEPTION", data }) as ApiError;
      expect(mapped).to.be.instanceOf(ApiError);
      expect([mapped.code, mapped.statusCode, mapped.message]).to.deep.equal([
        "invalid_parameter",
        400,
        "Already confirmed",
      ]);
      const other = new Error("socket hang up");
      expect(revertToApiError(other)).to.equal(other);
    });
  });
});
