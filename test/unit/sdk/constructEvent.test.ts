import { randomBytes } from "node:crypto";

import { expect } from "chai";
import { Webhook } from "standardwebhooks";

import {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  WebhookVerificationError,
  constructEvent,
  signBody,
  signatureHeaders,
} from "@compute-capacity/sdk";
import type { WebhookEvent } from "@compute-capacity/sdk";

/** A secret as the gateway makes them. */
const secret = () => `whsec_${randomBytes(32).toString("hex")}`;
const NOW = 1_795_740_000;
const BODY = JSON.stringify({
  id: "42161:0xabc:3:sstb.minted",
  fact_id: "42161:0xabc:3",
  event: "sstb.minted",
  timestamp: NOW - 30,
  data: { provider_id: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", sstb_amount: 50 },
});

/** The headers of one attempt, as the gateway's worker sends them. */
function delivery(secrets: string[], specSecret = secrets[0], timestamp = NOW, body = BODY) {
  return signatureHeaders({ id: "6f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f", timestamp, body, secrets, specSecret });
}

/** The error `construct` throws (fails if it does not throw one). */
function refusal(construct: () => unknown): WebhookVerificationError {
  try {
    construct();
  } catch (error) {
    expect(error).to.be.instanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  return expect.fail("constructEvent accepted the delivery");
}

describe("constructEvent (sdk/webhooks.ts)", function () {
  describe("a delivery as the gateway signs it", function () {
    it("returns the typed event, whichever form the headers come in", function () {
      const s = secret();
      const headers = delivery([s]);
      const forms = [
        headers,
        new Headers(headers),
        (name: string) => headers[name],
        Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v])),
      ];
      for (const form of forms) {
        const event: WebhookEvent = constructEvent(BODY, form, [s], { now: NOW });
        expect(event).to.deep.equal(JSON.parse(BODY));
        // the union is discriminated by `event`
        if (event.event === "sstb.minted") expect(event.data.provider_id).to.equal(JSON.parse(BODY).data.provider_id);
      }
      expect(constructEvent(new TextEncoder().encode(BODY), headers, s, { now: NOW }).id).to.equal(JSON.parse(BODY).id);
    });

    it("signs in the Standard Webhooks format: the standardwebhooks library verifies it with the same secret", function () {
      const s = secret();
      const headers = delivery([s], s, Math.floor(Date.now() / 1000));
      expect(headers[WEBHOOK_SIGNATURE_HEADER]).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(new Webhook(s).verify(BODY, headers)).to.deep.equal(JSON.parse(BODY));
      // and the spec's header is the hex HMAC of the body under the secret's text
      expect(headers[SIGNATURE_HEADER]).to.equal(signBody(BODY, s));
    });
  });

  describe("freshness", function () {
    it("refuses a delivery older than the tolerance (5 minutes by default) and one from too far ahead", function () {
      expect(DEFAULT_WEBHOOK_TOLERANCE_SECONDS).to.equal(300);
      const s = secret();
      const sentAt = NOW - 301;
      expect(refusal(() => constructEvent(BODY, delivery([s], s, sentAt), [s], { now: NOW }))).to.include({
        reason: "timestamp_too_old",
        status: 401,
      });
      // the same bytes one second younger pass
      expect(constructEvent(BODY, delivery([s], s, NOW - 300), [s], { now: NOW }).event).to.equal("sstb.minted");
      expect(refusal(() => constructEvent(BODY, delivery([s], s, NOW + 301), [s], { now: NOW })).reason).to.equal(
        "timestamp_too_new",
      );
    });

    it("takes the tolerance the receiver chooses", function () {
      const s = secret();
      const headers = delivery([s], s, NOW - 10);
      expect(refusal(() => constructEvent(BODY, headers, [s], { now: NOW, tolerance: 5 })).reason).to.equal(
        "timestamp_too_old",
      );
      expect(constructEvent(BODY, headers, [s], { now: NOW, tolerance: 10 }).id).to.equal(JSON.parse(BODY).id);
    });

    it("cannot be fooled by a new timestamp on a captured delivery: the signature covers it", function () {
      const s = secret();
      const captured = delivery([s], s, NOW - 3600);
      const forged = { ...captured, [WEBHOOK_TIMESTAMP_HEADER]: String(NOW) };
      expect(refusal(() => constructEvent(BODY, forged, [s], { now: NOW })).reason).to.equal("invalid_signature");
    });
  });

  describe("signatures", function () {
    it("refuses another secret, a changed body, another delivery id, and a missing header", function () {
      const s = secret();
      const headers = delivery([s]);
      expect(refusal(() => constructEvent(BODY, headers, [secret()], { now: NOW })).reason).to.equal(
        "invalid_signature",
      );
      expect(refusal(() => constructEvent(BODY + " ", headers, [s], { now: NOW })).reason).to.equal(
        "invalid_signature",
      );
      const otherId = { ...headers, [WEBHOOK_ID_HEADER]: "another" };
      expect(refusal(() => constructEvent(BODY, otherId, [s], { now: NOW })).reason).to.equal("invalid_signature");
      for (const name of [WEBHOOK_ID_HEADER, WEBHOOK_TIMESTAMP_HEADER, WEBHOOK_SIGNATURE_HEADER, SIGNATURE_HEADER]) {
        const { [name]: _dropped, ...rest } = headers;
        expect(
          refusal(() => constructEvent(BODY, rest, [s], { now: NOW })),
          name,
        ).to.include({
          reason: "missing_header",
          status: 401,
        });
      }
    });

    it("checks both signatures: a valid Standard Webhooks signature does not excuse a wrong spec signature", function () {
      const s = secret();
      const headers = { ...delivery([s]), [SIGNATURE_HEADER]: signBody(BODY, secret()) };
      expect(refusal(() => constructEvent(BODY, headers, [s], { now: NOW })).shortMessage).to.contain(
        "invalid signature",
      );
      expect(refusal(() => constructEvent(BODY, headers, [s], { now: NOW })).details).to.contain(SIGNATURE_HEADER);
    });

    it("answers 400 for a signed body that is not a webhook event", function () {
      const s = secret();
      for (const body of ["not json", "[1,2]", '{"id":"x"}']) {
        expect(
          refusal(() => constructEvent(body, delivery([s], s, NOW, body), [s], { now: NOW })),
          body,
        ).to.include({
          reason: "invalid_body",
          status: 400,
        });
      }
    });
  });

  describe("a rotation window", function () {
    it("verifies for a receiver on the old secret, on both, and (after the window) on the new one", function () {
      const [old, next] = [secret(), secret()];
      // during the window: webhook-signature under both, the spec's header under the old secret
      const during = delivery([next, old], old);
      expect(during[WEBHOOK_SIGNATURE_HEADER].split(" ")).to.have.length(2);
      expect(constructEvent(BODY, during, [old], { now: NOW }).event).to.equal("sstb.minted");
      expect(constructEvent(BODY, during, [old, next], { now: NOW }).event).to.equal("sstb.minted");
      // a receiver that dropped the old secret early fails the spec's header: hold both during the window
      expect(refusal(() => constructEvent(BODY, during, [next], { now: NOW })).details).to.contain(SIGNATURE_HEADER);
      // after the window: the new secret alone
      const after = delivery([next], next);
      expect(constructEvent(BODY, after, [next], { now: NOW }).event).to.equal("sstb.minted");
      expect(constructEvent(BODY, after, [old, next], { now: NOW }).event).to.equal("sstb.minted");
      expect(refusal(() => constructEvent(BODY, after, [old], { now: NOW })).reason).to.equal("invalid_signature");
    });
  });
});
