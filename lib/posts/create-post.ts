import type { Transaction } from '@/db/client';
import { findRecentSameText, getTargetAccounts, insertPostWithDeliveries } from '@/db/queries/posts';
import { notifyDue } from '@/db/queries/publishing';
import type { OperationResult } from '@/lib/idempotency/run-idempotent';
import { characterCount, normaliseText, TEXT_LIMITS, type CreatePostRequest } from './post-input';
import { serializePost } from './serialize';

const RETENTION_AFTER_SCHEDULE_MS = 7 * 24 * 60 * 60 * 1000;
const PAST_TOLERANCE_MS = 60_000;
const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;
const NOTIFY_HORIZON_MS = 25_000; // under the scheduler's 30 s maximum sleep (lib/publishing/scheduler.ts)

export type CreatePostContext = {
  workspaceId: string;
  source: 'form' | 'api';
  idempotencyKey: string;
  actor: string;
  userId?: string;
  apiKeyId?: string;
  /** The HTTP request's X-Request-Id, kept in each delivery's `created` history row. */
  requestId?: string;
  /** Forms ask before repeating the same text on the same account within 24 h; the API does not. */
  checkSoftDuplicates?: boolean;
  now?: Date;
};

export type FieldErrors = Record<string, string[]>;

export type CreatePostRejection =
  | { reason: 'invalid'; errors: FieldErrors }
  | { reason: 'possible_duplicate'; matches: { postId: string; accountId: string }[] };

/**
 * The create-post operation, run inside runIdempotent's transaction. Checks that need the database
 * (accounts belong to the workspace, per-platform text limits, time not in the past) reject without storing.
 */
export async function createPostOperation(tx: Transaction, request: CreatePostRequest, context: CreatePostContext): Promise<OperationResult> {
  const now = context.now ?? new Date();
  const accountIds = [...new Set(request.accountIds)];
  const errors: FieldErrors = {};

  const accounts = await getTargetAccounts(tx, { workspaceId: context.workspaceId, accountIds });
  const usable = accounts.filter((a) => !a.disconnectedAt);
  if (usable.length !== accountIds.length) {
    // Another workspace's account is reported exactly like a missing one (I6).
    errors.accountIds = ['One or more accounts do not exist in this workspace or are disconnected'];
  }
  const length = characterCount(request.text);
  for (const account of usable) {
    const limit = TEXT_LIMITS[account.provider];
    if (length > limit) (errors.text ??= []).push(`${length}/${limit} characters: too long for ${account.handle}`);
  }
  const scheduledAt = request.scheduledAt ? new Date(request.scheduledAt) : now;
  if (scheduledAt.getTime() < now.getTime() - PAST_TOLERANCE_MS) errors.scheduledAt = ['The time is in the past'];
  if (Object.keys(errors).length > 0) return reject(422, { reason: 'invalid', errors });

  if (context.checkSoftDuplicates) {
    const matches = await findRecentSameText(tx, {
      workspaceId: context.workspaceId, accountIds, normalisedText: normaliseText(request.text), since: new Date(now.getTime() - DUPLICATE_WINDOW_MS),
    });
    if (matches.length > 0) return reject(409, { reason: 'possible_duplicate', matches: matches.map((m) => ({ postId: m.postId, accountId: m.accountId })) });
  }

  const newPost = {
    workspaceId: context.workspaceId,
    kind: request.kind,
    text: request.text,
    inReplyTo: request.inReplyTo ?? null,
    recipient: request.recipient ?? null,
    scheduledAt,
    source: context.source,
    idempotencyKey: context.idempotencyKey,
    createdByUserId: context.userId ?? null,
    createdByApiKeyId: context.apiKeyId ?? null,
  };
  // A key whose record expired (and was pruned) starts a new request (docs/architecture.md#inbound-idempotency, retention): the earlier
  // post keeps the key, so this one is stored without it; its new key record points at it.
  const created = (await insertPostWithDeliveries(tx, { post: newPost, accountIds, actor: context.actor, requestId: context.requestId }))
    ?? (await insertPostWithDeliveries(tx, { post: { ...newPost, idempotencyKey: null }, accountIds, actor: context.actor, requestId: context.requestId }))!;
  const { post, deliveries } = created;
  // Wakes the schedulers when this commits. Only for posts due before their longest sleep (30 s): a later
  // one is found by their timer anyway, and NOTIFY serialises commits on a global lock.
  if (scheduledAt.getTime() - now.getTime() < NOTIFY_HORIZON_MS) await notifyDue(tx);
  return {
    store: true,
    status: 201,
    body: JSON.stringify(serializePost(post, deliveries)),
    resourceId: post.id,
    retainUntil: new Date(scheduledAt.getTime() + RETENTION_AFTER_SCHEDULE_MS),
  };
}

function reject(status: number, rejection: CreatePostRejection): OperationResult {
  return { store: false, status, body: JSON.stringify(rejection) };
}
