import type { Database } from '@/db/client';
import {
  claimDueDeliveries,
  markMissedDeliveries,
  recordOutcomes,
  saveProviderState,
  settleStrandedParts,
  startAttempts,
  sweepExpiredClaims,
  type ClaimedDelivery,
  type DeliveryOutcome,
  type StartedAttempt,
} from '@/db/queries/deliveries';
import { countRecentAttemptsByAccount } from '@/db/queries/publishing';
import { logger } from '@/lib/logging/logger';
import { countSweptClaims, observePlatformCall, observeSentLateness } from '@/lib/metrics/record';
import { getMediaStorage } from '@/lib/media/storage';
import { providerClientForAccount, providerDefinition, type ProviderClient, type PublishMedia } from '@/lib/providers';
import { recordTokenRejected } from '@/lib/tokens/token-health';
import { notSentBackoffMs, type PublisherOptions, type RateLimits } from './config';
import { loadPublishMedia } from './post-media';

export type PublishSummary = {
  claimed: number;
  sent: number;
  failed: number;
  not_sent: number;
  ambiguous: number;
  deferred: number;
  missed: number;
  released: number;
  fenced: number;
  /** Thread parts settled because an earlier part failed, was canceled or missed. */
  stranded: number;
};

const emptySummary = (): PublishSummary => ({
  claimed: 0,
  sent: 0,
  failed: 0,
  not_sent: 0,
  ambiguous: 0,
  deferred: 0,
  missed: 0,
  released: 0,
  fenced: 0,
  stranded: 0,
});

/**
 * One publisher pass, safe with any number of concurrent callers (docs/architecture.md#write-order): mark missed, then
 * per batch: claim (commit) → attempt rows `started` (commit) → platform calls with a timeout shorter than the
 * lease → outcomes (commit, fenced by generation); then sweep lapsed leases and settle stranded thread parts. The
 * sweep comes after the claims, not before, so a delivery that falls due waits only for mark-missed and its claim
 * (docs/publishing.md#lateness); what the sweep releases is marked missed or claimed before the pass ends.
 */
export async function publishDueDeliveries(db: Database, options: PublisherOptions): Promise<PublishSummary> {
  const started = Date.now();
  const summary = emptySummary();
  const actor = `worker:${options.workerId}`;
  const clients = new Map<string, ProviderClient>(); // one credentials decryption per account and pass

  // Calls go in chunks: one statement commits a chunk's attempt rows (re-checking the lease), one its
  // outcomes. Several chunks are in flight at once, so one chunk's round trips to the database overlap
  // the platform calls of the others; each attempt keeps its own order (row → call → outcome).
  const chunkSize = Math.max(1, Math.min(options.chunkSize ?? options.concurrency, options.concurrency));
  const chunksInFlight = Math.max(1, Math.floor(options.concurrency / chunkSize));
  // Claim only what can be called while the lease lasts (as if the chunks ran one after another).
  const margin = options.callTimeoutMs + 2_000;
  const chunksPerLease = Math.max(1, Math.floor((options.leaseMs - margin) / options.callTimeoutMs));
  const claimLimit = Math.min(options.batchSize, options.concurrency * chunksPerLease);

  let unlocked = false; // a thread part was sent in this batch: the next part is claimable now
  const publishChunk = async (chunk: ClaimedDelivery[]) => {
    // The attempt rows commit before any call, and only for claims with enough lease left.
    const attempts = await startAttempts(db, { claims: chunk, minLeaseMs: margin });
    if (attempts.length < chunk.length) {
      // Too little lease left to call safely: hand those back untouched (no attempt was started).
      const startedIds = new Set(attempts.map((a) => a.deliveryId));
      summary.released += (
        await recordOutcomes(db, {
          actor,
          outcomes: chunk
            .filter((c) => !startedIds.has(c.deliveryId))
            .map((c) => ({
              deliveryId: c.deliveryId,
              generation: c.generation,
              attemptId: null,
              outcome: null,
              status: 'scheduled' as const,
              reason: 'released: lease too short to call',
              dueAt: new Date(),
            })),
        })
      ).length;
    }
    const media = await loadPublishMedia(db, attempts, {
      storage: options.mediaStorage ?? getMediaStorage(),
      encryptionKey: options.encryptionKey,
      origin: options.origin,
    });
    const outcomes = await Promise.all(
      attempts.map((attempt) => publishOne(db, attempt, options, clients, media.get(attempt.deliveryId))),
    );
    const written = new Set(await recordOutcomes(db, { outcomes, actor }));
    await markRejectedTokens(db, attempts, outcomes, written);
    observeSentLateness(attempts, outcomes, written);
    for (const [i, o] of outcomes.entries()) {
      if (!written.has(o.deliveryId)) summary.fenced++;
      else summary[o.outcome ?? 'not_sent']++;
      if (written.has(o.deliveryId) && o.status === 'sent' && attempts[i]!.hasNextPart) unlocked = true;
    }
  };

  const claim = () =>
    claimDueDeliveries(db, { workerId: options.workerId, limit: claimLimit, leaseMs: options.leaseMs });
  const withinBudget = () => Date.now() - started < options.budgetMs;

  const claimDue = async (markMissed: boolean) => {
    // Before the claims: a delivery held past its lateness limit is marked missed (the claim never takes a late one
    // either way, whoever ran mark-missed last: claimDueDeliveries).
    if (markMissed) summary.missed += await markMissedDeliveries(db);
    let pending: Promise<ClaimedDelivery[]> | undefined = withinBudget() ? claim() : undefined;
    while (pending) {
      const claimed = await pending;
      pending = undefined;
      if (claimed.length === 0) break;
      summary.claimed += claimed.length;
      unlocked = false;

      const { allowed, deferred } = await applyRateLimits(db, claimed, options.rateLimits);
      summary.deferred += (await recordOutcomes(db, { outcomes: deferred, actor })).length;

      const chunks: ClaimedDelivery[][] = [];
      for (let i = 0; i < allowed.length; i += chunkSize) chunks.push(allowed.slice(i, i + chunkSize));
      // More was due than this claim took (it was shared out): the next claim is made as soon as the last chunk of
      // this one has started, so its statement overlaps the calls still in flight instead of following them.
      const claimAhead = () => {
        if (pending || !claimed[0]!.contended || !withinBudget()) return;
        pending = claim();
        pending.catch(() => {}); // handled where it is awaited; a failure meanwhile is no unhandled rejection
      };
      let next = 0;
      const lanes = await Promise.allSettled(
        Array.from({ length: Math.min(chunksInFlight, chunks.length) }, async () => {
          while (next < chunks.length) await publishChunk(chunks[next++]!);
          claimAhead();
        }),
      );
      // Every lane has finished (no write is left running behind the caller's back) before a failure is rethrown.
      // A claim made ahead is left to its lease (nothing was attempted: the sweep releases it).
      const failure = lanes.find((lane) => lane.status === 'rejected');
      if (failure) throw failure.reason;
      if (chunks.length === 0) claimAhead(); // everything deferred: nothing in flight to overlap
      // A thread goes on in this pass: its next parts are due now (and a cron-triggered host may not call again soon).
      if (!pending && unlocked && withinBudget()) pending = claim();
    }
  };
  const maintain = async () => {
    const swept = await sweepExpiredClaims(db);
    countSweptClaims(swept);
    summary.released += swept.released;
    summary.ambiguous += swept.ambiguous;
    // The parts after one that failed, was canceled or missed (in this pass or before) are settled now.
    summary.stranded += await settleStrandedParts(db);
    return swept.released;
  };
  let maintaining = takeMaintenanceTurn(options);
  try {
    await claimDue(maintaining);
    // Nothing to claim: this pass may have woken for a lapsed lease or a delivery now late, which only maintenance
    // settles (and the scheduler would wake for it again at once).
    if (!maintaining && summary.claimed === 0) {
      maintaining = takeMaintenanceTurn(options, true);
      summary.missed += await markMissedDeliveries(db);
    }
  } catch (error) {
    // A pass that failed still sweeps (lapsed leases must not wait for a pass that succeeds), then reports its failure.
    await maintain().catch(() => {});
    throw error;
  }
  // Claims of dead workers released to `scheduled`: published in this pass (after mark-missed) while it has budget.
  if (maintaining && (await maintain()) > 0 && Date.now() - started < options.budgetMs) {
    await claimDue(true);
    summary.stranded += await settleStrandedParts(db);
  }
  return summary;
}

const lastMaintained = new WeakMap<PublisherOptions, number>();

/** Whether this pass maintains (options.maintainEveryMs): the first pass of the interval does, and records it. */
function takeMaintenanceTurn(options: PublisherOptions, force = false): boolean {
  const every = options.maintainEveryMs ?? 0;
  const now = Date.now();
  if (!force && every > 0 && now - (lastMaintained.get(options) ?? -Infinity) < every) return false;
  lastMaintained.set(options, now);
  return true;
}

/** One platform call for one attempt; never throws: every failure is an outcome. */
async function publishOne(
  db: Database,
  attempt: StartedAttempt,
  options: PublisherOptions,
  clients: Map<string, ProviderClient>,
  media: PublishMedia[] | undefined,
): Promise<DeliveryOutcome> {
  const base = { deliveryId: attempt.deliveryId, generation: attempt.generation, attemptId: attempt.attemptId };
  // Keyed by the sealed credentials too: a reconnected account (new token) never reuses an old client.
  const clientKey = `${attempt.accountId}\u0000${attempt.baseUrl}\u0000${attempt.credentialsEncrypted}`;
  let client = clients.get(clientKey);
  try {
    client ??= providerClientForAccount(
      { ...attempt, id: attempt.accountId },
      { encryptionKey: options.encryptionKey, origin: options.origin, transport: options.transport },
    );
    clients.set(clientKey, client);
  } catch (error) {
    // Nothing left this process: a definite failure of configuration, not an unknown outcome.
    logger.warn({ deliveryId: attempt.deliveryId, err: (error as Error).message }, 'provider client unavailable');
    return {
      ...base,
      outcome: 'failed',
      status: 'failed',
      reason: `Account cannot publish: ${(error as Error).message}`,
    };
  }
  const result = await client.publish({
    text: attempt.text,
    kind: attempt.kind,
    inReplyTo: attempt.inReplyTo ?? undefined,
    recipient: attempt.recipient ?? undefined,
    idempotencyKey: attempt.deliveryId, // the same on every attempt of this delivery
    createdAt: attempt.firstAttemptAt,
    timeoutMs: options.callTimeoutMs,
    state: attempt.providerState,
    ...(attempt.format ? { format: attempt.format } : {}),
    ...(attempt.options ? { options: attempt.options } : {}),
    ...(media ? { media } : {}),
    saveState: (state) =>
      saveProviderState(db, { deliveryId: attempt.deliveryId, generation: attempt.generation, state }),
  });
  observePlatformCall(attempt.provider, result);
  const common = {
    ...base,
    outcome: result.outcome,
    reason: result.reason,
    httpStatus: result.httpStatus ?? null,
    durationMs: result.durationMs,
  };
  const detail = {
    rule: result.rule,
    ...(result.evidence ? { evidence: result.evidence } : {}),
    ...(result.safeRetryUntil ? { safeRetryUntil: result.safeRetryUntil.toISOString() } : {}),
  };
  if (result.tokenRejected) {
    // The platform refused the token before doing anything (a 401, or its own way of saying so): nothing was
    // published. The delivery goes back to scheduled and is held (not claimed) until the account is reconnected.
    return {
      ...common,
      outcome: 'not_sent',
      status: 'scheduled',
      reason: `${result.reason} Nothing was published; held until the account is reconnected.`,
      dueAt: new Date(),
      detail: { ...detail, tokenRejected: true },
    };
  }
  switch (result.outcome) {
    case 'sent':
      return { ...common, status: 'sent', externalId: result.externalId ?? null, url: result.url ?? null, detail };
    case 'failed':
      return { ...common, status: 'failed', detail };
    case 'ambiguous':
      // First read only once this request has certainly ended on the platform too (docs/architecture.md#proof-of-absence);
      // a record-key network at once: a resend under the same key can never make a second record.
      return {
        ...common,
        status: 'ambiguous',
        dueAt:
          providerDefinition(attempt.provider).reconcile === 'record-key'
            ? new Date()
            : new Date(result.startedAt.getTime() + options.callTimeoutMs + options.allowanceMs[attempt.provider]),
        detail,
      };
    case 'not_sent':
      return {
        ...common,
        status: 'scheduled',
        dueAt: result.retryAt ?? new Date(Date.now() + notSentBackoffMs(attempt.generation)),
        detail,
      };
  }
}

/** Marks each account whose token a written outcome found refused (once per account and chunk). */
async function markRejectedTokens(
  db: Database,
  attempts: StartedAttempt[],
  outcomes: DeliveryOutcome[],
  written: Set<string>,
) {
  const marked = new Set<string>();
  for (const [i, attempt] of attempts.entries()) {
    const outcome = outcomes[i]!;
    if (!outcome.detail?.tokenRejected || !written.has(outcome.deliveryId) || marked.has(attempt.accountId)) continue;
    marked.add(attempt.accountId);
    await recordTokenRejected(db, attempt);
  }
}

/** Defers (back to scheduled, later due time) what would exceed an account's per-provider limit. */
async function applyRateLimits(db: Database, claimed: ClaimedDelivery[], limits: RateLimits) {
  const limitFor = (c: ClaimedDelivery) => (c.sandbox ? limits.sandbox : limits[c.provider]);
  const limited = claimed.filter((c) => limitFor(c));
  if (limited.length === 0) return { allowed: claimed, deferred: [] as DeliveryOutcome[] };
  const longestWindow = Math.max(...limited.map((c) => limitFor(c)!.windowSeconds));
  const used = await countRecentAttemptsByAccount(db, {
    accountIds: [...new Set(limited.map((c) => c.accountId))],
    since: new Date(Date.now() - longestWindow * 1000),
  });
  const allowed: ClaimedDelivery[] = [];
  const deferred: DeliveryOutcome[] = [];
  for (const c of claimed) {
    const limit = limitFor(c);
    const count = used.get(c.accountId) ?? 0;
    if (!limit || count < limit.max) {
      allowed.push(c);
      used.set(c.accountId, count + 1);
    } else {
      deferred.push({
        deliveryId: c.deliveryId,
        generation: c.generation,
        attemptId: null,
        outcome: null,
        status: 'scheduled',
        reason: `deferred: ${limit.max} posts per ${limit.windowSeconds} s account limit`,
        dueAt: new Date(Date.now() + Math.ceil((limit.windowSeconds * 1000) / limit.max)),
      });
    }
  }
  return { allowed, deferred };
}
