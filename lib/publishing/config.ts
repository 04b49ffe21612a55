import type { MediaStorage } from '@/lib/media/storage';
import type { ProviderTransport } from '@/lib/providers/transport';
import { PROVIDERS } from '@/lib/providers/registry';
import type { ProviderName } from '@/lib/providers/types';

export type PublisherOptions = {
  workerId: string;
  /** Deliveries claimed per statement. */
  batchSize: number;
  /** Platform calls in flight at once. */
  concurrency: number;
  /**
   * Attempts started (and outcomes recorded) per statement; `concurrency / chunkSize` chunks are in
   * flight at once. Default: `concurrency` (one chunk at a time).
   */
  chunkSize?: number;
  /** How long a claim stays ours; every call's timeout is shorter (docs/architecture.md#write-order). */
  leaseMs: number;
  /** Whole-call timeout for one platform call. */
  callTimeoutMs: number;
  /** Stop claiming new batches after this long (a cron invocation's budget). */
  budgetMs: number;
  /**
   * Mark-missed, the lease sweep and stranded thread parts at most this often for these options (0: every pass, as a
   * cron call needs). The scheduler's passes follow each other by milliseconds at a steady rate; the claim itself
   * never takes a late delivery, and a pass that claims nothing always maintains (it may have woken for a lapsed lease).
   */
  maintainEveryMs?: number;
  encryptionKey: string;
  /** Origin for relative (sandbox) base URLs. */
  origin?: string;
  rateLimits: RateLimits;
  /**
   * Per provider: how long a platform may still be creating a post after our call timed out. An
   * ambiguous delivery is first read at attempt start + call timeout + this (docs/architecture.md#proof-of-absence: no read, and
   * so no resend, while a request may still be running on the platform).
   */
  allowanceMs: Record<ProviderName, number>;
  /** How provider calls are sent (default: sendOnce); the interleaving simulation routes them in-process. */
  transport?: ProviderTransport;
  /** Where images are read from before they are uploaded to the platform (default: MEDIA_DIR). */
  mediaStorage?: MediaStorage;
};

/** The defaults for the scheduler and the cron route (lib/publishing/worker.ts) and the benchmark. */
export const DEFAULT_PUBLISHER_TUNING = {
  batchSize: 200,
  concurrency: 64,
  chunkSize: 32,
  leaseMs: 60_000,
  callTimeoutMs: 10_000,
} as const satisfies Partial<PublisherOptions>;

/** Per provider: at most `max` attempts per account per `windowSeconds`; beyond it deliveries are deferred. */
export type RateLimits = Partial<Record<ProviderName | 'sandbox', { max: number; windowSeconds: number }>>;

// Conservative defaults under the platforms' documented posting limits (each network's registry entry);
// sandbox accounts are unlimited.
export const DEFAULT_RATE_LIMITS: RateLimits = Object.fromEntries(
  Object.values(PROVIDERS).map((p) => [p.name, p.rateLimit]),
);

/** RATE_LIMITS (validated in lib/env.ts) merged over the defaults. */
export function withDefaultRateLimits(fromEnv: RateLimits): RateLimits {
  return { ...DEFAULT_RATE_LIMITS, ...fromEnv };
}

/** Backoff after a not_sent outcome (refused, DNS, 429 without reset): 5 s, 10 s, 20 s … capped at 5 minutes. */
export function notSentBackoffMs(attemptCount: number): number {
  return Math.min(5 * 60_000, 5_000 * 2 ** Math.max(0, attemptCount - 1));
}
