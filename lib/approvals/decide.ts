import type { Database, Transaction } from '@/db/client';
import { emitWebhookEvent } from '@/lib/webhooks/emit';
import {
  getDecision,
  getPostForApproval,
  insertAuditEntry,
  insertDecision,
  insertDecisionNotice,
  type DecisionInsert,
} from '@/db/queries/approvals';
import { approveAwaitingDeliveries, lockDeliveriesForEdit } from '@/db/queries/deliveries';
import { notifyDue } from '@/db/queries/publishing';
import type { ApprovalDecision } from '@/db/schema';
import { isPostId } from '@/lib/posts/get';

export type Decision = 'approved' | 'changes_requested';

export const MAX_COMMENT = 2000;

/** Who decides: a member in the app, an API key, or the client through a link. */
export type Decider =
  | { kind: 'user'; userId: string; name: string }
  | { kind: 'api_key'; apiKeyId: string; name: string }
  | { kind: 'link'; linkId: string; name: string };

export type DecideParams = {
  workspaceId: string;
  postId: string;
  decision: Decision;
  comment?: string | null;
  decider: Decider;
  /** The revision the decider saw: a decision on an older one is refused (the post changed since). */
  revision?: number;
};

export type DecisionView = {
  decision: Decision;
  revision: number;
  comment: string | null;
  deciderName: string;
  decidedAt: string;
};

export type DecideResult =
  | { kind: 'decided'; decision: DecisionView; scheduled: number; missed: number }
  /** Someone decided this revision first (or this is a repeat): the winner's decision. */
  | { kind: 'already_decided'; decision: DecisionView }
  | { kind: 'not_found' }
  | { kind: 'invalid'; errors: Record<string, string[]> }
  | { kind: 'not_awaiting'; statuses: string[] }
  | { kind: 'stale'; currentRevision: number };

export const toDecisionView = (row: ApprovalDecision): DecisionView => ({
  decision: row.decision,
  revision: row.revision,
  comment: row.comment,
  deciderName: row.deciderName,
  decidedAt: row.decidedAt.toISOString(),
});

/**
 * Decides on a post's current revision exactly once. The post's deliveries are locked first (as an edit does),
 * so a decision and an edit serialise; the unique (post, revision) constraint is the guard between deciders:
 * of two at once one row is written, and the other reads it back ("Already approved by X at T").
 */
export async function decideApproval(db: Database, params: DecideParams): Promise<DecideResult> {
  if (!isPostId(params.postId)) return { kind: 'not_found' };
  const comment = params.comment?.trim() ?? '';
  if (params.decision === 'changes_requested' && !comment)
    return { kind: 'invalid', errors: { comment: ['Say what should change'] } };
  if (comment.length > MAX_COMMENT)
    return { kind: 'invalid', errors: { comment: [`At most ${MAX_COMMENT} characters`] } };
  const result = await db.transaction((tx) => decideInTransaction(tx, params));
  return result;
}

async function decideInTransaction(tx: Transaction, params: DecideParams): Promise<DecideResult> {
  const scope = { workspaceId: params.workspaceId, postId: params.postId };
  const locked = await lockDeliveriesForEdit(tx, scope);
  const post = locked.length ? await getPostForApproval(tx, scope) : null;
  if (!post) return { kind: 'not_found' };
  const existing = await getDecision(tx, { ...scope, revision: post.revision });
  if (existing) return { kind: 'already_decided', decision: toDecisionView(existing) };
  if (params.revision !== undefined && params.revision !== post.revision)
    return { kind: 'stale', currentRevision: post.revision };
  if (!locked.some((d) => d.status === 'awaiting_approval'))
    return { kind: 'not_awaiting', statuses: [...new Set(locked.map((d) => d.status))] };
  const recorded = await recordApprovalDecision(tx, {
    ...scope,
    revision: post.revision,
    decision: params.decision,
    comment: params.comment?.trim() || null,
    decidedByUserId: params.decider.kind === 'user' ? params.decider.userId : null,
    decidedByApiKeyId: params.decider.kind === 'api_key' ? params.decider.apiKeyId : null,
    approvalLinkId: params.decider.kind === 'link' ? params.decider.linkId : null,
    deciderName: params.decider.name,
    authorUserId: post.createdByUserId,
  });
  if (!recorded.won) return { kind: 'already_decided', decision: toDecisionView(recorded.row) };
  return { kind: 'decided', decision: toDecisionView(recorded.row), ...recorded.effect };
}

const actorOf = (row: DecisionInsert) =>
  row.decidedByUserId
    ? `user:${row.decidedByUserId}`
    : row.decidedByApiKeyId
      ? `api_key:${row.decidedByApiKeyId}`
      : `approval_link:${row.approvalLinkId}`;

/**
 * The one place a decision is recorded (and where the post.approved / post.rejected webhooks are emitted):
 * the decision row (unique per post revision), its effect on the deliveries, the audit entry and the author's
 * notification — all in the caller's transaction, so a lost race writes none of them.
 */
export async function recordApprovalDecision(
  tx: Transaction,
  row: DecisionInsert & { authorUserId: string | null },
): Promise<
  | { won: true; row: ApprovalDecision; effect: { scheduled: number; missed: number } }
  | { won: false; row: ApprovalDecision }
> {
  const { authorUserId, ...decision } = row;
  const inserted = await insertDecision(tx, decision);
  if (!inserted) {
    const winner = await getDecision(tx, decision);
    if (!winner) throw new Error('approval decision conflict without a winning row');
    return { won: false, row: winner };
  }
  const actor = actorOf(decision);
  const detail = { revision: decision.revision, approvalLinkId: decision.approvalLinkId, decisionId: inserted.id };
  let effect = { scheduled: 0, missed: 0 };
  if (decision.decision === 'approved') {
    const moved = await approveAwaitingDeliveries(tx, { ...decision, actor, detail });
    effect = {
      scheduled: moved.filter((d) => d.status === 'scheduled').length,
      missed: moved.filter((d) => d.status === 'missed').length,
    };
    if (effect.scheduled > 0) await notifyDue(tx);
  }
  await insertAuditEntry(tx, {
    workspaceId: decision.workspaceId,
    actorUserId: decision.decidedByUserId,
    action: decision.decision === 'approved' ? 'post.approved' : 'post.changes_requested',
    targetType: 'post',
    targetId: decision.postId,
    detail: { ...detail, apiKeyId: decision.decidedByApiKeyId, deciderName: decision.deciderName, ...effect },
  });
  // Outbound webhooks: emitted in this transaction, so the event exists exactly when the decision commits (a lost
  // race writes no decision and so no event). Post ids only, as the delivery events carry; never the link's secret.
  await emitWebhookEvent(tx, {
    workspaceId: decision.workspaceId,
    type: decision.decision === 'approved' ? 'post.approved' : 'post.rejected',
    subject: `post:${decision.postId}`,
    data: {
      postId: decision.postId,
      revision: decision.revision,
      decision: decision.decision,
      decidedBy: decision.deciderName,
      via: decision.approvalLinkId ? 'client_link' : decision.decidedByApiKeyId ? 'api_key' : 'member',
      comment: decision.comment ?? null,
      ...effect,
    },
  });
  const snippet = ` ${decision.deciderName}`;
  await insertDecisionNotice(tx, {
    workspaceId: decision.workspaceId,
    postId: decision.postId,
    userId: authorUserId,
    kind: decision.decision === 'approved' ? 'post_approved' : 'changes_requested',
    message:
      decision.decision === 'approved'
        ? effect.missed > 0
          ? `Approved by${snippet}, but after the lateness limit: missed, not published late.`
          : `Your post was approved by${snippet}.`
        : `Changes requested by${snippet}: ${decision.comment ?? ''}`.trim(),
  });
  return { won: true, row: inserted, effect };
}
