import type { Database } from '@/db/client';
import { getAppliedMigrationTimes } from '@/db/queries/health';
import journal from '@/db/migrations/meta/_journal.json';
import { problem } from '@/lib/http/problem';

/** The migrations this build expects (drizzle-kit's journal, bundled with the code). */
const EXPECTED = journal.entries.map((e) => ({ tag: e.tag, when: e.when }));

/**
 * Ready to serve: the database answers and every migration of this build is applied. Drizzle applies
 * the journal entries newer than its latest applied one, so pending = entries after that time.
 */
export async function readinessResponse(db: Database): Promise<Response> {
  const started = performance.now();
  let applied: number[] | null;
  try {
    applied = await getAppliedMigrationTimes(db);
  } catch {
    return notReady('The database is unreachable.', { database: { status: 'down' } });
  }
  const database = { status: 'up', latencyMs: Math.round(performance.now() - started) };
  const latest = applied && applied.length > 0 ? Math.max(...applied) : -Infinity;
  const pending = EXPECTED.filter((m) => m.when > latest).map((m) => m.tag);
  const migrations = { expected: EXPECTED.length, applied: applied?.length ?? 0, pending };
  if (pending.length > 0)
    return notReady(`${pending.length} migration(s) not applied: ${pending.join(', ')}.`, { database, migrations });
  return Response.json(
    { status: 'ok', database, migrations: { expected: migrations.expected, applied: migrations.applied } },
    { headers: { 'cache-control': 'no-store' } },
  );
}

function notReady(detail: string, extra: Record<string, unknown>): Response {
  return problem(
    { status: 503, title: 'Not Ready', detail, ...extra },
    { 'retry-after': '5', 'cache-control': 'no-store' },
  );
}
