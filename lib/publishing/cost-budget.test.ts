import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { upsertAccount } from '@/db/queries/accounts';
import * as schema from '@/db/schema';
import { makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { scheduleDueInBulk, testPublisherOptions } from '@/testing/publisher';
import { startMemoryTestSandbox } from '@/testing/sandbox';
import { sealCredentials } from '@/lib/providers/credentials';
import { DEFAULT_PUBLISHER_TUNING } from './config';
import { publishDueDeliveries } from './publish-due';

// The publisher's cost per delivery, counted rather than timed, so it cannot be noisy: a new feature that adds a
// statement, a commit or a trigger call to the hot path fails here and has to change the budget below, with its
// reason. The scenario is fixed: 1,000 deliveries due now on 10 accounts of one workspace with no webhook endpoint,
// no Slack and no rate limit, one publisher pass with the production tuning (claims of 200, chunks of 32), the
// in-memory sandbox (it writes nothing to this database). docs/publishing.md#cost explains each line.
const DELIVERIES = 1_000;
const { batchSize, chunkSize } = DEFAULT_PUBLISHER_TUNING;
const BATCHES = Math.ceil(DELIVERIES / batchSize);
const CHUNKS = BATCHES * Math.ceil(batchSize / chunkSize);

/** Statements the publisher sends (none in an explicit transaction: each is one commit). */
const STATEMENT_BUDGET = {
  perPass: {
    count: 3,
    why: 'mark missed; after the calls, sweep lapsed leases and settle stranded thread parts (no empty claim ends the pass: the last claim says it took all that was due)',
  },
  perBatch: { count: 1, why: 'the claim (one statement: claims, deliveries → publishing, history rows)' },
  perChunk: {
    count: 2,
    why: 'attempt rows started (re-checking the lease; it also says which parts have images), then the outcomes (attempts, claims, deliveries, history, notifications)',
  },
  perConnection: { count: 1, why: 'postgres.js reads the array types once when it opens a connection' },
};
/** The publisher's pool: two chunks are in flight at once (concurrency 64 in chunks of 32). */
const CONNECTIONS = 2;
const STATEMENTS =
  STATEMENT_BUDGET.perPass.count +
  BATCHES * STATEMENT_BUDGET.perBatch.count +
  CHUNKS * STATEMENT_BUDGET.perChunk.count +
  CONNECTIONS * STATEMENT_BUDGET.perConnection.count;
/** Transactions the publisher commits: one per statement (none in an explicit transaction). */
const COMMITS = STATEMENTS;

/** PL/pgSQL function calls (pg_stat_user_functions) per delivery; a function not listed here must not run at all. */
const TRIGGER_BUDGET: Record<string, { perDelivery: number; why: string }> = {
  deliveries_check_status_transition: {
    perDelivery: 2,
    why: 'BEFORE UPDATE OF status: scheduled → publishing (the claim) and publishing → sent (the outcome) are allowed moves',
  },
  deliveries_emit_webhook_event: {
    perDelivery: 1,
    why: 'AFTER the move to sent: one index probe finds no endpoint and returns before building a payload',
  },
  deliveries_start_late_copy_watch: {
    perDelivery: 1,
    why: 'AFTER the move to sent: one index probe finds no released reconciliation, so there is no late copy to watch for',
  },
};

describe('the publisher stays within its cost budget (counts, not times)', () => {
  it(`one pass over ${DELIVERIES} due deliveries: statements, commits and trigger calls per delivery`, async () => {
    const database = await createTestDatabase({ max: 1 });
    const { db: setup } = database;
    const sandbox = await startMemoryTestSandbox();
    const workspace = await makeWorkspace(setup, `budget-${randomUUID().slice(0, 8)}`);
    const accountIds: string[] = [];
    const sandboxAccountIds: string[] = [];
    for (let i = 0; i < 10; i++) {
      const connected = await sandbox.connectAccount('mastodon');
      const row = await upsertAccount(setup, {
        workspaceId: workspace.id,
        provider: 'mastodon',
        sandbox: true,
        handle: `@budget_${i}`,
        platformUserId: connected.platformUserId,
        baseUrl: '/api/sandbox/mastodon',
        ...sealCredentials(connected.credentials, TEST_ENCRYPTION_KEY),
      });
      accountIds.push(row!.id);
      sandboxAccountIds.push(connected.sandboxAccount.id);
    }
    await scheduleDueInBulk(setup, {
      workspaceId: workspace.id,
      accountIds,
      count: DELIVERIES,
      label: 'budget ',
      firstDueAt: new Date(Date.now() - 1_000),
      stepMs: 0,
    });
    // Function calls are counted for the sessions opened from here on (the publisher's).
    const [{ name }] = [...(await setup.execute<{ name: string }>(sql`select current_database() as name`))];
    await setup.execute(sql.raw(`alter database "${name}" set track_functions = 'pl'`));

    const before = await databaseCounters(setup);

    // Commits are counted from what the publisher sends, by the same rule as the server: a statement outside an
    // explicit transaction commits on its own; a BEGIN … COMMIT block commits once. The server's own counter
    // (pg_stat_database.xact_commit) also counts autovacuum's transactions, which land in the window at random
    // under load (a run counted 85 against 83), so it cannot be held to the budget; it is checked to have seen at
    // least the commits counted here (below), which proves this count missed none.
    let commits = 0;
    const inBlock = new Set<number>();
    const countCommit = (connection: number, query: string) => {
      const word = /^\s*(\w+)/.exec(query)?.[1]?.toLowerCase();
      if (word === 'begin' || word === 'start') inBlock.add(connection);
      else if (word === 'commit' || word === 'end') {
        inBlock.delete(connection);
        commits++;
      } else if (word === 'rollback' || word === 'abort') inBlock.delete(connection);
      else if (!inBlock.has(connection)) commits++;
    };

    let statements = 0;
    const kinds = new Map<string, number>(); // by the statement's first words, for the report
    const publisherSql = postgres(database.url, {
      max: CONNECTIONS,
      onnotice: () => {},
      debug: (connection: number, query: string) => {
        statements++;
        countCommit(connection, query);
        const kind = query.replace(/\s+/g, ' ').trim().slice(0, 60);
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      },
    });
    const publisherDb = drizzle(publisherSql, { schema, casing: 'snake_case' }) as unknown as Database;
    const summary = await publishDueDeliveries(publisherDb, {
      ...testPublisherOptions(sandbox.url, { ...DEFAULT_PUBLISHER_TUNING, budgetMs: 120_000 }),
    });
    await publisherSql.end({ timeout: 5 }); // a backend that ends flushes its statistics
    // An exiting backend flushes its statistics as it goes, which a loaded machine can delay: read until they are in.
    let after = await databaseCounters(setup);
    for (let i = 0; i < 20 && after.commits - before.commits < commits; i++) after = await databaseCounters(setup);

    expect(summary.claimed).toBe(DELIVERIES);
    expect(summary.sent).toBe(DELIVERIES);
    const copies = await Promise.all(sandboxAccountIds.map((id) => sandbox.copies(id)));
    expect(
      copies.reduce((a, b) => a + b, 0),
      'one copy of each on the platform',
    ).toBe(DELIVERIES);

    const serverCommits = after.commits - before.commits;
    const calls = new Map<string, number>();
    for (const [fn, n] of after.functionCalls) calls.set(fn, n - (before.functionCalls.get(fn) ?? 0));
    const report = {
      statements: { counted: statements, budget: STATEMENTS, perDelivery: statements / DELIVERIES },
      commits: { counted: commits, budget: COMMITS, perDelivery: commits / DELIVERIES, server: serverCommits },
      byStatement: Object.fromEntries(kinds),
      functions: Object.fromEntries([...calls].map(([fn, n]) => [fn, n / DELIVERIES])),
    };
    console.info('publisher cost budget', JSON.stringify(report, null, 1));

    expect(statements, 'statements sent by the publisher').toBeLessThanOrEqual(STATEMENTS);
    // Each statement is its own transaction: one commit each, none hidden in a helper.
    expect(commits, 'transactions the publisher committed').toBeLessThanOrEqual(COMMITS);
    // The server saw at least those (the count is real, not the client's guess).
    expect(serverCommits, 'pg_stat_database.xact_commit over the window').toBeGreaterThanOrEqual(commits);
    for (const [fn, n] of calls) {
      if (n === 0) continue;
      const budget = TRIGGER_BUDGET[fn];
      expect(
        budget,
        `${fn} ran ${n} times: add it to TRIGGER_BUDGET with its reason, or keep it off the hot path`,
      ).toBeDefined();
      expect(n / DELIVERIES, `${fn} calls per delivery`).toBeLessThanOrEqual(budget!.perDelivery);
    }
    // The counters do count: what the pass must have called is there.
    expect(calls.get('deliveries_check_status_transition')).toBe(2 * DELIVERIES);
    expect(calls.get('webhook_emit') ?? 0, 'no endpoint: no webhook payload is built').toBe(0);
  });
});

/** Commits and PL/pgSQL function calls of this database so far (this backend's own flushed first). */
async function databaseCounters(db: Database) {
  await db.execute(sql`select pg_stat_force_next_flush()`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await db.execute(sql`select pg_stat_clear_snapshot()`);
  const [row] = [
    ...(await db.execute<{ n: string }>(
      sql`select xact_commit::text as n from pg_stat_database where datname = current_database()`,
    )),
  ];
  const functions = [
    ...(await db.execute<{ fn: string; calls: string }>(
      sql`select funcname as fn, calls::text as calls from pg_stat_user_functions`,
    )),
  ];
  return {
    commits: Number(row!.n),
    functionCalls: new Map(functions.map((f) => [f.fn, Number(f.calls)])),
  };
}
