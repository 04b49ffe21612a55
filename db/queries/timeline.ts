import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../client';
import { attempts, deliveryEvents, reconciliations } from '../schema';

/** Everything that happened to these deliveries (already scoped to the workspace by the caller): history rows, platform attempts and reconciliation checks. */
export async function getDeliveryTimelines(db: Executor, params: { workspaceId: string; deliveryIds: string[] }) {
  const ids = params.deliveryIds;
  if (ids.length === 0) return { events: [], attempts: [], checks: [] };
  const [eventRows, attemptRows, checkRows] = await Promise.all([
    db
      .select({
        deliveryId: deliveryEvents.deliveryId,
        at: deliveryEvents.createdAt,
        from: deliveryEvents.fromStatus,
        to: deliveryEvents.toStatus,
        actor: deliveryEvents.actor,
        reason: deliveryEvents.reason,
        detail: deliveryEvents.detail,
      })
      .from(deliveryEvents)
      .where(and(eq(deliveryEvents.workspaceId, params.workspaceId), inArray(deliveryEvents.deliveryId, ids)))
      .orderBy(asc(deliveryEvents.id)),
    db
      .select({
        deliveryId: attempts.deliveryId,
        generation: attempts.generation,
        at: attempts.startedAt,
        finishedAt: attempts.finishedAt,
        outcome: attempts.outcome,
        httpStatus: attempts.httpStatus,
        detail: attempts.detail,
        durationMs: attempts.durationMs,
      })
      .from(attempts)
      .where(inArray(attempts.deliveryId, ids))
      .orderBy(asc(attempts.startedAt)),
    db
      .select({
        deliveryId: reconciliations.deliveryId,
        at: reconciliations.checkedAt,
        strategy: reconciliations.strategy,
        decision: reconciliations.decision,
        windowStart: reconciliations.windowStart,
        windowEnd: reconciliations.windowEnd,
        readCount: reconciliations.readCount,
        matchedExternalId: reconciliations.matchedExternalId,
        evidence: reconciliations.evidence,
        nextCheckAt: reconciliations.nextCheckAt,
      })
      .from(reconciliations)
      .where(inArray(reconciliations.deliveryId, ids))
      .orderBy(asc(reconciliations.checkedAt)),
  ]);
  return { events: eventRows, attempts: attemptRows, checks: checkRows };
}
