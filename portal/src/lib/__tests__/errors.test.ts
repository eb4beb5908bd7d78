import { describe, expect, it, vi } from "vitest";

import { ApiResponseError, ContractRevertedError } from "@compute-capacity/sdk";

import { GatewayUnreachableError, describeError } from "../errors";

describe("describeError: what a person reads when something fails", () => {
  it("gives a contract's reason string verbatim (the spec's five strings)", () => {
    const error = new ContractRevertedError({
      reason: "Already fulfilled",
      args: {},
      selector: "0x08c379a0",
      data: "0x",
    });
    expect(describeError(error)).toMatchObject({
      kind: "revert",
      title: "The contract refused",
      message: "Already fulfilled",
    });
  });

  it("puts a custom error in words, with its arguments", () => {
    const error = new ContractRevertedError({
      errorName: "RedemptionBelowMinimum",
      args: { minimum: 10n ** 17n },
      selector: "0x12345678",
      data: "0x",
    });
    expect(describeError(error).message).toBe("The amount is below the minimum redemption of 0.1 sSTB.");
  });

  it("says the person declined in the wallet (EIP-1193 4001), not that something broke", () => {
    expect(describeError({ code: 4001, message: "User rejected the request." })).toMatchObject({
      kind: "wallet-refused",
      message: "You declined the request in your wallet.",
    });
  });

  it("says the gateway is unreachable when the connection fails", () => {
    const error = new GatewayUnreachableError(
      "The gateway did not answer: check your connection or that it is running.",
    );
    expect(describeError(error)).toMatchObject({ kind: "unreachable", title: "The gateway is unreachable" });
  });

  it("shows the API's own message for its refusals", () => {
    vi.spyOn(console, "debug").mockImplementation(() => {});
    const error = new ApiResponseError(404, { code: "resource_not_found", message: "no redemption 9", details: {} });
    expect(describeError(error)).toMatchObject({ kind: "api", message: "no redemption 9" });
  });
});

describe("describeError: failures that are not refusals", () => {
  it("shows the cause of a failed call (the node's or wallet's words), not only that it failed", async () => {
    const { BaseError } = await import("@compute-capacity/sdk");
    const error = new BaseError('The call of "initiateRedemption" failed.', {
      cause: Object.assign(new Error("insufficient funds for gas * price + value: balance 0, tx cost 21000"), {
        code: "INSUFFICIENT_FUNDS",
      }),
    });
    const described = describeError(error);
    expect(described.message).toContain("insufficient funds for gas");
    expect(described.title).not.toBe("Something failed");
  });
});
