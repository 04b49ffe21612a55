import type { Database } from '@/db/client';
import {
  claimAmbiguousDeliveries,
  recordReconcileDecision,
  type AmbiguousDelivery,
  type ReconcileDecision,
} from '@/db/queries/deliveries';
import { getIdsOwnedByOtherDeliveries } from '@/db/queries/reconcile';
import { logger } from '@/lib/logging/logger';
import { countReconcileDecision } from '@/lib/metrics/record';
import {
  providerClientForAccount,
  providerDefinition,
  ProviderReadError,
  type ProviderClient,
  type ReadBack,
  type RecentPost,
} from '@/lib/providers';
import { recordTokenRejected } from '@/lib/tokens/token-health';
import { compareWithPlatform, type SamePost, type SimilarPost } from './match';
import { learnAfterCheck, withLearnedAllowance } from './reconcile-learning';
import type { ReconcileOptions } from './reconcile-options';

export type { ReconcileOptions } from './reconcile-options';

export type ReconcileSummary = {
  checked: number;
  found: number;
  released: number;
  needs_review: number;
  rechecks: number;
  waiting: number;
  fenced: number;
};

/** Room left on the reconciler's lease after its reads, to record the decision before the lease runs out. */
const DECISION_MARGIN_MS = 5_000;
const MAX_PAGES = 10;

/**
 * Settles ambiguous deliveries (docs/architecture.md#reconciliation), safe under concurrent callers: each delivery is taken by one
 * reconciler at a time (claim generation bumped), and every check is stored with its evidence.
 * The reconciler only reads. Publishing again is the publisher's job after a release, and a release
 * needs a proof of absence: two reads a delay apart, both after every request that may still be
 * running on the platform has certainly ended. No decision relies on a platform's idempotency key.
 */
export async function reconcileAmbiguousDeliveries(db: Database, options: ReconcileOptions): Promise<ReconcileSummary> {
  const summary: ReconcileSummary = {
    checked: 0,
    found: 0,
    released: 0,
    needs_review: 0,
    rechecks: 0,
    waiting: 0,
    fenced: 0,
  };
  const actor = `reconciler:${options.workerId}`;
  for (;;) {
    const batch = await claimAmbiguousDeliveries(db, {
      workerId: options.workerId,
      limit: options.batchSize,
      leaseMs: options.leaseMs,
    });
    if (batch.length === 0) break;
    // The learned allowance (docs/architecture.md#learned-allowance): each host's quiet period covers the latest
    // post it ever created.
    const optionsFor = await withLearnedAllowance(db, batch, options);
    const decisions = await Promise.all(
      batch.map((d) => decide(db, d, optionsFor(d)).catch((error) => unexpected(d, error))),
    );
    for (const [i, decision] of decisions.entries()) {
      summary.checked++;
      const written = await recordReconcileDecision(db, { ...decision, actor });
      if (written) await learnAfterCheck(db, batch[i]!, decision);
      countReconcileDecision(written ? decision.decision : 'fenced');
      if (!written) summary.fenced++;
      else if (decision.decision === 'found') summary.found++;
      else if (decision.decision === 'released') summary.released++;
      else if (decision.decision === 'waiting') summary.waiting++;
      else if (decision.status === 'needs_review') summary.needs_review++;
      else summary.rechecks++;
    }
    if (batch.length < options.batchSize) break;
  }
  return summary;
}

type Base = Omit<ReconcileDecision, 'decision' | 'status' | 'reason' | 'evidence'>;

async function decide(db: Database, d: AmbiguousDelivery, options: ReconcileOptions): Promise<ReconcileDecision> {
  const base = { deliveryId: d.deliveryId, generation: d.generation };
  if (d.accountDisconnected) {
    return {
      ...base,
      strategy: 'none',
      decision: 'needs_review',
      status: 'needs_review',
      reason: 'The account was disconnected, so the platform cannot be read: check the account and decide',
      evidence: { accountDisconnected: true },
    };
  }
  const definition = providerDefinition(d.provider);
  // A request may still be creating the post on the platform until then: reading earlier could "prove"
  // an absence that is not one, and the release after it would publish a second copy. A record-key network
  // needs no wait: a resend under the same key can never create a second record.
  const quietUntil = new Date(d.lastAttemptAt.getTime() + options.callTimeoutMs + options.allowanceMs[d.provider]);
  if (definition.reconcile !== 'record-key' && Date.now() < quietUntil.getTime()) {
    return {
      ...base,
      strategy: 'none',
      decision: 'waiting',
      status: 'ambiguous',
      nextCheckAt: quietUntil,
      reason: 'Waiting until any request still running on the platform has certainly ended',
      evidence: { lastAttemptAt: d.lastAttemptAt.toISOString(), quietUntil: quietUntil.toISOString() },
    };
  }
  if (d.kind === 'dm') {
    return {
      ...base,
      strategy: 'none',
      decision: 'needs_review',
      status: 'needs_review',
      reason: 'Direct messages cannot be read back from the platform: check the conversation',
      evidence: { kind: 'dm', recipient: d.recipient, firstAttemptAt: d.firstAttemptAt.toISOString() },
    };
  }
  const client = providerClientForAccount(
    { ...d, id: d.accountId },
    { encryptionKey: options.encryptionKey, origin: options.origin, transport: options.transport },
  );
  let dropOnRelease: string[] | undefined;
  if (definition.reconcile !== 'timeline' && client.readBack) {
    const outcome = await readBackOne(db, d, client, options);
    if (outcome && 'decision' in outcome) return outcome;
    dropOnRelease = outcome?.dropOnRelease;
  }
  const decision = await readAccountPosts(db, d, client, options);
  // What the provider kept and asked to drop once absence is proven (an expired container: the next attempt makes a
  // new one only after this release).
  return dropOnRelease && decision.decision === 'released' ? { ...decision, dropState: dropOnRelease } : decision;
}

/**
 * Reads one delivery back by the provider's own evidence; `{ dropOnRelease }` when it has none (read the account's
 * posts, and drop those state keys if that read releases it).
 */
async function readBackOne(
  db: Database,
  d: AmbiguousDelivery,
  client: ProviderClient,
  options: ReconcileOptions,
): Promise<ReconcileDecision | { dropOnRelease?: string[] }> {
  const strategy = providerDefinition(d.provider).reconcile;
  const windowStart = new Date(d.firstAttemptAt.getTime() - options.windowBeforeMs);
  const base: Base = {
    deliveryId: d.deliveryId,
    generation: d.generation,
    strategy: `${d.provider}-${strategy}`,
    windowStart,
    windowEnd: new Date(),
  };
  let read: ReadBack;
  try {
    read = await client.readBack!({
      idempotencyKey: d.deliveryId,
      createdAt: d.firstAttemptAt, // what the publisher gave every attempt as createdAt
      text: d.text,
      kind: d.kind,
      inReplyTo: d.inReplyTo,
      state: d.providerState,
      evidence: d.ambiguousDetails.map((detail) => detail.evidence ?? {}),
      since: windowStart,
      until: new Date(),
      timeoutMs: options.readTimeoutMs,
      signal: AbortSignal.timeout(Math.max(1_000, options.leaseMs - DECISION_MARGIN_MS)),
    });
  } catch (error) {
    await noteRejectedToken(db, d, error);
    const reason = error instanceof ProviderReadError ? error.classification.reason : (error as Error).message;
    return unreadableOrRecheck(d, base, options, { readError: reason });
  }
  const evidence = { ...read.evidence, verdict: read.verdict };
  switch (read.verdict) {
    case 'found':
      return {
        ...base,
        decision: 'found',
        status: 'sent',
        reason: 'Found on the platform',
        readCount: 1,
        externalId: read.post.id,
        url: read.post.url ?? null,
        evidence: { ...evidence, matched: read.post.id },
      };
    case 'review':
      return { ...base, decision: 'needs_review', status: 'needs_review', reason: read.reason, evidence };
    case 'pending':
      // Not an unreadable platform: it answered, and the answer is "not yet" (the provider bounds how long).
      return {
        ...base,
        decision: 'waiting',
        status: 'ambiguous',
        reason: read.reason,
        nextCheckAt: read.retryAt,
        evidence,
      };
    case 'absent':
      // Record key: this one read is the proof (a resend cannot make a second record). Other evidence: the
      // usual two reads a delay apart.
      return strategy === 'record-key'
        ? releaseOrReview(d, { ...base, readCount: 0 }, options, evidence)
        : notFound(d, { ...base, readCount: 0 }, options, evidence);
    case 'list':
      return { dropOnRelease: read.dropOnRelease };
  }
}

/** A read answered 401: the account's token needs a reconnect (its scheduled deliveries are then held). */
async function noteRejectedToken(db: Database, d: AmbiguousDelivery, error: unknown) {
  if (error instanceof ProviderReadError && error.classification.tokenRejected)
    await recordTokenRejected(db, {
      accountId: d.accountId,
      provider: d.provider,
      credentialsEncrypted: d.credentialsEncrypted,
    });
}

/** Reads the account's own posts around the attempts and counts the copies of this delivery. */
async function readAccountPosts(
  db: Database,
  d: AmbiguousDelivery,
  client: ProviderClient,
  options: ReconcileOptions,
): Promise<ReconcileDecision> {
  const windowStart = new Date(d.firstAttemptAt.getTime() - options.windowBeforeMs);
  const windowEnd = new Date();
  const base = {
    deliveryId: d.deliveryId,
    generation: d.generation,
    strategy: `${d.provider}-timeline`,
    windowStart,
    windowEnd,
  };
  let posts: RecentPost[];
  try {
    // All pages together end before the lease does, so the decision is written while it still holds.
    const signal = AbortSignal.timeout(Math.max(1_000, options.leaseMs - DECISION_MARGIN_MS));
    posts = await client.listRecent({
      since: windowStart,
      until: windowEnd,
      inReplyTo: d.kind === 'reply' ? d.inReplyTo : null,
      timeoutMs: options.readTimeoutMs,
      signal,
      maxPages: MAX_PAGES,
    });
  } catch (error) {
    await noteRejectedToken(db, d, error);
    const reason = error instanceof ProviderReadError ? error.classification.reason : (error as Error).message;
    return unreadableOrRecheck(d, base, options, { readError: reason });
  }
  const { same, similar } = compareWithPlatform(posts, {
    text: d.text,
    kind: d.kind,
    inReplyTo: d.inReplyTo,
    windowStart,
    windowEnd,
  });
  const ownedElsewhere = await getIdsOwnedByOtherDeliveries(db, {
    accountId: d.accountId,
    deliveryId: d.deliveryId,
    externalIds: [...same, ...similar].map((m) => m.id),
  });
  const copies = same.filter((m) => !ownedElsewhere.has(m.id));
  const close = similar.filter((m) => !ownedElsewhere.has(m.id));
  const evidence = {
    read: posts.length,
    ids: posts.slice(0, 20).map((p) => p.id),
    copies: copies.map((c) => ({ id: c.id, url: c.url ?? null, createdAt: c.createdAt.toISOString(), by: c.why })),
    ...(close.length > 0 ? { similar: close.map(describeSimilar) } : {}),
    ...(ownedElsewhere.size > 0 ? { sameTextOtherDeliveries: [...ownedElsewhere] } : {}),
  };
  const readCount = posts.length;
  if (copies.length > 1) {
    return {
      ...base,
      decision: 'needs_review',
      status: 'needs_review',
      readCount,
      evidence,
      reason: `${copies.length} copies on the platform: keep one and delete the others`,
    };
  }
  // A post close to ours is never proof of absence, and beside an exact copy it may be a second one of ours.
  if (close.length > 0) {
    const count = copies.length + close.length;
    return {
      ...base,
      decision: 'needs_review',
      status: 'needs_review',
      readCount,
      evidence,
      reason:
        copies.length === 0
          ? `${close.length === 1 ? 'A post' : `${close.length} posts`} close to ours on the platform, none the same: confirm whether it is this delivery`
          : `${count} posts like ours on the platform (${copies.length} the same, ${close.length} similar): keep one and delete the others`,
    };
  }
  if (copies.length === 1) {
    const [copy] = copies as [SamePost];
    return {
      ...base,
      decision: 'found',
      status: 'sent',
      reason: 'Found on the platform',
      readCount,
      externalId: copy.id,
      url: copy.url ?? null,
      evidence: { ...evidence, matched: copy.id },
    };
  }
  return notFound(d, { ...base, readCount }, options, evidence);
}

/** A similar candidate as an admin needs it: where, when, what it says, and why it is only similar. */
function describeSimilar(post: SimilarPost) {
  return {
    id: post.id,
    url: post.url ?? null,
    createdAt: post.createdAt.toISOString(),
    text: (post.source ?? post.text).slice(0, 500),
    why: post.why,
  };
}

/** "Not found" counts only after a second read at least recheckDelayMs after the first (read lag). */
function notFound(
  d: AmbiguousDelivery,
  base: Base,
  options: ReconcileOptions,
  evidence: Record<string, unknown>,
): ReconcileDecision {
  const firstMiss = d.firstNotFoundAt;
  if (!firstMiss || Date.now() - firstMiss.getTime() < options.recheckDelayMs) {
    const waitMs = firstMiss ? options.recheckDelayMs - (Date.now() - firstMiss.getTime()) : options.recheckDelayMs;
    return {
      ...base,
      decision: 'not_found_recheck',
      status: 'ambiguous',
      reason: 'Not found yet; checking again after the read-lag delay',
      nextCheckAt: new Date(Date.now() + waitMs),
      evidence,
    };
  }
  const definition = providerDefinition(d.provider);
  if (
    d.ambiguousDetails.some((detail) =>
      definition.isDuplicateEvidence({ rule: detail.rule ?? '', evidence: detail.evidence }),
    )
  ) {
    return {
      ...base,
      decision: 'needs_review',
      status: 'needs_review',
      // X's "duplicate content", or a call whose lost answer leaves no proof of absence possible (a TikTok init).
      reason:
        'Not found, but an attempt left evidence that the post may exist (a "duplicate content" refusal, or an answer lost where no read can prove absence)',
      evidence,
    };
  }
  return releaseOrReview(d, base, options, evidence);
}

/** Proven absent: published again if the budget and the lateness limit allow, else an admin decides. */
function releaseOrReview(
  d: AmbiguousDelivery,
  base: Base,
  options: ReconcileOptions,
  evidence: Record<string, unknown>,
): ReconcileDecision {
  if (d.releases >= options.maxReleases) {
    return {
      ...base,
      decision: 'needs_review',
      status: 'needs_review',
      evidence: { ...evidence, releases: d.releases },
      reason: `Not found after ${d.releases} new attempt${d.releases === 1 ? '' : 's'} without an answer: an admin decides`,
    };
  }
  if (Date.now() + options.releaseMarginMs < d.deadline.getTime()) {
    return {
      ...base,
      decision: 'released',
      status: 'scheduled',
      reason:
        base.readCount === 0 && providerDefinition(d.provider).reconcile === 'record-key'
          ? 'Not found by its record key: released to be published again under the same key'
          : 'Not found in two reads: released to be published again',
      evidence,
    };
  }
  return {
    ...base,
    decision: 'needs_review',
    status: 'needs_review',
    reason: 'Not found, and too late to publish again on time',
    evidence: { ...evidence, deadline: d.deadline.toISOString() },
  };
}

function unreadableOrRecheck(
  d: AmbiguousDelivery,
  base: Base,
  options: ReconcileOptions,
  evidence: Record<string, unknown>,
): ReconcileDecision {
  if (d.unreadableReads + 1 >= options.maxUnreadable) {
    return {
      ...base,
      decision: 'needs_review',
      status: 'needs_review',
      reason: `The platform could not be read after ${options.maxUnreadable} tries`,
      evidence,
    };
  }
  return {
    ...base,
    decision: 'unreadable',
    status: 'ambiguous',
    reason: 'The platform could not be read; trying again',
    nextCheckAt: new Date(Date.now() + Math.max(1_000, options.recheckDelayMs) * 2 ** d.unreadableReads),
    evidence,
  };
}

function unexpected(d: AmbiguousDelivery, error: unknown): ReconcileDecision {
  logger.error({ deliveryId: d.deliveryId, err: error }, 'reconciliation check failed');
  return {
    deliveryId: d.deliveryId,
    generation: d.generation,
    strategy: 'error',
    decision: 'unreadable',
    status: 'ambiguous',
    reason: 'The check failed unexpectedly; trying again',
    nextCheckAt: new Date(Date.now() + 30_000),
    evidence: { error: (error as Error).message },
  };
}
