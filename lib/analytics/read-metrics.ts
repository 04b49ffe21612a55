import type { Database } from '@/db/client';
import {
  addDueMetricReads,
  claimDueMetricReads,
  recordMetricReadings,
  releaseMetricReads,
  type DueMetricRead,
  type MetricReading,
  type MetricRelease,
} from '@/db/queries/post-metrics';
import { logger } from '@/lib/logging/logger';
import {
  providerClientForAccount,
  ProviderReadError,
  type PostMetricsRead,
  type ProviderClient,
  type ProviderTransport,
} from '@/lib/providers';
import type { ProviderName } from '@/lib/providers/types';
import { takeReadBudget, type ReadBudgetOptions } from '@/lib/read-budget/take';
import { engagementOf } from './metrics';
import { emitMetricsUpdated } from './metrics-event';
import { readFollowerCounts, type FollowerSummary } from './read-followers';
import { latestDueReading, nextReading, readHorizonMs, readingAt, retryDelayMs } from './schedule';

export type MetricsJobOptions = {
  workerId: string;
  /** Readings claimed per statement. */
  batchSize: number;
  leaseMs: number;
  /** One platform call's timeout. */
  readTimeoutMs: number;
  /** When a sent post is read, after it was published (ANALYTICS_READ_DELAYS_MS). */
  delaysMs: number[];
  /** A reading the platform failed to answer this many times is skipped. */
  maxFailures: number;
  /** Stop claiming after this long (a cron invocation's budget). */
  budgetMs: number;
  readBudget: ReadBudgetOptions;
  encryptionKey: string;
  origin?: string;
  transport?: ProviderTransport;
  /** The job's clock (tests move it). */
  now?: () => Date;
};

export type MetricsSummary = {
  added: number;
  claimed: number;
  recorded: number;
  /** Handed back for later: the read budget was spent, the platform did not answer, the account cannot read now. */
  deferred: number;
  deleted: number;
  unsupported: number;
  fenced: number;
  followers: FollowerSummary;
  /** `metrics.updated` events written (one per workspace with new readings in each claimed batch). */
  events: number;
};

/** How long before a lease runs out a reader stops starting calls (the rest is handed back). */
const LEASE_MARGIN_MS = 5_000;
/** A reading that cannot be made now (account disconnected, delivery not sent for now): looked at again then. */
const PAUSE_MS = 6 * 3_600_000;
/** A post a read left out is read again this much later; missing then too, it is deleted. */
export const MISSING_CONFIRM_MS = 30 * 60_000;
/**
 * Networks whose replies (a first comment) have no metrics of their own, each row added stopped, `unsupported`: an
 * Instagram comment has no insights edge (Graph answers "nonexisting field (insights) on node type (IGComment)"); a
 * LinkedIn comment is no share, so organizationalEntityShareStatistics has nothing for it; a Facebook Page's comment
 * has no shares or insights, only its own likes, which the post's readings do not ask for.
 */
export const REPLIES_WITHOUT_METRICS: ProviderName[] = ['instagram', 'linkedin', 'facebook'];

/**
 * One metrics run (docs/analytics.md#the-metrics-job), safe with any number of concurrent runners: add the sent
 * deliveries whose first reading falls due, then claim due readings (SKIP LOCKED, generation, lease), per account take
 * the read budget first (publishing keeps its reserved share: docs/architecture.md#read-budget), read the platform
 * through the real provider client, and record each reading once, fenced — with one `metrics.updated` event per
 * workspace for what the batch recorded, in the same transaction; then the daily follower counts.
 */
export async function readDueMetrics(db: Database, options: MetricsJobOptions): Promise<MetricsSummary> {
  const now = options.now ?? (() => new Date());
  const started = Date.now();
  const summary: MetricsSummary = {
    added: 0,
    claimed: 0,
    recorded: 0,
    deferred: 0,
    deleted: 0,
    unsupported: 0,
    fenced: 0,
    followers: { claimed: 0, recorded: 0, deferred: 0, unsupported: 0 },
    events: 0,
  };
  summary.added = await addDueMetricReads(db, {
    delaysMs: options.delaysMs,
    horizonMs: readHorizonMs(options.delaysMs),
    limit: 5_000,
    repliesWithoutMetrics: REPLIES_WITHOUT_METRICS,
  });
  while (Date.now() - started < options.budgetMs) {
    const batch = await claimDueMetricReads(db, {
      workerId: options.workerId,
      limit: options.batchSize,
      leaseMs: options.leaseMs,
    });
    if (batch.length === 0) break;
    summary.claimed += batch.length;
    const byAccount = new Map<string, DueMetricRead[]>();
    for (const r of batch) byAccount.set(r.accountId, [...(byAccount.get(r.accountId) ?? []), r]);
    const leaseEnds = Date.now() + options.leaseMs - LEASE_MARGIN_MS;
    const outcomes = await Promise.all(
      [...byAccount.values()].map((reads) =>
        readAccount(db, reads, options, now, leaseEnds).catch((error) => {
          // The lease runs out and the readings are claimed again: nothing half-written.
          logger.error({ accountId: reads[0]!.accountId, err: error }, 'metrics read failed');
          return { readings: [], releases: [] } as AccountOutcome;
        }),
      ),
    );
    const readings = outcomes.flatMap((o) => o.readings);
    const releases = outcomes.flatMap((o) => o.releases);
    // The outbox rule (lib/webhooks/emit.ts): the batch's metrics.updated events commit with the readings they report.
    const written =
      readings.length === 0
        ? []
        : await db.transaction(async (tx) => {
            const done = await recordMetricReadings(tx, readings);
            summary.events += await emitMetricsUpdated(tx, done, now());
            return done;
          });
    summary.recorded += written.length;
    const released = await releaseMetricReads(db, releases);
    summary.fenced += readings.length - written.length + releases.length - released;
    for (const r of releases) {
      if (r.stop === 'deleted') summary.deleted++;
      else if (r.stop === 'unsupported') summary.unsupported++;
      else summary.deferred++;
    }
    if (batch.length < options.batchSize) break;
  }
  summary.followers = await readFollowerCounts(db, { ...options, now });
  return summary;
}

type AccountOutcome = { readings: MetricReading[]; releases: MetricRelease[] };

/** One account's due readings: one client, the budget taken per batch before the call, then the batch's results. */
async function readAccount(
  db: Database,
  reads: DueMetricRead[],
  options: MetricsJobOptions,
  now: () => Date,
  leaseEnds: number,
): Promise<AccountOutcome> {
  const out: AccountOutcome = { readings: [], releases: [] };
  const later = (r: DueMetricRead, dueAt: Date, failed = false) =>
    out.releases.push(
      failed && r.failures + 1 >= options.maxFailures
        ? {
            ...fence(r),
            dueAt,
            skipTo: nextReading(r.nextReading, r.publishedAt, options.delaysMs, now()) ?? {
              reading: r.nextReading,
              dueAt: null,
            },
          }
        : { ...fence(r), dueAt, failed },
    );
  const first = reads[0]!;
  const readable: DueMetricRead[] = [];
  for (const r of reads) {
    if (!r.externalId) out.releases.push({ ...fence(r), dueAt: null, stop: 'unsupported' });
    // Disconnected, waiting for a reconnect, or no longer sent (a late copy is in review): looked at again later,
    // until the post is past its last reading (then reading ends).
    else if (r.accountDisconnected || !r.accountCanRead || r.deliveryStatus !== 'sent')
      out.releases.push(
        now().getTime() > r.publishedAt.getTime() + readHorizonMs(options.delaysMs)
          ? { ...fence(r), dueAt: null, skipTo: { reading: r.nextReading, dueAt: null } }
          : { ...fence(r), dueAt: new Date(now().getTime() + PAUSE_MS) },
      );
    else readable.push(r);
  }
  if (readable.length === 0) return out;
  let client: ProviderClient;
  try {
    client = providerClientForAccount(
      { ...first, id: first.accountId },
      { encryptionKey: options.encryptionKey, origin: options.origin, transport: options.transport },
    );
  } catch (error) {
    logger.warn({ accountId: first.accountId, err: (error as Error).message }, 'metrics: no client for the account');
    for (const r of readable) later(r, new Date(now().getTime() + PAUSE_MS));
    return out;
  }
  const reader = client.postMetrics;
  if (!reader) {
    for (const r of readable) out.releases.push({ ...fence(r), dueAt: null, stop: 'unsupported' });
    return out;
  }
  for (let i = 0; i < readable.length; i += reader.batchSize) {
    const chunk = readable.slice(i, i + reader.batchSize);
    if (Date.now() + options.readTimeoutMs * reader.calls(chunk.length) > leaseEnds) {
      // Too little lease left for this batch's calls: handed back as they were, due now.
      for (const r of chunk) later(r, now());
      continue;
    }
    const grant = await takeReadBudget(
      db,
      {
        account: {
          id: first.accountId,
          workspaceId: first.workspaceId,
          provider: first.provider,
          sandbox: first.sandbox,
        },
        calls: reader.calls(chunk.length),
        purpose: 'metrics',
      },
      options.readBudget,
    );
    if (!grant.granted) {
      for (const r of chunk) later(r, grant.retryAt);
      continue;
    }
    let results: Map<string, PostMetricsRead>;
    try {
      results = await reader.read({
        ids: chunk.map((r) => r.externalId!),
        timeoutMs: options.readTimeoutMs,
        signal: AbortSignal.timeout(Math.max(1_000, leaseEnds - Date.now())),
      });
    } catch (error) {
      if (!(error instanceof ProviderReadError)) throw error;
      logger.warn({ accountId: first.accountId, reason: error.classification.reason }, 'metrics: unreadable');
      for (const r of chunk) later(r, new Date(now().getTime() + retryDelayMs(r.failures)), true);
      continue;
    }
    for (const r of chunk) {
      const result = results.get(r.externalId!);
      if (!result) later(r, new Date(now().getTime() + retryDelayMs(r.failures)), true);
      else if (result.status === 'gone') out.releases.push({ ...fence(r), dueAt: null, stop: 'deleted' });
      else if (result.status === 'missing') {
        // Left out by a network that also leaves out what it has not indexed yet: deleted only on a second miss at
        // least MISSING_CONFIRM_MS after the first (a reading in between clears the first).
        const confirmAt = (r.missedAt ?? now()).getTime() + MISSING_CONFIRM_MS;
        if (r.missedAt && now().getTime() >= confirmAt)
          out.releases.push({ ...fence(r), dueAt: null, stop: 'deleted' });
        else out.releases.push({ ...fence(r), dueAt: new Date(confirmAt), missed: true });
      } else if (result.status === 'unsupported') out.releases.push({ ...fence(r), dueAt: null, stop: 'unsupported' });
      else {
        // The reading this one stands for: the latest already due, when the job fell behind several.
        const k = latestDueReading(r.nextReading, r.publishedAt, options.delaysMs, now());
        out.readings.push({
          ...fence(r),
          reading: k,
          readingAt: readingAt(r.publishedAt, options.delaysMs, k),
          metrics: result.metrics,
          engagement: engagementOf(result.metrics),
          next: nextReading(k, r.publishedAt, options.delaysMs, now()),
        });
      }
    }
  }
  return out;
}

const fence = (r: DueMetricRead) => ({ deliveryId: r.deliveryId, generation: r.generation });
