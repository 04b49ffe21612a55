// The leased outboxes' retry schedule (webhooks, notifications: lib/jobs/leased-outbox.ts).

/** Waits after the 1st … 5th failed attempt: a quick receiver hiccup is retried within a minute (5 s, then 30 s). */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000] as const;
/** After those, every 3 hours … */
export const LATE_RETRY_MS = 3 * 3_600_000;
/** … until a day after the event: then the row is given up (a webhook's manual redeliver still works). */
export const RETRY_WINDOW_MS = 24 * 3_600_000;

/**
 * When a row is tried again after its `failedAttempts`-th failure at `now`, or null when the next try would
 * fall outside the retry window that started with the event.
 */
export function nextRetryAt(failedAttempts: number, now: Date, eventAt: Date): Date | null {
  const delay = RETRY_DELAYS_MS[failedAttempts - 1] ?? LATE_RETRY_MS;
  const next = new Date(now.getTime() + delay);
  return next.getTime() - eventAt.getTime() > RETRY_WINDOW_MS ? null : next;
}
