import type { Executor } from '@/db/client';
import { takeReadBudgetRow } from '@/db/queries/read-budget';
import type { RateLimits } from '@/lib/publishing/config';
import type { ProviderName } from '@/lib/providers/types';

/**
 * How reads share an account's rate-limit budget with publishing (docs/architecture.md#read-budget): `rateLimits` are
 * the publisher's own (RATE_LIMITS over each network's registry entry); `reservedShare` of every window belongs to
 * publishing and reconciliation, and reads can never take it.
 */
export type ReadBudgetOptions = { rateLimits: RateLimits; reservedShare: number };

/** The account a read is for: its network (or the sandbox) names the limit. */
export type ReadBudgetAccount = { id: string; workspaceId: string; provider: ProviderName; sandbox: boolean };

export type ReadBudgetGrant =
  /** Read now; `unlimited`: the account's network has no limit here, so nothing was counted. */
  | { granted: true; unlimited: boolean; readsLeft: number | null }
  /** Not now: the read would eat into publishing's share. `retryAt`: when the window frees enough at the earliest. */
  | { granted: false; retryAt: Date; reason: string };

/** The most a window lets reads spend on an account: its limit less publishing's reserved share (floor). */
export function readCap(limit: { max: number }, reservedShare: number): number {
  return Math.max(0, Math.floor(limit.max * (1 - reservedShare)));
}

/**
 * Takes `calls` platform calls of the account's budget for a read, atomically (db/queries/read-budget.ts): granted
 * only while its attempts and reads in the window, plus these calls, stay within the readable part; otherwise
 * nothing is recorded and the caller reads later. Publishing counts these reads too (countRecentAttemptsByAccount),
 * but since reads stop at the cap, the reserved share is always left for it.
 */
export async function takeReadBudget(
  db: Executor,
  params: { account: ReadBudgetAccount; calls: number; purpose: string },
  options: ReadBudgetOptions,
): Promise<ReadBudgetGrant> {
  const { account, calls, purpose } = params;
  const limit = account.sandbox ? options.rateLimits.sandbox : options.rateLimits[account.provider];
  if (!limit) return { granted: true, unlimited: true, readsLeft: null };
  const windowMs = limit.windowSeconds * 1000;
  const cap = readCap(limit, options.reservedShare);
  const why = `reads may use ${cap} of ${limit.max} calls per ${limit.windowSeconds} s on this account; the rest is kept for publishing`;
  if (calls > cap) return { granted: false, retryAt: new Date(Date.now() + windowMs), reason: why };
  const taken = await takeReadBudgetRow(db, {
    workspaceId: account.workspaceId,
    accountId: account.id,
    purpose,
    calls,
    cap,
    windowMs,
  });
  if (taken.readId !== null) return { granted: true, unlimited: false, readsLeft: cap - taken.used - calls };
  return { granted: false, retryAt: taken.oldestEndsAt ?? new Date(Date.now() + windowMs), reason: why };
}
