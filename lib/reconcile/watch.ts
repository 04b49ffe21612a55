import type { Database } from '@/db/client';
import { GAVE_UP_STATUSES, LATE_COPY_REASON, recordLateCopy, type GaveUpStatus } from '@/db/queries/deliveries';
import { claimDueWatches, endWatch, recordWatchCheck, type DueWatch } from '@/db/queries/late-copy-watch';
import { getIdsOwnedByOtherDeliveries } from '@/db/queries/reconcile';
import { logger } from '@/lib/logging/logger';
import {
  providerClientForAccount,
  providerDefinition,
  ProviderReadError,
  type ProviderTransport,
  type RecentPost,
} from '@/lib/providers';
import { emitWebhookEvent } from '@/lib/webhooks/emit';
import { learnFromFoundPost } from './allowance';
import { compareWithPlatform } from './match';

export type WatchOptions = {
  workerId: string;
  batchSize: number;
  leaseMs: number;
  readTimeoutMs: number;
  /** When each check falls due after the delivery was recorded sent (growing; RECONCILE_WATCH_DELAYS_MS). */
  delaysMs: number[];
  /** How far before the first attempt the read window starts (as the reconciler's). */
  windowBeforeMs: number;
  encryptionKey: string;
  origin?: string;
  transport?: ProviderTransport;
};

export type WatchSummary = { checked: number; clear: number; lateCopies: number; ended: number; fenced: number };

const MAX_PAGES = 10;
const DECISION_MARGIN_MS = 5_000;

/**
 * The watch for late copies (docs/architecture.md#late-copies): a proof of absence can be wrong (a server that
 * creates the post after our allowance), so every delivery released after one — once published again and sent, or
 * given up (failed, canceled, missed) — is read again at growing delays. A second copy of a sent one sends it to
 * review with both copies, a `delivery.duplicate_detected` event and a notification; any copy of a given-up one sends
 * it to review as live; both raise the host's allowance. Safe with any number of concurrent watchers (claim + generation).
 */
export async function watchForLateCopies(db: Database, options: WatchOptions): Promise<WatchSummary> {
  const summary: WatchSummary = { checked: 0, clear: 0, lateCopies: 0, ended: 0, fenced: 0 };
  for (;;) {
    const batch = await claimDueWatches(db, {
      workerId: options.workerId,
      limit: options.batchSize,
      leaseMs: options.leaseMs,
      delaysMs: options.delaysMs,
    });
    if (batch.length === 0) break;
    const results = await Promise.all(
      batch.map((w) =>
        checkOne(db, w, options).catch((error) => {
          logger.error({ deliveryId: w.deliveryId, err: error }, 'late-copy check failed');
          return 'fenced' as const; // the lease runs out and the step is taken again
        }),
      ),
    );
    for (const result of results) {
      summary.checked++;
      summary[result]++;
    }
    if (batch.length < options.batchSize) break;
  }
  return summary;
}

type CheckResult = 'clear' | 'lateCopies' | 'ended' | 'fenced';

async function checkOne(db: Database, w: DueWatch, options: WatchOptions): Promise<CheckResult> {
  const fence = { deliveryId: w.deliveryId, generation: w.generation };
  // Sent after a release: a second copy is the late one. Given up after a release (failed, canceled, missed): any
  // copy is. Anything else means an admin (or a detection) moved it on: nothing left to watch.
  const gaveUp = GAVE_UP_STATUSES.includes(w.status);
  if (w.status !== 'sent' && !gaveUp)
    return (await endWatch(db, { ...fence, outcome: 'stopped' })) ? 'ended' : 'fenced';
  // A record key cannot hold a second record, and a DM cannot be read back: no late copy can be seen or exist.
  if (providerDefinition(w.provider).reconcile === 'record-key' || w.kind === 'dm')
    return (await endWatch(db, { ...fence, outcome: 'not_needed' })) ? 'ended' : 'fenced';

  // Every configured step is done (the delays were shortened since it started): nothing left to read.
  if (w.step >= options.delaysMs.length)
    return (await endWatch(db, { ...fence, outcome: 'clear' })) ? 'ended' : 'fenced';
  const last = w.step + 1 >= options.delaysMs.length;
  const windowStart = new Date(w.firstAttemptAt.getTime() - options.windowBeforeMs);
  const windowEnd = new Date();
  const base = { ...fence, step: w.step, strategy: `${w.provider}-watch`, windowStart, windowEnd };
  let posts: RecentPost[];
  try {
    if (w.accountDisconnected) throw new Error('The account was disconnected');
    const client = providerClientForAccount(
      { ...w, id: w.accountId },
      { encryptionKey: options.encryptionKey, origin: options.origin, transport: options.transport },
    );
    posts = await client.listRecent({
      since: windowStart,
      until: windowEnd,
      inReplyTo: w.kind === 'reply' ? w.inReplyTo : null,
      timeoutMs: options.readTimeoutMs,
      signal: AbortSignal.timeout(Math.max(1_000, options.leaseMs - DECISION_MARGIN_MS)),
      maxPages: MAX_PAGES,
    });
  } catch (error) {
    // An unreadable step is stored as such; the next step reads again (the last one ends the watch unread).
    const readError = error instanceof ProviderReadError ? error.classification.reason : (error as Error).message;
    const written = await recordWatchCheck(db, { ...base, evidence: { readError }, endWith: last ? 'clear' : null });
    return written ? 'clear' : 'fenced';
  }
  // A similar post counts as a copy here as it does in the reconciler: two that are same or similar are never "sent".
  const { same, similar } = compareWithPlatform(posts, { ...w, windowStart, windowEnd });
  const ownedElsewhere = await getIdsOwnedByOtherDeliveries(db, {
    accountId: w.accountId,
    deliveryId: w.deliveryId,
    externalIds: [...same, ...similar].map((m) => m.id),
  });
  const copies = [...same, ...similar]
    .filter((m) => !ownedElsewhere.has(m.id))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .map((c) => ({
      id: c.id,
      url: c.url ?? null,
      createdAt: c.createdAt.toISOString(),
      ...('score' in c ? { similar: c.why } : {}),
    }));
  const evidence = { read: posts.length, externalId: w.externalId, copies, step: w.step };
  if (copies.length <= (gaveUp ? 0 : 1)) {
    const written = await recordWatchCheck(db, {
      ...base,
      readCount: posts.length,
      evidence,
      endWith: last ? 'clear' : null,
    });
    return written ? 'clear' : 'fenced';
  }
  const from = gaveUp ? (w.status as GaveUpStatus) : 'sent';
  return (await recordDetection(db, w, { ...base, readCount: posts.length, copies, evidence, from }, options.workerId))
    ? 'lateCopies'
    : 'fenced';
}

/** One transaction: the review move (fenced, once), its webhook event, and what the host taught us. */
async function recordDetection(
  db: Database,
  w: DueWatch,
  detection: Omit<Parameters<typeof recordLateCopy>[1], 'actor'>,
  workerId: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const applied = await recordLateCopy(tx, { ...detection, actor: `watch:${workerId}` });
    if (!applied) return false;
    // A copy of a given-up delivery is not a duplicate: its move to needs_review emits delivery.needs_review (0013).
    if (detection.from === 'sent')
      await emitWebhookEvent(tx, {
        workspaceId: applied.workspaceId,
        type: 'delivery.duplicate_detected',
        subject: `delivery:${w.deliveryId}`,
        data: {
          deliveryId: w.deliveryId,
          postId: applied.postId,
          accountId: applied.accountId,
          provider: w.provider,
          reason: LATE_COPY_REASON,
          externalId: w.externalId,
          copies: detection.copies,
          detectedAt: new Date().toISOString(),
        },
      });
    // The copies other than the one our 2xx named were made by an earlier call that the platform finished late.
    for (const copy of detection.copies.filter((c) => c.id !== w.externalId))
      await learnFromFoundPost(tx, {
        ...w,
        deliveryId: w.deliveryId,
        createdAt: new Date(copy.createdAt),
        source: 'late_copy',
      });
    return true;
  });
}
