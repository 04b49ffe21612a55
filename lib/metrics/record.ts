import type { DeliveryOutcome, StartedAttempt } from '@/db/queries/deliveries';
import type { PublishResult } from '@/lib/providers/types';
import { metrics } from './registry';

// One-line calls from the code paths they measure; none of them may throw into those paths.

/** One platform call by the publisher: its duration and classified outcome. */
export function observePlatformCall(
  provider: string,
  result: Pick<PublishResult, 'outcome' | 'rule' | 'durationMs'>,
): void {
  const m = metrics();
  m.platformCalls.inc({ provider, outcome: result.outcome, rule: result.rule });
  m.platformCallDuration.observe({ provider, outcome: result.outcome }, result.durationMs / 1000);
}

/** Due-to-sent lateness of each delivery the publisher recorded sent (fenced outcomes wrote nothing). */
export function observeSentLateness(
  attempts: Pick<StartedAttempt, 'deliveryId' | 'scheduledAt'>[],
  outcomes: Pick<DeliveryOutcome, 'deliveryId' | 'status'>[],
  written: Set<string>,
): void {
  const sent = new Set(
    outcomes.filter((o) => o.status === 'sent' && written.has(o.deliveryId)).map((o) => o.deliveryId),
  );
  const now = Date.now();
  for (const a of attempts) {
    if (sent.has(a.deliveryId)) metrics().lateness.observe(Math.max(0, now - new Date(a.scheduledAt).getTime()) / 1000);
  }
}

export function countReconcileDecision(decision: string): void {
  metrics().reconcileDecisions.inc({ decision });
}

export function countSweptClaims(swept: { released: number; ambiguous: number }): void {
  if (swept.released > 0) metrics().claimsSwept.inc({ result: 'released' }, swept.released);
  if (swept.ambiguous > 0) metrics().claimsSwept.inc({ result: 'ambiguous' }, swept.ambiguous);
}

export function countIdempotencyOutcome(operation: string, outcome: string): void {
  metrics().idempotency.inc({ operation, outcome });
}

/** Runs a background job, counting the run and, when it throws, the failure (rethrown). */
export async function trackJob<T>(job: string, run: () => Promise<T>): Promise<T> {
  metrics().jobRuns.inc({ job });
  try {
    return await run();
  } catch (error) {
    metrics().jobFailures.inc({ job });
    throw error;
  }
}
