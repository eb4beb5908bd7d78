import { keccak256, toUtf8Bytes } from "ethers";
import { and, eq, sql } from "drizzle-orm";

import { prepareOpenDispute } from "@compute-capacity/sdk";

import { invalidParameter, notFound } from "../http/errors.js";
import { ISSUE_TYPES } from "../indexer/modules/redemption-manager.js";
import { disputeEvidence, events } from "../store/schema.js";
import { canonicalJson } from "./canonical.js";
import type { Outcome, WriteContext } from "./context.js";
import type { Call } from "./sender.js";

export type IssueTypeName = (typeof ISSUE_TYPES)[number];

export interface DisputeInput {
  issue_type: IssueTypeName;
  description: string;
  evidence: unknown;
}

/**
 * The evidence document whose keccak256 goes on-chain: canonical JSON (keys sorted at every depth,
 * no spaces) of `{description, evidence, issue_type, redemption_id}`.
 */
export function evidenceDocument(redemptionId: number, input: DisputeInput): { document: string; hash: string } {
  const document = canonicalJson({
    redemption_id: String(redemptionId),
    issue_type: input.issue_type,
    description: input.description,
    evidence: input.evidence,
  });
  return { document, hash: keccak256(toUtf8Bytes(document)) };
}

/**
 * `openDispute` with the evidence kept off-chain: stored in the gateway's database, its hash in
 * the call. For an external account the evidence is stored when the transaction is handed out.
 */
export async function openDispute(
  ctx: WriteContext,
  account: string,
  redemptionId: number,
  input: DisputeInput,
): Promise<Outcome<{ redemption_id: string; status: "disputed"; issue_type: string; evidence_hash: string }>> {
  await ctx.ownRedemption(account, redemptionId);
  const issueType = ISSUE_TYPES.indexOf(input.issue_type);
  if (issueType < 0) throw invalidParameter("issue_type", `must be one of ${ISSUE_TYPES.join(", ")}`);
  const { document, hash } = evidenceDocument(redemptionId, input);
  const { to, data } = prepareOpenDispute(ctx.client, {
    redemptionId: BigInt(redemptionId),
    issueType: BigInt(issueType),
    evidenceHash: hash,
  });
  const call: Call = { description: "openDispute", to, data };
  await ctx.sender.check(account, call);
  // stored before anything is sent, keyed by its hash: evidence whose hash reaches the chain is
  // never lost, and a second document (another attempt) never overwrites the first
  await ctx.db
    .insert(disputeEvidence)
    .values({
      chainId: ctx.chainId,
      redemptionId,
      account,
      issueType: input.issue_type,
      document,
      evidence: input.evidence as object,
      hash,
      txHash: null,
      createdAt: Math.floor(Date.now() / 1000),
    })
    .onConflictDoNothing();
  const shown = { redemption_id: String(redemptionId), issue_type: input.issue_type, evidence_hash: hash };
  const done = await ctx.perform(account, [call], {
    recheck: async () => {
      await ctx.sender.check(account, call);
    },
  });
  if (done.mode === "external") return { mode: "external", ...shown, transactions: done.transactions };
  const txHash = done.receipts[0].hash;
  await ctx.db
    .update(disputeEvidence)
    .set({ txHash })
    .where(
      and(
        eq(disputeEvidence.chainId, ctx.chainId),
        eq(disputeEvidence.redemptionId, redemptionId),
        eq(disputeEvidence.hash, hash),
      ),
    );
  return { mode: "managed", ...shown, status: "disputed", transaction_hash: txHash };
}

/** The stored evidence of a redemption's dispute, for the redemption's user or provider only. */
export async function disputeEvidenceOf(ctx: WriteContext, account: string, redemptionId: number) {
  await ctx.partyOf(account, redemptionId);
  // the document whose hash the indexed `DisputeOpened` carries (other stored attempts never went on-chain)
  const [opened] = await ctx.db
    .select({ args: events.args, txHash: events.txHash })
    .from(events)
    .where(
      and(
        eq(events.chainId, ctx.chainId),
        eq(events.name, "DisputeOpened"),
        sql`${events.args}->>'redemptionId' = ${String(redemptionId)}`,
      ),
    )
    .limit(1);
  if (opened === undefined) throw notFound("dispute of redemption", redemptionId);
  const onChainHash = (opened.args.evidenceHash as string).toLowerCase();
  const [row] = await ctx.db
    .select()
    .from(disputeEvidence)
    .where(
      and(
        eq(disputeEvidence.chainId, ctx.chainId),
        eq(disputeEvidence.redemptionId, redemptionId),
        eq(disputeEvidence.hash, onChainHash),
      ),
    )
    .limit(1);
  if (row === undefined) throw notFound("dispute evidence of redemption", redemptionId);
  const { description } = JSON.parse(row.document) as { description: string };
  return {
    redemption_id: String(redemptionId),
    issue_type: row.issueType,
    description,
    evidence: row.evidence,
    document: row.document,
    evidence_hash: row.hash,
    transaction_hash: opened.txHash,
    created_at: row.createdAt,
  };
}
