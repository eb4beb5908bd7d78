import { WriteContext } from "./context.js";
import type { WriteContextOptions } from "./context.js";
import { disputeEvidenceOf, openDispute } from "./disputes.js";
import type { DisputeInput } from "./disputes.js";
import { confirm, redeem, redemptionRequestOf } from "./redemptions.js";
import type { RedemptionInput } from "./redemptions.js";
import { transfer } from "./transfers.js";

export type { IssueTypeName } from "./disputes.js";
export type { Specifications } from "./redemptions.js";
export type WriteServiceOptions = WriteContextOptions;

/**
 * The write operations of the API for the account an API key is bound to: redeem, confirm,
 * dispute, transfer (one module each). Inputs are checked against the chain before anything is
 * sent (amount limits, balance, provider, ownership of the redemption, a static call of the
 * contract function), so bad input costs no gas and sends nothing.
 */
export class WriteService {
  private readonly ctx: WriteContext;

  constructor(options: WriteServiceOptions) {
    this.ctx = new WriteContext(options);
  }

  close(): void {
    this.ctx.close();
  }

  redeem(account: string, input: RedemptionInput) {
    return redeem(this.ctx, account, input);
  }

  confirm(account: string, redemptionId: number) {
    return confirm(this.ctx, account, redemptionId);
  }

  dispute(account: string, redemptionId: number, input: DisputeInput) {
    return openDispute(this.ctx, account, redemptionId, input);
  }

  evidence(account: string, redemptionId: number) {
    return disputeEvidenceOf(this.ctx, account, redemptionId);
  }

  request(account: string, redemptionId: number) {
    return redemptionRequestOf(this.ctx, account, redemptionId);
  }

  transfer(account: string, input: { to: string; amount: bigint }) {
    return transfer(this.ctx, account, input);
  }
}
