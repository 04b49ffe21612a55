import type { Database } from '@/db/client';
import {
  claimAmbiguousDeliveries, finishReconcileAttempt, recordReconcileDecision, startReconcileAttempt, type AmbiguousDelivery, type ReconcileDecision,
} from '@/db/queries/reconcile';
import { logger } from '@/lib/logging/logger';
import { providerClientForAccount, ProviderReadError, type ProviderClient } from '@/lib/providers';
import { findMatchingPost } from './match';

export type ReconcileOptions = {
  workerId: string;
  batchSize: number;
  leaseMs: number;
  readTimeoutMs: number;
  /** "Not found" needs two reads at least this far apart (platform read lag). */
  recheckDelayMs: number;
  /** How far before the first attempt the read window starts. */
  windowBeforeMs: number;
  /** After this many unreadable checks, an admin decides. */
  maxUnreadable: number;
  /** Keep this much time before the lateness limit when releasing for a new attempt. */
  releaseMarginMs: number;
  /** Mastodon keeps Idempotency-Keys about an hour: resend with the same key inside this window. */
  mastodonKeyWindowMs: number;
  encryptionKey: string;
  origin?: string;
};

export type ReconcileSummary = { checked: number; found: number; released: number; needs_review: number; rechecks: number; fenced: number };

/**
 * Settles ambiguous deliveries (DESIGN §7), safe under concurrent callers: each delivery is taken by one
 * reconciler at a time (claim generation bumped), and every check is stored with its evidence.
 */
export async function reconcileAmbiguousDeliveries(db: Database, options: ReconcileOptions): Promise<ReconcileSummary> {
  const summary: ReconcileSummary = { checked: 0, found: 0, released: 0, needs_review: 0, rechecks: 0, fenced: 0 };
  const actor = `reconciler:${options.workerId}`;
  for (;;) {
    const batch = await claimAmbiguousDeliveries(db, { workerId: options.workerId, limit: options.batchSize, leaseMs: options.leaseMs });
    if (batch.length === 0) break;
    const decisions = await Promise.all(batch.map((d) => decide(db, d, options).catch((error) => unexpected(d, error))));
    for (const decision of decisions) {
      summary.checked++;
      const written = await recordReconcileDecision(db, { ...decision, actor });
      if (!written) summary.fenced++;
      else if (decision.decision === 'found') summary.found++;
      else if (decision.decision === 'released') summary.released++;
      else if (decision.status === 'needs_review') summary.needs_review++;
      else summary.rechecks++;
    }
    if (batch.length < options.batchSize) break;
  }
  return summary;
}

async function decide(db: Database, d: AmbiguousDelivery, options: ReconcileOptions): Promise<ReconcileDecision> {
  const base = { deliveryId: d.deliveryId, generation: d.generation };
  const client = providerClientForAccount({ ...d, id: d.accountId }, { encryptionKey: options.encryptionKey, origin: options.origin });
  const deadline = d.scheduledAt.getTime() + d.latenessLimitSeconds * 1000;
  // A resend publishes if the first call never landed, so only while the post may still go out on time.
  if (d.provider === 'mastodon' && Date.now() - d.lastAttemptAt.getTime() < options.mastodonKeyWindowMs && Date.now() + options.releaseMarginMs < deadline) {
    return resendWithSameKey(db, d, client, options);
  }
  if (d.kind === 'dm') {
    return {
      ...base, strategy: 'none', decision: 'needs_review', status: 'needs_review', reason: 'Direct messages cannot be read back from the platform: check the conversation',
      evidence: { kind: 'dm', recipient: d.recipient, firstAttemptAt: d.firstAttemptAt.toISOString() },
    };
  }
  return readTimeline(d, client, options);
}

/** Mastodon: the same Idempotency-Key makes the instance return the original status if the first call landed. */
async function resendWithSameKey(db: Database, d: AmbiguousDelivery, client: ProviderClient, options: ReconcileOptions): Promise<ReconcileDecision> {
  const base = { deliveryId: d.deliveryId, generation: d.generation, strategy: 'mastodon-idempotency-key' };
  const attemptId = await startReconcileAttempt(db, d);
  if (!attemptId) {
    return { ...base, decision: 'unreadable', status: 'ambiguous', reason: 'Another reconciler holds this delivery', evidence: {} };
  }
  const result = await client.publish({
    text: d.text, kind: d.kind, inReplyTo: d.inReplyTo ?? undefined, recipient: d.recipient ?? undefined, idempotencyKey: d.deliveryId, timeoutMs: options.readTimeoutMs,
  });
  await finishReconcileAttempt(db, { attemptId, outcome: result.outcome, httpStatus: result.httpStatus ?? null, detail: `resend with the same key: ${result.reason}`, durationMs: result.durationMs });
  const evidence = { outcome: result.outcome, rule: result.rule, httpStatus: result.httpStatus ?? null, reason: result.reason };
  if (result.outcome === 'sent') {
    return { ...base, decision: 'found', status: 'sent', reason: 'Confirmed by resending with the same Idempotency-Key', externalId: result.externalId, url: result.url, evidence };
  }
  if (result.outcome === 'failed') {
    return { ...base, decision: 'needs_review', status: 'needs_review', reason: `The platform refused the resend: ${result.reason}`, evidence };
  }
  return unreadableOrRecheck(d, base, options, evidence);
}

/** X (and Mastodon after the key window): read the account's posts around the attempt and match the text. */
async function readTimeline(d: AmbiguousDelivery, client: ProviderClient, options: ReconcileOptions): Promise<ReconcileDecision> {
  const windowStart = new Date(d.firstAttemptAt.getTime() - options.windowBeforeMs);
  const windowEnd = new Date();
  const base = { deliveryId: d.deliveryId, generation: d.generation, strategy: `${d.provider}-timeline`, windowStart, windowEnd };
  let posts;
  try {
    posts = await client.listRecent({ since: windowStart, until: windowEnd, timeoutMs: options.readTimeoutMs });
  } catch (error) {
    const reason = error instanceof ProviderReadError ? error.classification.reason : (error as Error).message;
    return unreadableOrRecheck(d, base, options, { readError: reason });
  }
  const match = findMatchingPost(posts, { text: d.text, kind: d.kind, inReplyTo: d.inReplyTo, windowStart, windowEnd });
  const evidence = { read: posts.length, ids: posts.slice(0, 20).map((p) => p.id), duplicateContent: d.duplicateContent };
  if (match) {
    return { ...base, decision: 'found', status: 'sent', reason: 'Found on the platform', readCount: posts.length, externalId: match.id, url: match.url ?? null, evidence: { ...evidence, matched: match.id } };
  }
  // "Not found" counts only after a second read at least recheckDelayMs after the first (read lag).
  const firstMiss = d.firstNotFoundAt;
  if (!firstMiss || Date.now() - firstMiss.getTime() < options.recheckDelayMs) {
    return {
      ...base, decision: 'not_found_recheck', status: 'ambiguous', reason: 'Not found yet; checking again after the read-lag delay', readCount: posts.length,
      nextCheckAt: new Date(Date.now() + (firstMiss ? options.recheckDelayMs - (Date.now() - firstMiss.getTime()) : options.recheckDelayMs)), evidence,
    };
  }
  const deadline = d.scheduledAt.getTime() + d.latenessLimitSeconds * 1000;
  if (d.duplicateContent) {
    return { ...base, decision: 'needs_review', status: 'needs_review', reason: 'The platform said "duplicate content" but the post was not found', readCount: posts.length, evidence };
  }
  if (Date.now() + options.releaseMarginMs < deadline) {
    return { ...base, decision: 'released', status: 'scheduled', reason: 'Not found in two reads: released to be published again', readCount: posts.length, evidence };
  }
  return { ...base, decision: 'needs_review', status: 'needs_review', reason: 'Not found, and too late to publish again on time', readCount: posts.length, evidence: { ...evidence, deadline: new Date(deadline).toISOString() } };
}

function unreadableOrRecheck(d: AmbiguousDelivery, base: Omit<ReconcileDecision, 'decision' | 'status' | 'reason' | 'evidence'>, options: ReconcileOptions, evidence: Record<string, unknown>): ReconcileDecision {
  if (d.unreadableReads + 1 >= options.maxUnreadable) {
    return { ...base, decision: 'needs_review', status: 'needs_review', reason: `The platform could not be read after ${options.maxUnreadable} tries`, evidence };
  }
  return {
    ...base, decision: 'unreadable', status: 'ambiguous', reason: 'The platform could not be read; trying again',
    nextCheckAt: new Date(Date.now() + options.recheckDelayMs * 2 ** d.unreadableReads), evidence,
  };
}

function unexpected(d: AmbiguousDelivery, error: unknown): ReconcileDecision {
  logger.error({ deliveryId: d.deliveryId, err: error }, 'reconciliation check failed');
  return {
    deliveryId: d.deliveryId, generation: d.generation, strategy: 'error', decision: 'unreadable', status: 'ambiguous',
    reason: 'The check failed unexpectedly; trying again', nextCheckAt: new Date(Date.now() + 30_000), evidence: { error: (error as Error).message },
  };
}
