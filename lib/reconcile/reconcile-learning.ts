import type { Database } from '@/db/client';
import type { AmbiguousDelivery, ReconcileDecision } from '@/db/queries/deliveries';
import {
  DEFAULT_ALLOWANCE_CEILING_MS,
  effectiveAllowanceMs,
  learnedAllowances,
  learnFromFoundPost,
  matchedCopyCreatedAt,
} from './allowance';
import { logger } from '@/lib/logging/logger';
import type { ReconcileOptions } from './reconcile-options';

/** Per delivery: the options with its host's effective allowance (configured, raised by what the host taught us). */
export async function withLearnedAllowance(db: Database, batch: AmbiguousDelivery[], options: ReconcileOptions) {
  const learnedFor = await learnedAllowances(db, batch);
  const ceiling = options.allowanceCeilingMs ?? DEFAULT_ALLOWANCE_CEILING_MS;
  return (d: AmbiguousDelivery): ReconcileOptions => {
    const learned = learnedFor(d);
    if (!learned) return options;
    const allowance = effectiveAllowanceMs(options.allowanceMs[d.provider], learned, ceiling);
    return { ...options, allowanceMs: { ...options.allowanceMs, [d.provider]: allowance } };
  };
}

/** A stored "found": how long after our call the platform created the post, kept per host when it is the worst. */
export async function learnAfterCheck(db: Database, d: AmbiguousDelivery, decision: ReconcileDecision) {
  if (decision.decision !== 'found') return;
  const createdAt = matchedCopyCreatedAt(decision.evidence, decision.externalId);
  // What we learn only lengthens later waits: a failure to record it must not stop the pass settling the rest.
  if (createdAt)
    await learnFromFoundPost(db, { ...d, createdAt, source: 'found' }).catch((err) =>
      logger.warn({ deliveryId: d.deliveryId, err }, 'could not record the observed processing delay'),
    );
}
