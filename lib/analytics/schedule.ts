// When a sent post's metrics are read (docs/analytics.md#the-metrics-job): at each of the configured delays after it
// was published (ANALYTICS_READ_DELAYS_MS: +1 h, +24 h, +7 d, +30 d by default). Pure functions, tested alone.

export const DEFAULT_READ_DELAYS_MS = [3_600_000, 86_400_000, 7 * 86_400_000, 30 * 86_400_000];

/** When reading `k` falls due. */
export const readingAt = (publishedAt: Date, delaysMs: number[], k: number) =>
  new Date(publishedAt.getTime() + delaysMs[k]!);

/**
 * The reading after `k`: the next one, or, when the job fell behind and several are due already, the latest of those
 * (the past cannot be read, and two readings seconds apart would say nothing). Null after the last.
 */
export function nextReading(
  k: number,
  publishedAt: Date,
  delaysMs: number[],
  now: Date,
): { reading: number; dueAt: Date } | null {
  let next = k + 1;
  while (next + 1 < delaysMs.length && readingAt(publishedAt, delaysMs, next + 1) <= now) next++;
  return next < delaysMs.length ? { reading: next, dueAt: readingAt(publishedAt, delaysMs, next) } : null;
}

/** The reading to take now for one due at `k`: the latest already due, when the job fell behind several. */
export function latestDueReading(k: number, publishedAt: Date, delaysMs: number[], now: Date): number {
  let latest = k;
  while (latest + 1 < delaysMs.length && readingAt(publishedAt, delaysMs, latest + 1) <= now) latest++;
  return latest;
}

/** How long a post is read for: past its last reading, plus a day of slack for a job that fell behind. */
export const readHorizonMs = (delaysMs: number[]) => Math.max(...delaysMs) + 86_400_000;

/** After an unreadable reading: 10 minutes, doubling, at most 6 hours. */
export const retryDelayMs = (failures: number) => Math.min(6 * 3_600_000, 10 * 60_000 * 2 ** failures);

/** A follower count is read once a UTC day: the next one a few minutes into the next day. */
export function nextFollowerRead(now: Date): Date {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 5));
  return next;
}

/** The UTC day a follower count belongs to (follower_snapshots.day). */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
