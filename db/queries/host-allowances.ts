import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { jsonb } from './sql-params';
import type { ProviderName } from '@/db/schema';

export type HostKey = { workspaceId: string; provider: ProviderName; host: string };
export type LearnedAllowance = HostKey & { observedWorstMs: number; observedAt: Date; source: string };

/**
 * Records how long after our call a post found on the platform was created (docs/architecture.md#learned-allowance):
 * the post's createdAt minus the start of the latest call of this delivery that could have made it (started before
 * it, and not the call that got a 2xx — that one's post is the delivery's own). Keeps the worst per host in one
 * upsert, so racing recorders never lower it. Returns the observed delay, or null when no call precedes the post.
 */
export async function recordObservedDelay(
  db: Executor,
  params: HostKey & { deliveryId: string; createdAt: Date; source: 'found' | 'late_copy' },
): Promise<number | null> {
  const result = await db.execute(sql`
    with call as (
      select max(t.started_at) as started_at from attempts t
      where t.delivery_id = ${params.deliveryId} and t.started_at <= ${params.createdAt.toISOString()}::timestamptz
        and t.outcome is distinct from 'sent'
    ), observed as (
      select greatest(0, round(extract(epoch from (${params.createdAt.toISOString()}::timestamptz - started_at)) * 1000))::int as ms
      from call where started_at is not null
    ), kept as (
      insert into host_allowances (workspace_id, provider, host, observed_worst_ms, observed_at, source)
      select ${params.workspaceId}::uuid, ${params.provider}::provider, ${params.host}, ms, now(), ${params.source} from observed
      on conflict (workspace_id, provider, host) do update set
        observed_worst_ms = excluded.observed_worst_ms, observed_at = excluded.observed_at, source = excluded.source
      where excluded.observed_worst_ms > host_allowances.observed_worst_ms
    )
    select ms from observed`);
  const row = [...result][0] as { ms: number } | undefined;
  return row ? Number(row.ms) : null;
}

/** What was learned for these hosts (only those with a record). */
export async function getLearnedAllowances(db: Executor, params: { keys: HostKey[] }): Promise<LearnedAllowance[]> {
  if (params.keys.length === 0) return [];
  const result = await db.execute(sql`
    select h.workspace_id as "workspaceId", h.provider, h.host, h.observed_worst_ms as "observedWorstMs",
      h.observed_at as "observedAt", h.source
    from host_allowances h
    join jsonb_to_recordset(${jsonb(params.keys)}) as k("workspaceId" uuid, provider text, host text)
      on k."workspaceId" = h.workspace_id and k.provider = h.provider::text and k.host = h.host`);
  return [...result].map((r) => {
    const row = r as Record<string, unknown>;
    return { ...row, observedAt: new Date(row.observedAt as string) } as LearnedAllowance;
  });
}

/** Every host the workspace learned about (the accounts page). */
export async function listLearnedAllowances(db: Executor, params: { workspaceId: string }) {
  const result = await db.execute(sql`
    select h.workspace_id as "workspaceId", h.provider, h.host, h.observed_worst_ms as "observedWorstMs",
      h.observed_at as "observedAt", h.source
    from host_allowances h where h.workspace_id = ${params.workspaceId}`);
  return [...result].map((r) => {
    const row = r as Record<string, unknown>;
    return { ...row, observedAt: new Date(row.observedAt as string) } as LearnedAllowance;
  });
}
