import type { Executor } from '@/db/client';
import { getLearnedAllowances, recordObservedDelay, type LearnedAllowance } from '@/db/queries/host-allowances';
import type { ProviderName } from '@/lib/providers';

// The processing allowance learns (docs/architecture.md#learned-allowance): a host that created a post later than we
// allowed raises its own allowance to the delay we saw, so the same server does not catch us twice.

/** The default ceiling of a learned allowance (RECONCILE_ALLOWANCE_CEILING_MS). */
export const DEFAULT_ALLOWANCE_CEILING_MS = 15 * 60_000;
/** A learned allowance covers the worst delay seen plus this share, so a slightly slower day is still covered. */
const LEARNED_MARGIN = 0.1;

/** The host an account's posts live on: its base URL's host, `sandbox` for the built-in network's relative URL. */
export function platformHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).host.toLowerCase();
  } catch {
    return 'sandbox';
  }
}

/** The configured allowance, raised to the worst observed delay (plus a margin) and capped by the ceiling. */
export function effectiveAllowanceMs(
  configuredMs: number,
  learned: { observedWorstMs: number } | null,
  ceilingMs: number,
) {
  if (!learned) return configuredMs;
  const wanted = Math.ceil(learned.observedWorstMs * (1 + LEARNED_MARGIN));
  return Math.max(configuredMs, Math.min(ceilingMs, wanted));
}

type AccountOnHost = { workspaceId: string; provider: ProviderName; baseUrl: string };

/** What each of these accounts' hosts taught us, keyed by `workspaceId/provider/host`. */
export async function learnedAllowances(db: Executor, accounts: AccountOnHost[]) {
  const keys = accounts.map((a) => ({
    workspaceId: a.workspaceId,
    provider: a.provider,
    host: platformHost(a.baseUrl),
  }));
  const rows = await getLearnedAllowances(db, { keys });
  const byKey = new Map<string, LearnedAllowance>(rows.map((r) => [hostKey(r), r]));
  return (account: AccountOnHost) => byKey.get(hostKey({ ...account, host: platformHost(account.baseUrl) })) ?? null;
}

const hostKey = (k: { workspaceId: string; provider: string; host: string }) =>
  `${k.workspaceId}/${k.provider}/${k.host}`;

/** Records the delay of a post found on the platform for its account's host (kept when it is the worst). */
export function learnFromFoundPost(
  db: Executor,
  params: AccountOnHost & { deliveryId: string; createdAt: Date; source: 'found' | 'late_copy' },
) {
  return recordObservedDelay(db, {
    workspaceId: params.workspaceId,
    provider: params.provider,
    host: platformHost(params.baseUrl),
    deliveryId: params.deliveryId,
    createdAt: params.createdAt,
    source: params.source,
  });
}

/** The created time of the copy a "found" check matched, from its stored evidence (null when the read had none). */
export function matchedCopyCreatedAt(evidence: Record<string, unknown>, externalId: string | null | undefined) {
  const copies = Array.isArray(evidence.copies) ? (evidence.copies as { id?: string; createdAt?: string }[]) : [];
  const copy = copies.find((c) => c.id === externalId);
  return copy?.createdAt ? new Date(copy.createdAt) : null;
}
