import { sql } from 'drizzle-orm';
import type { Executor } from '../client';

/** A fixed one-minute window: restarts when it is older than a minute, else counts one more request. */
const restarts = (t: string) =>
  sql.raw(`${t}.rate_window_start is null or ${t}.rate_window_start < now() - interval '1 minute'`);
const windowStart = (t: string) => sql`case when ${restarts(t)} then now() else ${sql.raw(t)}.rate_window_start end`;
const windowCount = (t: string) => sql`case when ${restarts(t)} then 1 else ${sql.raw(t)}.rate_window_count + 1 end`;

/**
 * Counts one request of a public link route (an approval or a request link) against the link's window, in one
 * atomic statement (no read-then-write race between app instances). Returns whether it is within the limit.
 */
export async function countLinkRequest(
  db: Executor,
  params: { table: 'approval_links' | 'request_links'; id: string; limit: number },
) {
  const result = await db.execute<{ count: number }>(sql`
    update ${sql.identifier(params.table)} as w set rate_window_start = ${windowStart('w')}, rate_window_count = ${windowCount('w')}
    where id = ${params.id}
    returning rate_window_count as count`);
  const row = [...result][0];
  return row ? row.count <= params.limit : true;
}

/** Where a link kind keeps its per-address windows. */
const ADDRESS_WINDOWS = {
  request: { table: 'request_address_windows', link: 'request_link_id' },
  approval: { table: 'approval_address_windows', link: 'approval_link_id' },
} as const;
export type LinkKind = keyof typeof ADDRESS_WINDOWS;

/** The same window per client address of a link: one upsert, so the first request also counts. */
export async function countAddressRequest(
  db: Executor,
  params: { kind?: LinkKind; linkId: string; address: string; limit: number },
) {
  const { table, link } = ADDRESS_WINDOWS[params.kind ?? 'request'];
  const result = await db.execute<{ count: number }>(sql`
    insert into ${sql.identifier(table)} as w (${sql.identifier(link)}, address, rate_window_start, rate_window_count)
    values (${params.linkId}, ${params.address}, now(), 1)
    on conflict (${sql.identifier(link)}, address) do update set
      rate_window_start = ${windowStart('w')}, rate_window_count = ${windowCount('w')}
    returning rate_window_count as count`);
  const row = [...result][0];
  return row ? row.count <= params.limit : true;
}

/**
 * Drops this link's address windows that ended over a minute ago, so the table holds only live windows. Its own
 * statement, skipping rows another request holds: it never waits, so it cannot deadlock with their upserts.
 */
export async function pruneAddressWindows(db: Executor, params: { kind?: LinkKind; linkId: string }) {
  const { table, link } = ADDRESS_WINDOWS[params.kind ?? 'request'];
  await db.execute(sql`
    delete from ${sql.identifier(table)} where ctid in (
      select ctid from ${sql.identifier(table)}
      where ${sql.identifier(link)} = ${params.linkId} and rate_window_start < now() - interval '1 minute'
      limit 100 for update skip locked)`);
}
