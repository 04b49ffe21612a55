import { listAccountsWithHealth } from '@/db/queries/token-health';
import { listLearnedAllowances } from '@/db/queries/host-allowances';
import type { Executor } from '@/db/client';
import { getEnv } from '@/lib/env';
import { effectiveAllowanceMs, platformHost } from '@/lib/reconcile/allowance';
import type { ProviderName } from '@/lib/providers/types';
import { toJson, type Json } from './json';

/** The reconciler's processing allowance for the account's host (docs/architecture.md#learned-allowance). */
export type ProcessingAllowance = {
  configuredMs: number;
  effectiveMs: number;
  ceilingMs: number;
  /** The worst delay this host showed (null: nothing learned yet), when and how. */
  learnedMs: number | null;
  learnedAt: string | null;
  learnedFrom: 'found' | 'late_copy' | null;
};

export type AccountListItem = Json<Awaited<ReturnType<typeof listAccountsWithHealth>>[number]> & {
  /** The token needs a reconnect (refused, revoked or expired): its scheduled deliveries are held. */
  needsReconnect: boolean;
  processingAllowance: ProcessingAllowance;
};

type AllowanceSettings = { configuredMs: Record<ProviderName, number>; ceilingMs: number };

/** The accounts page's list: public columns only (never a token), token health, disconnected accounts included. */
export async function readAccounts(
  db: Executor,
  params: { workspaceId: string; allowance?: AllowanceSettings },
): Promise<AccountListItem[]> {
  const now = Date.now();
  const settings = params.allowance ?? allowanceFromEnv();
  const learned = await listLearnedAllowances(db, { workspaceId: params.workspaceId });
  return toJson(await listAccountsWithHealth(db, { workspaceId: params.workspaceId })).map((a) => {
    const host = learned.find((l) => l.provider === a.provider && l.host === platformHost(a.baseUrl)) ?? null;
    const configuredMs = settings.configuredMs[a.provider];
    return {
      ...a,
      needsReconnect:
        !a.disconnectedAt &&
        (a.tokenStatus !== 'ok' || (a.tokenExpiresAt !== null && Date.parse(a.tokenExpiresAt) <= now)),
      processingAllowance: {
        configuredMs,
        effectiveMs: effectiveAllowanceMs(configuredMs, host, settings.ceilingMs),
        ceilingMs: settings.ceilingMs,
        learnedMs: host?.observedWorstMs ?? null,
        learnedAt: host?.observedAt.toISOString() ?? null,
        learnedFrom: (host?.source as ProcessingAllowance['learnedFrom']) ?? null,
      },
    };
  });
}

function allowanceFromEnv(): AllowanceSettings {
  const env = getEnv();
  return { configuredMs: env.RECONCILE_ALLOWANCE_MS, ceilingMs: env.RECONCILE_ALLOWANCE_CEILING_MS };
}
