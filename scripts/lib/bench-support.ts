// What the publishing benchmarks share (npm run bench, npm run bench:compare): CPU time from /proc, commits from
// pg_stat_database, statements counted as the publisher sends them, and the publisher run until nothing is due.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { CONNECTION_SETTINGS, type Database } from '@/db/client';
import * as schema from '@/db/schema';
import { DEFAULT_PUBLISHER_TUNING, type PublisherOptions } from '@/lib/publishing/config';
import { publishDueDeliveries, type PublishSummary } from '@/lib/publishing/publish-due';
import { allowanceFor } from '@/lib/reconcile/allowance-map';

export const CLOCK_TICKS = 100; // USER_HZ on Linux (/proc CPU times)

export type CpuSnapshot = { publisher: number; sandbox: number; postgres: number; machine: number; cores: number };

/**
 * CPU time in clock ticks from /proc (Linux; null elsewhere): the publisher (this process unless another pid is
 * given), the sandbox, Postgres with its backends, the whole machine.
 */
export function cpuSnapshot(
  sandboxPid: number,
  postgresPid: number | null,
  publisherPid = process.pid,
): CpuSnapshot | null {
  try {
    const stat = (pid: number) => {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return text.slice(text.lastIndexOf(')') + 2).split(' '); // fields from the 3rd (state) on
    };
    const own = (pid: number) => {
      const f = stat(pid);
      return Number(f[11]) + Number(f[12]);
    };
    const withReaped = (pid: number) => {
      const f = stat(pid);
      return Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    };
    let postgresTicks = 0;
    if (postgresPid) {
      postgresTicks = withReaped(postgresPid);
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          if (Number(stat(Number(entry))[1]) === postgresPid) postgresTicks += own(Number(entry));
        } catch {
          /* exited meanwhile */
        }
      }
    }
    const cpuLine = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const machine = cpuLine.reduce((a, b) => a + b, 0) - cpuLine[3]! - (cpuLine[4] ?? 0); // all but idle and iowait
    return {
      publisher: own(publisherPid),
      sandbox: own(sandboxPid),
      postgres: postgresTicks,
      machine,
      cores: cpus().length,
    };
  } catch {
    return null;
  }
}

/** Seconds of CPU each part used between two snapshots. */
export function cpuUsed(before: CpuSnapshot, after: CpuSnapshot) {
  const used = (key: keyof CpuSnapshot) => (after[key] - before[key]) / CLOCK_TICKS;
  return {
    publisher: used('publisher'),
    sandbox: used('sandbox'),
    postgres: used('postgres'),
    machine: used('machine'),
  };
}

/** A query's rows as an array, on one setup connection. */
export type Rows = <T>(query: SQL) => Promise<T[]>;
export const rowsOf =
  (db: Database): Rows =>
  async <T>(query: SQL) =>
    [...(await db.execute(query))] as T[];

/** The postmaster: the parent of this connection's backend (when Postgres runs on this machine). */
export async function postmasterPid(q: Rows): Promise<number | null> {
  try {
    const [row] = await q<{ pid: number }>(sql`select pg_backend_pid() as pid`);
    const f = readFileSync(`/proc/${row!.pid}/stat`, 'utf8');
    return Number(f.slice(f.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** Transactions committed on this connection's database so far (every backend's statistics flushed first). */
export async function xactCommits(q: Rows): Promise<number> {
  await q(sql`select pg_stat_force_next_flush()`);
  await sleep(300);
  await q(sql`select pg_stat_clear_snapshot()`);
  const [row] = await q<{ n: string }>(
    sql`select xact_commit::text as n from pg_stat_database where datname = current_database()`,
  );
  return Number(row!.n);
}

/** The publisher's own pool, counting every statement it sends (postgres.js `debug` sees each one). */
export function countingPostgres(url: string, max: number) {
  let statements = 0;
  const client = postgres(url, {
    max,
    onnotice: () => {},
    connection: CONNECTION_SETTINGS,
    debug: () => void statements++,
  });
  const db = drizzle(client, { schema, casing: 'snake_case' }) as unknown as Database;
  return { sql: client, db, statements: () => statements };
}

/** The publisher as the benchmarks run it: the default tuning, sandbox accounts (unlimited), one worker id per loop. */
export function benchPublisherOptions(
  params: { encryptionKey: string; origin: string } & Partial<PublisherOptions>,
): PublisherOptions {
  return {
    ...DEFAULT_PUBLISHER_TUNING,
    workerId: `bench:${process.pid}:${randomUUID().slice(0, 8)}`,
    budgetMs: 20_000,
    maintainEveryMs: 1_000, // as the scheduler's own options (lib/publishing/worker.ts)
    rateLimits: {}, // sandbox accounts are unlimited
    allowanceMs: allowanceFor(60_000),
    ...params, // origin: sandbox accounts' relative base URLs resolve against this trusted origin
  };
}

/** `loops` publisher loops, each running passes until one claims nothing; their summaries added up. */
export async function publishUntilDone(
  db: Database,
  loops: number,
  options: () => PublisherOptions,
): Promise<PublishSummary> {
  const summaries: PublishSummary[] = [];
  await Promise.all(
    Array.from({ length: loops }, async () => {
      const loopOptions = options();
      for (;;) {
        const summary = await publishDueDeliveries(db, loopOptions);
        summaries.push(summary);
        if (summary.claimed === 0) break;
      }
    }),
  );
  // Every loop runs at least one pass: the first summary is the sum's start.
  const [first, ...rest] = summaries;
  const totals = { ...first! };
  for (const summary of rest)
    for (const key of Object.keys(totals) as (keyof PublishSummary)[]) totals[key] += summary[key];
  return totals;
}

export function fmt(n: number): string {
  return Number.isFinite(n) ? n.toFixed(n >= 100 ? 0 : 1) : String(n);
}

export function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}
