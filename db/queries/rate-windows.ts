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

/** The same window per client address of a request link: one upsert, so the first request also counts. */
export async function countAddressRequest(db: Executor, params: { linkId: string; address: string; limit: number }) {
  const result = await db.execute<{ count: number }>(sql`
    insert into request_address_windows as w (request_link_id, address, rate_window_start, rate_window_count)
    values (${params.linkId}, ${params.address}, now(), 1)
    on conflict (request_link_id, address) do update set
      rate_window_start = ${windowStart('w')}, rate_window_count = ${windowCount('w')}
    returning rate_window_count as count`);
  const row = [...result][0];
  return row ? row.count <= params.limit : true;
}

/**
 * Drops this link's address windows that ended over a minute ago, so the table holds only live windows. Its own
 * statement, skipping rows another request holds: it never waits, so it cannot deadlock with their upserts.
 */
export async function pruneAddressWindows(db: Executor, params: { linkId: string }) {
  await db.execute(sql`
    delete from request_address_windows where ctid in (
      select ctid from request_address_windows
      where request_link_id = ${params.linkId} and rate_window_start < now() - interval '1 minute'
      limit 100 for update skip locked)`);
}
