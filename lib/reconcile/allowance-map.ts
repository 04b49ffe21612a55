import { PROVIDER_NAMES } from '@/lib/providers/catalog';
import type { ProviderName } from '@/lib/providers/types';

export type AllowanceMap = Record<ProviderName, number>;

/**
 * A per-network allowance map (RECONCILE_ALLOWANCE_MS's shape): every network at `ms`, some overridden. Built from
 * the registry, so scripts, the simulation and tests never list the networks by hand and a new one is never missing.
 */
export function allowanceFor(ms: number, overrides: Partial<AllowanceMap> = {}): AllowanceMap {
  return { ...(Object.fromEntries(PROVIDER_NAMES.map((p) => [p, ms])) as AllowanceMap), ...overrides };
}
