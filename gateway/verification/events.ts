import type { Tx } from "../store/db.js";
import type { VerificationView } from "./view.js";

/**
 * WEBHOOK CALL SITE (issue 13, `verification.completed`): called inside the transaction that stores
 * a verification reaching the `verified` status, so that an outbox row written here commits or
 * rolls back with it. A no-op until the webhook outbox's publish function is wired in, e.g.
 * `await publish(tx, "verification.completed", { verification_id, provider_id, status, ... })`.
 */
export async function onVerified(_tx: Tx, _verification: VerificationView): Promise<void> {}
