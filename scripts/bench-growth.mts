// npm run bench:growth [-- --future 1000000 --settled 200000 --runs 30]
// Cost that stays flat as the tables grow (docs/operations.md#chaos-run-and-benchmarks). Two fresh databases get the
// same measured work: 1,000 deliveries due now, a month of 10,000 posts in one workspace, 10,000 ambiguous deliveries due for a
// check, 5,000 in the review queue. The large one also holds --future scheduled deliveries (spread over the next 90
// days) and --settled ones (sent, failed, canceled, with their claims, attempts and history), loaded server-side
// before anything is timed. Measured on both: the claim statement, one publisher pass of the 1,000 due deliveries (to
// the standalone sandbox, with a per-account rate limit so its count runs), the calendar month, the reconcile claim,
// the metrics job's find and the review queue. Prints p50/p99 per measure and database, the ratio (target ≤ 1.5×), and each statement's plan
// on the large database (EXPLAIN ANALYZE, BUFFERS) with any sequential scan of a large table called out. Exits 1 when a
// ratio is over the target or a plan scans a large table.
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { CONNECTION_SETTINGS, createDatabase, type Database } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import * as schema from '@/db/schema';
import { claimDueDeliveries } from '@/db/queries/deliveries';
import { claimAmbiguousDeliveries } from '@/db/queries/deliveries/reconcile';
import { addDueMetricReads } from '@/db/queries/post-metrics';
import { getNextWakeAt } from '@/db/queries/publishing';
import { listReviewItems } from '@/db/queries/review';
import { REPLIES_WITHOUT_METRICS } from '@/lib/analytics/read-metrics';
import { DEFAULT_READ_DELAYS_MS, readHorizonMs } from '@/lib/analytics/schedule';
import { fetchRange } from '@/lib/calendar/grid';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { readCalendar } from '@/lib/reads/calendar';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { scheduleDueInBulk } from '@/testing/publisher';
import { benchPublisherOptions, fmt } from './lib/bench-support';

const ms = (n: number) => n.toFixed(n >= 100 ? 0 : 2);
import { registerSandboxAccounts, sandboxIdentities, startSandboxProcess } from './lib/bench-sandbox';
import { recreateSiblingDatabase, resolveDatabase } from './lib/database';

const { values } = parseArgs({
  options: {
    future: { type: 'string', default: '1000000' },
    settled: { type: 'string', default: '200000' },
    runs: { type: 'string', default: '30' },
  },
});
const FUTURE = Number(values.future);
const SETTLED = Number(values.settled);
const RUNS = Number(values.runs);
const RATIO_TARGET = 1.5;
const DUE = 1_000;
const CALENDAR_POSTS = 10_000;
const AMBIGUOUS = 10_000;
const REVIEW = 5_000;
const PASSES = 3; // publisher passes of DUE deliveries each, per database
/** Tables whose sequential scan in a measured plan fails the run (the ones that grow with the work). */
const LARGE_TABLES = ['deliveries', 'posts', 'attempts', 'claims', 'delivery_events', 'reconciliations'];

process.env.SEMEL_DATA_DIR ??= '.data/bench-growth';
const server = await resolveDatabase();
const encryptionKey = randomBytes(32).toString('base64');
const identities = sandboxIdentities(10, ['mastodon']);
const { process: sandboxProcess, url: sandboxUrl } = await startSandboxProcess(identities, { handlePrefix: 'growth' });

type Workload = {
  db: Database;
  url: string;
  close: () => Promise<void>;
  publishing: { workspaceId: string; accountIds: string[] };
  calendarWorkspaceId: string;
  reviewWorkspaceId: string;
};

/** A fresh database with the measured work in it (the same in both). */
async function prepare(suffix: string): Promise<Workload> {
  const url = await recreateSiblingDatabase(server.url, suffix);
  await runMigrations(url);
  const { db, close } = createDatabase(url, { max: 10 });
  const publishing = await makeWorkspace(db, `growth-publishing-${suffix}`);
  const accountIds = await registerSandboxAccounts(db, {
    workspaceId: publishing.id,
    identities,
    encryptionKey,
    handlePrefix: 'growth',
  });
  const calendar = await makeWorkspace(db, `growth-calendar-${suffix}`);
  const calendarAccounts = [];
  for (let i = 0; i < 3; i++) calendarAccounts.push((await makeAccount(db, calendar.id, 'mastodon')).id);
  const review = await makeWorkspace(db, `growth-review-${suffix}`);
  const reviewAccounts = [];
  for (let i = 0; i < 5; i++) reviewAccounts.push((await makeAccount(db, review.id, 'mastodon')).id);

  // A month of posts in the calendar workspace: sent before now, scheduled after, 1–3 deliveries each.
  const month = fetchRange('month', new Date().toISOString().slice(0, 10));
  await insertPosts(db, {
    workspaceId: calendar.id,
    accountIds: calendarAccounts,
    count: CALENDAR_POSTS,
    label: 'calendar',
    from: new Date(month.from),
    spanSeconds: (new Date(month.to).getTime() - new Date(month.from).getTime()) / 1000,
    status: sql`case when p.scheduled_at < now() then 'sent' else 'scheduled' end::delivery_status`,
    deliveriesPerPost: 3,
    rotate: true,
  });
  // Ambiguous deliveries due for a check, held by lapsed claims with a started attempt (as a timed-out call leaves them).
  await insertPosts(db, {
    workspaceId: review.id,
    accountIds: reviewAccounts,
    count: AMBIGUOUS,
    label: 'ambiguous',
    from: new Date(Date.now() - 3_600_000),
    spanSeconds: 1_800,
    status: sql`'ambiguous'::delivery_status`,
    deliveriesPerPost: 1,
  });
  // The review queue: deliveries an admin must look at, each with its last check.
  await insertPosts(db, {
    workspaceId: review.id,
    accountIds: reviewAccounts,
    count: REVIEW,
    label: 'review',
    from: new Date(Date.now() - 86_400_000),
    spanSeconds: 3_600,
    status: sql`'needs_review'::delivery_status`,
    deliveriesPerPost: 1,
  });
  await db.execute(sql`
    insert into reconciliations (delivery_id, strategy, decision, evidence, checked_at)
    select id, 'text-match', 'needs_review', '{"copies": []}'::jsonb, updated_at from deliveries where status = 'needs_review'`);
  return {
    db,
    url,
    close,
    publishing: { workspaceId: publishing.id, accountIds },
    calendarWorkspaceId: calendar.id,
    reviewWorkspaceId: review.id,
  };
}

/**
 * `count` posts in one workspace from `from` over `spanSeconds`, with up to `deliveriesPerPost` deliveries each (post
 * i on accounts i, i + 1 … mod n) in `status`, and what that status leaves behind: a claim (released once settled),
 * an attempt and the history rows. One statement per call.
 */
async function insertPosts(
  db: Database,
  params: {
    workspaceId: string;
    accountIds: string[];
    count: number;
    label: string;
    from: Date;
    spanSeconds: number;
    status: ReturnType<typeof sql>;
    deliveriesPerPost: number;
    /** Post i gets 1 + (i mod deliveriesPerPost) deliveries (the calendar's mix) rather than all of them. */
    rotate?: boolean;
  },
) {
  if (params.count === 0) return;
  const last = params.rotate
    ? sql`least(${params.deliveriesPerPost - 1}, p.i % ${params.deliveriesPerPost})`
    : sql`${params.deliveriesPerPost - 1}`;
  const accounts = JSON.stringify(params.accountIds);
  await db.execute(sql`
    with p as (
      insert into posts (workspace_id, text, scheduled_at, source, idempotency_key, created_at)
      select ${params.workspaceId}::uuid, ${`growth ${params.label} `} || i || ': a line of text as a real post would have it',
        ${params.from.toISOString()}::timestamptz + make_interval(secs => i * ${params.spanSeconds / params.count}::float8),
        'api', gen_random_uuid()::text, ${params.from.toISOString()}::timestamptz - interval '1 day'
      from generate_series(0, ${params.count - 1}) i
      returning id, workspace_id, scheduled_at, split_part(split_part(text, ' ', 3), ':', 1)::int as i
    ), d as (
      insert into deliveries (workspace_id, post_id, account_id, due_at, status, attempt_count, external_id, settled_at, updated_at)
      select p.workspace_id, p.id, (${accounts}::jsonb ->> ((p.i + n) % ${params.accountIds.length}))::uuid,
        case when s.status = 'ambiguous' then now() - interval '1 minute' else p.scheduled_at end,
        s.status, case when s.status = 'scheduled' then 0 else 1 end,
        case when s.status = 'sent' then 'growth-' || p.id || '-' || n end,
        case when s.status in ('sent', 'failed', 'canceled') then p.scheduled_at + interval '2 seconds' end,
        p.scheduled_at + interval '2 seconds'
      from p
      cross join lateral (select ${params.status} as status) s
      join lateral generate_series(0, ${last}) n on true
      returning id, workspace_id, account_id, status, due_at, updated_at
    ), c as (
      insert into claims (delivery_id, generation, worker_id, lease_expires_at, claimed_at, released_at)
      select id, 1, 'growth', least(due_at, now()) - interval '1 second', due_at,
        case when status in ('sent', 'failed', 'canceled') then updated_at end
      from d where status <> 'scheduled'
    ), a as (
      insert into attempts (delivery_id, generation, account_id, started_at, finished_at, outcome, http_status, duration_ms)
      select id, 1, account_id, due_at, case when status <> 'ambiguous' then due_at + interval '1 second' end,
        case status when 'sent' then 'sent' when 'failed' then 'failed' when 'ambiguous' then null else 'ambiguous' end::attempt_outcome,
        case status when 'sent' then 200 when 'failed' then 422 end, 900
      from d where status <> 'scheduled'
    )
    insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, created_at)
    select d.workspace_id, d.id, e.from_status::delivery_status, e.to_status::delivery_status, 'growth', e.reason, d.due_at
    from d
    cross join lateral (values (null, 'scheduled', 'created'), ('scheduled', 'publishing', 'claimed'),
      ('publishing', d.status::text, 'outcome')) e(from_status, to_status, reason)
    where d.status <> 'scheduled' or e.to_status = 'scheduled'`);
}

/** The large database's extra rows: future scheduled deliveries and settled ones, in 100 workspaces of 10 accounts. */
async function grow(work: Workload) {
  const { db } = work;
  const started = performance.now();
  const targets: { workspaceId: string; accountIds: string[] }[] = [];
  for (let w = 0; w < 100; w++) {
    const workspace = await makeWorkspace(db, `growth-tenant-${w}`);
    const accountIds = [];
    for (let a = 0; a < 10; a++) accountIds.push((await makeAccount(db, workspace.id, 'mastodon')).id);
    targets.push({ workspaceId: workspace.id, accountIds });
  }
  // The measured workspaces get a share as well: their own reads must not pay for their own history either.
  for (const workspaceId of [work.calendarWorkspaceId, work.reviewWorkspaceId]) {
    const rows = await db.execute<{ id: string }>(
      sql`select id from social_accounts where workspace_id = ${workspaceId}`,
    );
    targets.push({ workspaceId, accountIds: [...rows].map((r) => r.id) });
  }
  const share = (total: number) => Math.floor(total / 2 / targets.length); // posts of two deliveries each
  const tomorrow = new Date(Date.now() + 86_400_000);
  for (const target of targets) {
    await insertPosts(db, {
      ...target,
      count: share(FUTURE),
      label: 'future',
      from: tomorrow,
      spanSeconds: 90 * 86_400,
      status: sql`'scheduled'::delivery_status`,
      deliveriesPerPost: 2,
    });
    await insertPosts(db, {
      ...target,
      count: share(SETTLED),
      label: 'settled',
      from: new Date(Date.now() - 180 * 86_400_000),
      spanSeconds: 170 * 86_400,
      status: sql`(array['sent','sent','sent','sent','sent','sent','sent','failed','canceled','sent'])[1 + p.i % 10]::delivery_status`,
      deliveriesPerPost: 2,
    });
  }
  const [counts] = await db.execute<{ deliveries: number; posts: number; events: number; attempts: number }>(sql`
    select (select count(*)::int from deliveries) as deliveries, (select count(*)::int from posts) as posts,
      (select count(*)::int from delivery_events) as events, (select count(*)::int from attempts) as attempts`);
  return { seconds: (performance.now() - started) / 1000, ...counts! };
}

type Sample = { p50: number; p99: number; n: number };
const summarise = (ms: number[]): Sample => {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99), n: sorted.length };
};

class Rollback extends Error {}

/** A client with the app's connection settings and parameter serializers (drizzle's: jsonb and timestamps as text). */
function rawClient(url: string, debug?: (query: string, params: unknown[]) => void) {
  const client = postgres(url, {
    max: 1,
    onnotice: () => {},
    connection: CONNECTION_SETTINGS,
    ...(debug ? { debug: (_connection: number, query: string, params: unknown[]) => debug(query, params) } : {}),
  });
  drizzle(client);
  return client;
}

/**
 * What `fn` sends, timed as the app sends it on its pool (named prepared statements: db/queries/prepared.ts), `RUNS`
 * times after 3 warm-ups, each run in a transaction that is rolled back so that every run sees the same rows.
 */
async function timedStatements(url: string, fn: (db: Database) => Promise<unknown>): Promise<Sample> {
  const statements = await captureStatements(url, fn);
  const client = rawClient(url);
  const ms: number[] = [];
  try {
    for (let i = 0; i < RUNS + 3; i++) {
      await client
        .begin(async (tx) => {
          const started = performance.now();
          for (const s of statements)
            await tx.unsafe(s.query, s.params as never[], { prepare: true, simple: false } as { prepare: boolean });
          if (i >= 3) ms.push(performance.now() - started);
          throw new Rollback();
        })
        .catch((error: unknown) => {
          if (!(error instanceof Rollback)) throw error;
        });
    }
  } finally {
    await client.end({ timeout: 5 });
  }
  return summarise(ms);
}

async function timed(fn: () => Promise<unknown>, runs = RUNS): Promise<Sample> {
  for (let i = 0; i < 3; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    ms.push(performance.now() - started);
  }
  return summarise(ms);
}

/** The statements `fn` sends, as postgres.js sends them (text and parameters), on a pool of its own. */
async function captureStatements(url: string, fn: (db: Database) => Promise<unknown>) {
  const captured: { query: string; params: unknown[] }[] = [];
  const client = rawClient(url, (query, params) => void captured.push({ query, params }));
  const db = drizzle(client, { schema, casing: 'snake_case' }) as unknown as Database;
  try {
    await db
      .transaction(async (tx) => {
        await fn(tx as unknown as Database);
        throw new Rollback();
      })
      .catch((error) => {
        if (!(error instanceof Rollback)) throw error;
      });
    // Not the transaction's own statements, nor postgres.js's one-off read of the array types.
    return captured.filter(
      (c) =>
        !/^(begin|commit|rollback|savepoint|release)/i.test(c.query.trim()) && !c.query.includes('pg_catalog.pg_type'),
    );
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** EXPLAIN (ANALYZE, BUFFERS) of each statement, rolled back; and the large tables any of them scans whole. */
async function plans(url: string, statements: { query: string; params: unknown[] }[]) {
  const client = rawClient(url);
  const out: { query: string; plan: string; seqScans: string[] }[] = [];
  try {
    for (const statement of statements) {
      const plan = await client
        .begin(async (tx) => {
          const rows = await tx.unsafe(
            `explain (analyze, buffers, costs off, timing off) ${statement.query}`,
            statement.params as never[],
          );
          throw Object.assign(new Rollback(), { rows });
        })
        .catch((error: unknown) => {
          if (error instanceof Rollback) return (error as Rollback & { rows: { 'QUERY PLAN': string }[] }).rows;
          throw error;
        });
      const text = plan.map((r) => r['QUERY PLAN']).join('\n');
      const seqScans = [...text.matchAll(/Seq Scan on (\w+)/g)]
        .map((m) => m[1]!)
        .filter((t) => LARGE_TABLES.includes(t));
      out.push({ query: statement.query, plan: text, seqScans });
    }
  } finally {
    await client.end({ timeout: 5 });
  }
  return out;
}

type Measure = {
  name: string;
  run: (work: Workload) => Promise<Sample>;
  explain: (work: Workload) => Promise<unknown>;
  /** Why its ratio is printed but not held to the target (its work is not the same on both); its plan still is. */
  ratioNotHeld?: string;
};

const claimParams = { workerId: 'growth', limit: 200, leaseMs: 60_000 };
const metricsFind = {
  delaysMs: DEFAULT_READ_DELAYS_MS,
  horizonMs: readHorizonMs(DEFAULT_READ_DELAYS_MS),
  limit: 5_000,
  repliesWithoutMetrics: REPLIES_WITHOUT_METRICS,
};
const options = () =>
  benchPublisherOptions({
    encryptionKey,
    origin: sandboxUrl,
    // A limit no pass reaches, so the per-account count runs as it does for every real network.
    rateLimits: { sandbox: { max: 1_000_000, windowSeconds: 3_600 } },
  });
let passRound = 0;

const measures: Measure[] = [
  {
    name: `claim statement (${DUE} due, limit ${claimParams.limit})`,
    run: async (work) => {
      await scheduleDueInBulk(work.db, {
        ...work.publishing,
        count: DUE,
        label: `growth due ${randomUUID().slice(0, 8)}`,
        firstDueAt: new Date(Date.now() - 1_000),
        stepMs: 0,
      });
      await work.db.execute(sql`analyze`);
      return timedStatements(work.url, (tx) => claimDueDeliveries(tx, claimParams));
    },
    explain: async (work) => {
      await scheduleDueInBulk(work.db, {
        ...work.publishing,
        count: DUE,
        label: `growth claim plan ${randomUUID().slice(0, 8)}`,
        firstDueAt: new Date(Date.now() - 1_000),
        stepMs: 0,
      });
      return captureStatements(work.url, (tx) => claimDueDeliveries(tx, claimParams));
    },
  },
  {
    name: `publisher pass (${DUE} due, to the sandbox)`,
    run: async (work) => {
      // The claim measure left DUE due deliveries: the first pass publishes them; each later one gets DUE new ones.
      const ms: number[] = [];
      for (let i = 0; i < PASSES; i++) {
        if (i > 0)
          await scheduleDueInBulk(work.db, {
            ...work.publishing,
            count: DUE,
            label: `growth pass ${passRound++} ${randomUUID().slice(0, 8)}`,
            firstDueAt: new Date(Date.now() - 1_000),
            stepMs: 0,
          });
        const started = performance.now();
        const summary = await publishDueDeliveries(work.db, options());
        ms.push(performance.now() - started);
        if (summary.sent !== DUE) throw new Error(`publisher pass: ${summary.sent} of ${DUE} sent`);
      }
      return summarise(ms);
    },
    explain: async (work) => {
      // The claim's plan left DUE deliveries due. The pass's own statements, planned on the large tables (calls go to the sandbox; everything is rolled back).
      return captureStatements(work.url, (tx) => publishDueDeliveries(tx, options()));
    },
  },
  {
    name: `scheduler wake-up query`,
    run: (work) => timed(() => getNextWakeAt(work.db)),
    explain: (work) => captureStatements(work.url, (tx) => getNextWakeAt(tx)),
  },
  {
    name: `calendar month (${CALENDAR_POSTS} posts)`,
    run: (work) => timed(() => calendar(work)),
    explain: (work) => captureStatements(work.url, (tx) => calendar({ ...work, db: tx })),
  },
  {
    name: `reconcile claim (${AMBIGUOUS} ambiguous due)`,
    run: (work) => timedStatements(work.url, (tx) => claimAmbiguousDeliveries(tx, { ...claimParams, limit: 50 })),
    explain: (work) => captureStatements(work.url, (tx) => claimAmbiguousDeliveries(tx, { ...claimParams, limit: 50 })),
  },
  {
    // Every minute, whatever the table holds: the sent deliveries within the readings' horizon (the calendar month's,
    // the same on both), through deliveries_sent_settled_idx. Measured as it runs day to day: the ones it found before
    // already have their post_metrics row (added first, untimed), so it finds nothing new.
    name: `metrics job's find (sent within ${Math.round(readHorizonMs(DEFAULT_READ_DELAYS_MS) / 86_400_000)} days)`,
    run: async (work) => {
      while ((await addDueMetricReads(work.db, metricsFind)) > 0);
      return timedStatements(work.url, (tx) => addDueMetricReads(tx, metricsFind));
    },
    explain: (work) => captureStatements(work.url, (tx) => addDueMetricReads(tx, metricsFind)),
    ratioNotHeld: 'the large database also has settled deliveries sent within the horizon: more of its own work',
  },
  {
    name: `review queue (${REVIEW} items)`,
    run: (work) => timed(() => listReviewItems(work.db, { workspaceIds: [work.reviewWorkspaceId] })),
    explain: (work) =>
      captureStatements(work.url, (tx) => listReviewItems(tx, { workspaceIds: [work.reviewWorkspaceId] })),
  },
];

async function calendar(work: Pick<Workload, 'db' | 'calendarWorkspaceId'>) {
  const month = fetchRange('month', new Date().toISOString().slice(0, 10));
  const result = await readCalendar(work.db, {
    workspaceId: work.calendarWorkspaceId,
    query: { from: month.from, to: month.to },
  });
  if (!result.ok) throw new Error('calendar: bad range');
  JSON.stringify(result.data);
}

console.log(`bench:growth: the same measured work on an almost empty database and on one that also holds`);
console.log(
  `   ${FUTURE.toLocaleString('en')} future scheduled and ${SETTLED.toLocaleString('en')} settled deliveries`,
);
const small = await prepare('growth_small');
const large = await prepare('growth_large');
const grown = await grow(large);
console.log(
  `   loaded in ${fmt(grown.seconds)} s (not timed): ${grown.deliveries.toLocaleString('en')} deliveries, ${grown.posts.toLocaleString('en')} posts, ${grown.attempts.toLocaleString('en')} attempts, ${grown.events.toLocaleString('en')} history rows`,
);
for (const work of [small, large]) await work.db.execute(sql`vacuum analyze`);

const results: { name: string; small: Sample; large: Sample; ratio: number; ratioNotHeld?: string }[] = [];
for (const measure of measures) {
  const s = await measure.run(small);
  const l = await measure.run(large);
  results.push({ name: measure.name, small: s, large: l, ratio: l.p50 / s.p50, ratioNotHeld: measure.ratioNotHeld });
}

const explained: { name: string; plans: Awaited<ReturnType<typeof plans>> }[] = [];
for (const measure of measures) {
  const statements = (await measure.explain(large)) as { query: string; params: unknown[] }[];
  explained.push({ name: measure.name, plans: await plans(large.url, statements) });
}

console.log('\nplans on the large database (EXPLAIN ANALYZE, BUFFERS; rolled back)');
for (const { name, plans: list } of explained) {
  console.log(`\n── ${name}: ${list.length} statement(s)`);
  for (const p of list) {
    console.log(`   ${p.query.replace(/\s+/g, ' ').trim().slice(0, 140)}`);
    console.log(p.plan.replace(/^/gm, '      '));
  }
}

console.log('\nresults (ms; ratio = large p50 ÷ small p50)');
const width = Math.max(...results.map((r) => r.name.length)) + 2;
console.log(`   ${'measure'.padEnd(width)}${'small p50/p99'.padEnd(18)}${'large p50/p99'.padEnd(18)}ratio`);
for (const r of results)
  console.log(
    `   ${r.name.padEnd(width)}${`${ms(r.small.p50)} / ${ms(r.small.p99)}`.padEnd(18)}${`${ms(r.large.p50)} / ${ms(r.large.p99)}`.padEnd(18)}${r.ratio.toFixed(2)}×  ${r.ratioNotHeld ? `(not held: ${r.ratioNotHeld})` : r.ratio <= RATIO_TARGET ? 'met' : 'NOT met'}`,
  );
const scans = explained.flatMap((e) => e.plans.flatMap((p) => p.seqScans.map((t) => `${e.name}: ${t}`)));
console.log(
  `   sequential scans of large tables in the plans: ${scans.length === 0 ? 'none' : [...new Set(scans)].join('; ')}`,
);

await small.close();
await large.close();
sandboxProcess.kill('SIGTERM');
await server.stop();
const failed = results.some((r) => !r.ratioNotHeld && r.ratio > RATIO_TARGET) || scans.length > 0;
console.log(
  failed ? `bench:growth: NOT met (a ratio over ${RATIO_TARGET}× or a large-table scan)` : 'bench:growth: met',
);
process.exit(failed ? 1 : 0);
