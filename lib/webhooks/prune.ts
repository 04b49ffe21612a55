import type { Executor } from '@/db/client';
import { deleteSettledWebhookEventsBefore } from '@/db/queries/webhooks';
import { deleteInBatches } from '@/db/queries/batches';

/** How long an event, its messages and its delivery log stay readable in Settings → Webhooks. */
export const WEBHOOK_RETENTION_DAYS = 30;

/** Deletes settled webhook events older than the retention period (with their messages and log); returns how many. */
export async function pruneOldWebhookEvents(
  db: Executor,
  options: { now?: Date; retentionDays?: number; batchSize?: number; maxBatches?: number } = {},
) {
  const days = options.retentionDays ?? WEBHOOK_RETENTION_DAYS;
  const before = new Date((options.now ?? new Date()).getTime() - days * 24 * 60 * 60 * 1000);
  return deleteInBatches((batchSize) => deleteSettledWebhookEventsBefore(db, { before, batchSize }), options);
}
