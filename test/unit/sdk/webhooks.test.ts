import { createHmac } from "node:crypto";

import { expect } from "chai";
import {
  constantTimeEqual,
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  signBody,
  verifySignature,
  verifyWebhook,
  WEBHOOK_EVENT_GROUPS,
} from "@compute-capacity/sdk";
import { WEBHOOK_EVENTS } from "../../../gateway/webhooks/events.js";

const BODY = JSON.stringify({ id: "evt_1", event: "redemption.fulfilled", timestamp: 1, data: { redemption_id: "3" } });

describe("webhook signatures (sdk/webhooks.ts)", function () {
  it("signs as HMAC-SHA256 of the body bytes under the secret, in lowercase hex (as node:crypto computes it)", function () {
    for (const [body, secret] of [
      [BODY, "whsec_a"],
      ["", "k"],
      ["ünïcødé ✓", "sécret"],
    ]) {
      expect(signBody(body, secret)).to.equal(createHmac("sha256", secret).update(body).digest("hex"));
      expect(signBody(new TextEncoder().encode(body), secret)).to.equal(signBody(body, secret));
    }
  });

  it("verifies a signature over bytes or text and refuses any other body, secret or header form", function () {
    const signature = signBody(BODY, "whsec_a");
    expect(verifySignature(BODY, signature, "whsec_a")).to.equal(true);
    expect(verifySignature(new TextEncoder().encode(BODY), signature, "whsec_a")).to.equal(true);
    expect(verifySignature(BODY + " ", signature, "whsec_a")).to.equal(false);
    expect(verifySignature(BODY, signature, "whsec_b")).to.equal(false);
    expect(verifySignature(BODY, signature.toUpperCase(), "whsec_a")).to.equal(false);
    expect(verifySignature(BODY, null, "whsec_a")).to.equal(false);
  });

  describe("verifyWebhook", function () {
    const headersOf = (values: Record<string, string>) => (name: string) => values[name];

    it("accepts a body signed with any of the rotation's secrets and returns the payload, delivery and event", function () {
      const headers = headersOf({
        [SIGNATURE_HEADER]: signBody(BODY, "whsec_new"),
        [DELIVERY_HEADER]: "dlv_1",
        [EVENT_HEADER]: "redemption.fulfilled",
      });
      const checked = verifyWebhook(BODY, headers, ["whsec_old", "whsec_new"]);
      expect(checked).to.deep.equal({
        ok: true,
        webhook: {
          payload: JSON.parse(BODY),
          deliveryId: "dlv_1",
          event: "redemption.fulfilled",
        },
      });
    });

    it("answers 401 for a wrong signature and 400 for a signed body that is not JSON", function () {
      const wrong = verifyWebhook(BODY, headersOf({ [SIGNATURE_HEADER]: signBody(BODY, "other") }), "whsec_a");
      expect(wrong).to.deep.equal({ ok: false, reason: "invalid_signature", status: 401 });
      const text = "not json";
      const bad = verifyWebhook(text, headersOf({ [SIGNATURE_HEADER]: signBody(text, "whsec_a") }), "whsec_a");
      expect(bad).to.deep.equal({ ok: false, reason: "invalid_json", status: 400 });
    });
  });

  it("compares bytes in full: equal, one bit apart, and of other lengths", function () {
    const a = new Uint8Array([1, 2, 3, 4]);
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 3, 4]))).to.equal(true);
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 3, 5]))).to.equal(false);
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 3]))).to.equal(false);
  });
});

describe("webhook event lists (sdk/webhooks.ts)", function () {
  it("groups exactly the events the gateway delivers, by the spec's two lists and the protocol's outcomes", function () {
    const grouped = new Set(WEBHOOK_EVENT_GROUPS.flatMap((g) => [...g.events]));
    expect([...grouped].sort()).to.deep.equal([...WEBHOOK_EVENTS].sort());
    expect(WEBHOOK_EVENT_GROUPS.map((g) => g.events.length)).to.deep.equal([8, 9, 3, 5, 2]); // the spec's lists: 8 and 9
  });
});
