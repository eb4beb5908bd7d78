import type { Tx } from "../store/db.js";
import type { WebhookEvent } from "../webhooks/index.js";
import type { VerificationView } from "./view.js";

/** Queues an off-chain webhook event in the caller's transaction (the webhook outbox's `publish`). */
export type PublishEvent = (tx: Tx, event: WebhookEvent) => Promise<unknown>;

/**
 * `verification.completed`: a submitted report reached a verdict (`verified` with the proof, or
 * `rejected` with the reason). Off-chain, so only the provider's own subscriptions get it; the id
 * names the report and its verdict, so a report decided again (after a rejection or an expiry)
 * announces its new verdict, and a repeated answer announces nothing.
 */
export function verificationCompleted(view: VerificationView, decidedAt: number): WebhookEvent {
  const id = `verification:${view.verification_id}:${view.status}:${decidedAt}`;
  return {
    id,
    factId: id,
    event: "verification.completed",
    timestamp: decidedAt,
    data: {
      verification_id: view.verification_id,
      provider_id: view.provider_id,
      verification_method: view.verification_method,
      status: view.status,
      created_at: view.created_at,
      verified_at: view.verified_at,
      cu_hash: view.cu_hash,
      cu_value: view.cu_value,
      cu_value_base_units: view.cu_value_base_units,
      expiry: view.expiry,
      proof: view.proof,
      rejection: view.rejection,
    },
    accounts: [view.provider_id],
  };
}
