import type { ProviderName } from '@/db/schema';
import type { ProviderTransport } from '@/lib/providers/transport';

/** How the reconciler runs (lib/reconcile/options.ts builds it from the environment). Its own module: no cycle. */
export type ReconcileOptions = {
  workerId: string;
  batchSize: number;
  leaseMs: number;
  /** Timeout of one read (one page) from the platform. */
  readTimeoutMs: number;
  /** The publisher's whole-call timeout: a started call may have run this long. */
  callTimeoutMs: number;
  /** Per provider: how long the platform may still create a post after our call gave up (slow processing). */
  allowanceMs: Record<ProviderName, number>;
  /** A host's learned allowance (lib/reconcile/allowance.ts) is capped here (default 15 min). */
  allowanceCeilingMs?: number;
  /** "Not found" needs two reads at least this far apart (platform read lag). */
  recheckDelayMs: number;
  /** How far before the first attempt the read window starts. */
  windowBeforeMs: number;
  /** After this many unreadable checks, an admin decides. */
  maxUnreadable: number;
  /** Keep this much time before the lateness limit when releasing for a new attempt. */
  releaseMarginMs: number;
  /** Releases (publish again after a proof of absence) per delivery before an admin decides. */
  maxReleases: number;
  encryptionKey: string;
  origin?: string;
  /** How provider calls are sent (default: sendOnce); the interleaving simulation routes them in-process. */
  transport?: ProviderTransport;
};
