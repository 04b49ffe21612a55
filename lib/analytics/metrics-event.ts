import type { Executor } from '@/db/client';
import type { RecordedReading } from '@/db/queries/post-metrics';
import { emitWebhookEvent } from '@/lib/webhooks/emit';

/** How many readings one event lists; past it the event says how many more there were (`truncated`). */
const LISTED = 200;

/**
 * `metrics.updated`, batched (docs/webhooks.md#events): one event per workspace for the readings one claimed batch of
 * the metrics job recorded (which deliveries, and how many), never one per point — in the caller's transaction, the
 * one that records those readings (an outbox: the event exists exactly when they do). Receivers read the numbers with
 * GET /api/v1/posts/{id}/metrics. Returns how many events were written.
 */
export async function emitMetricsUpdated(tx: Executor, recorded: RecordedReading[], at: Date): Promise<number> {
  const byWorkspace = new Map<string, RecordedReading[]>();
  for (const r of recorded) byWorkspace.set(r.workspaceId, [...(byWorkspace.get(r.workspaceId) ?? []), r]);
  let events = 0;
  for (const [workspaceId, readings] of byWorkspace) {
    const id = await emitWebhookEvent(tx, {
      workspaceId,
      type: 'metrics.updated',
      subject: `metrics:${workspaceId}`,
      data: {
        readings: readings.length,
        posts: [...new Set(readings.map((r) => r.postId))].length,
        deliveries: readings
          .slice(0, LISTED)
          .map((r) => ({ deliveryId: r.deliveryId, postId: r.postId, accountId: r.accountId })),
        truncated: Math.max(0, readings.length - LISTED),
        readAt: at.toISOString(),
      },
    });
    if (id) events++;
  }
  return events;
}
