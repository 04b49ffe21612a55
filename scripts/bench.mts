// npm run bench [-- --deliveries 20000 --accounts 20 --platforms mastodon --publishers 2 --concurrency 64 --chunk 32
//                   --rate 100 --seconds 20 --skip-lateness]
// The publishing benchmark (docs/operations.md#chaos-run-and-benchmarks): on a fresh database and a zero-latency
// sandbox network in its own process (in-memory store, so the platform's storage is not what is measured),
//   1. throughput: N deliveries all due now, published by the real publisher pass until none is left;
//      deliveries/s, commits and statements per delivery, copies and duplicates on the sandbox;
//   2. lateness: deliveries falling due at a steady rate, published by the real scheduler
//      (LISTEN/NOTIFY + timer); due-to-sent lateness p50/p99 (posts.scheduled_at → deliveries.settled_at).
// Exits non-zero on any duplicate, any unsent delivery, any delivery with more than one attempt or any platform call
// not answered 2xx (each counted by status and reported).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { createDatabase, type Database } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { upsertAccount } from '@/db/queries/accounts';
import * as schema from '@/db/schema';
import { makeWorkspace } from '@/testing/db/factories';
import { scheduleDueInBulk } from '@/testing/publisher';
import { DEFAULT_PUBLISHER_TUNING, type PublisherOptions } from '@/lib/publishing/config';
import { publishDueDeliveries, type PublishSummary } from '@/lib/publishing/publish-due';
import { startScheduler } from '@/lib/publishing/scheduler';
import { sealCredentials } from '@/lib/providers/credentials';
import type { TimelineAccount } from '@/sandbox/http/control';
import { newSandboxIdentity } from '@/sandbox/oauth/tokens';
import { resolveDatabase } from './lib/database';
import { allowanceFor } from '@/lib/reconcile/allowance-map';

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '20000' },
    accounts: { type: 'string', default: '20' },
    // Mastodon only by default: the in-memory sandbox checks X's duplicate-content rule by scanning every
    // stored post (sandbox/store/memory-store.ts), O(n²) over a run, which would measure the sandbox's storage.
    platforms: { type: 'string', default: 'mastodon' },
    publishers: { type: 'string', default: '2' },
    batch: { type: 'string', default: String(DEFAULT_PUBLISHER_TUNING.batchSize) },
    concurrency: { type: 'string', default: String(DEFAULT_PUBLISHER_TUNING.concurrency) },
    chunk: { type: 'string', default: String(DEFAULT_PUBLISHER_TUNING.chunkSize) },
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '20' },
    'skip-lateness': { type: 'boolean', default: false },
    /** Also profile the sandbox process (profile this one with `node --cpu-prof --import tsx scripts/bench.mts`). */
    'sandbox-cpu-prof-dir': { type: 'string' },
  },
});
const N = Number(values.deliveries);
// The sandbox's timeline lists at most 1,000 posts per account: enough accounts that every copy is seen.
const ACCOUNTS = Math.max(Number(values.accounts), Math.ceil(N / 1000));
const PUBLISHERS = Number(values.publishers);
const RATE = Number(values.rate);
const LATENESS_N = Math.round(RATE * Number(values.seconds));
const encryptionKey = randomBytes(32).toString('base64');
const runTag = randomUUID().slice(0, 8);

const CLOCK_TICKS = 100; // USER_HZ on Linux (/proc CPU times)
const TARGETS = { throughput: 2_000, latenessP99: 1_000, latenessAim: 100 };

process.env.SEMEL_DATA_DIR ??= '.data/bench-publish';
const database = await resolveDatabase({ fresh: true });
await runMigrations(database.url);
// One connection for setup and measurements, so its own commits are few and known.
const setup = createDatabase(database.url, { max: 1 });
const q = async <T,>(query: ReturnType<typeof sql>) => [...(await setup.db.execute(query))] as T[];

// ── The platform: the standalone sandbox server, in memory, in its own process ────────────────────
const PLATFORMS = values.platforms!.split(',').map((p) => p.trim());
if (PLATFORMS.length === 0 || PLATFORMS.some((p) => p !== 'x' && p !== 'mastodon'))
  throw new Error('--platforms: a comma-separated list of x and mastodon');
const identities = Array.from({ length: ACCOUNTS }, (_, i) => ({
  platform: PLATFORMS[i % PLATFORMS.length] as 'x' | 'mastodon',
  ...newSandboxIdentity(),
}));
const sandboxProcess = spawn(
  process.execPath,
  [
    ...(values['sandbox-cpu-prof-dir'] ? ['--cpu-prof', '--cpu-prof-dir', values['sandbox-cpu-prof-dir']] : []),
    '--import',
    'tsx',
    'scripts/sandbox-server.mts',
    '--memory',
    '--port',
    '0',
    ...identities.flatMap((a) => ['--account', `${a.platform}:${a.platformUserId}:${a.token}:@bench_${a.suffix}`]),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'], detached: true },
);
// Whatever happens here (even a crash), the sandbox process group goes with this one.
process.on('exit', () => {
  try {
    process.kill(-sandboxProcess.pid!, 'SIGTERM');
  } catch {
    /* already gone */
  }
});
const sandboxUrl = await waitForSandbox(sandboxProcess);

const workspace = await makeWorkspace(setup.db, `bench-${runTag}`);
const accountIds: string[] = [];
for (const a of identities) {
  const row = await upsertAccount(setup.db, {
    workspaceId: workspace.id,
    provider: a.platform,
    sandbox: true,
    handle: `@bench_${a.suffix}`,
    platformUserId: a.platformUserId,
    baseUrl: `/api/sandbox/${a.platform}`,
    ...sealCredentials({ accessToken: a.token }, encryptionKey),
  });
  accountIds.push(row!.id);
}

const publisherOptions = (): PublisherOptions => ({
  ...DEFAULT_PUBLISHER_TUNING,
  workerId: `bench:${process.pid}:${randomUUID().slice(0, 8)}`,
  batchSize: Number(values.batch),
  concurrency: Number(values.concurrency),
  chunkSize: Number(values.chunk),
  budgetMs: 20_000,
  encryptionKey,
  rateLimits: {}, // sandbox accounts are unlimited
  allowanceMs: allowanceFor(60_000),
  origin: sandboxUrl, // sandbox accounts' relative base URLs resolve against this trusted origin
});

console.log(
  `bench: publishing on a fresh database, to the standalone sandbox network in its own process (pid ${sandboxProcess.pid}):`,
);
console.log("       zero latency, no faults, in-memory store (so the platform's own storage is not what is measured)");
console.log(
  `       ${ACCOUNTS} sandbox accounts (${PLATFORMS.join(' and ')} wire format); ${PUBLISHERS} publisher loop(s) in this process, batch ${values.batch}, concurrency ${values.concurrency} in chunks of ${values.chunk}`,
);

// ── 1. Throughput ─────────────────────────────────────────────────────────────────────────────────
const insertStarted = performance.now();
await insertDue({ phase: 'throughput', count: N, firstDueAt: new Date(Date.now() - 1_000), stepMs: 0 });
console.log(
  `\n1. throughput: ${N} deliveries due now (inserted in ${((performance.now() - insertStarted) / 1000).toFixed(1)} s)`,
);
await q(sql`analyze`);

let statements = 0;
const publisherSql = postgres(database.url, { max: 10, onnotice: () => {}, debug: () => void statements++ });
const publisherDb = drizzle(publisherSql, { schema, casing: 'snake_case' }) as unknown as Database;
const commitsBefore = await xactCommits();
const postgresPid = await postmasterPid();
const cpuBefore = cpuSnapshot(sandboxProcess.pid!, postgresPid);
const totals = emptyTotals();
const started = performance.now();
await Promise.all(
  Array.from({ length: PUBLISHERS }, async () => {
    const options = publisherOptions();
    for (;;) {
      const summary = await publishDueDeliveries(publisherDb, options);
      addTotals(totals, summary);
      if (summary.claimed === 0) break;
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
const cpu = cpuSnapshot(sandboxProcess.pid!, postgresPid);
await publisherSql.end({ timeout: 5 }); // a backend that exits flushes its statistics
const commits = (await xactCommits()) - commitsBefore;

const throughputStates = await statusCounts('throughput');
const throughputSent = throughputStates.get('sent') ?? 0;
console.log(`   time                     ${seconds.toFixed(2)} s`);
console.log(
  `   deliveries/s             ${fmt(throughputSent / seconds)}   (target ≥ ${TARGETS.throughput}, each with its HTTP call)`,
);
console.log(
  `   commits per delivery     ${(commits / N).toFixed(3)}   (${commits} commits on the database while publishing, pg_stat_database.xact_commit)`,
);
console.log(
  `   statements per delivery  ${(statements / N).toFixed(3)}   (${statements} statements sent by the publishers, each its own transaction)`,
);
console.log(`   outcomes                 ${JSON.stringify(totals)}`);
if (cpuBefore && cpu) {
  const used = (key: keyof CpuSnapshot) => (cpu[key] - cpuBefore[key]) / CLOCK_TICKS;
  const ours = used('publisher') + used('sandbox') + used('postgres');
  const perDelivery = (s: number) => `${((1000 * s) / N).toFixed(3)} ms`;
  console.log(
    `   CPU per delivery         publisher ${perDelivery(used('publisher'))}, sandbox ${perDelivery(used('sandbox'))}, postgres ${perDelivery(used('postgres'))}` +
      ` (machine busy ${used('machine').toFixed(1)} of ${cpu.cores} cores × ${seconds.toFixed(1)} s = ${(cpu.cores * seconds).toFixed(1)} CPU s; these three ${ours.toFixed(1)} s)`,
  );
}
console.log(
  `   sent / deliveries        ${throughputSent} / ${N}${throughputSent === N ? '' : `   NOT ALL SENT: ${JSON.stringify(Object.fromEntries(throughputStates))}`}`,
);
const seen = new Map<string, { accountId: string; text: string }>();
await collectTimeline(seen);

// ── 2. Lateness ───────────────────────────────────────────────────────────────────────────────────
let lateness: { p50: number; p99: number; max: number; sent: number } | null = null;
if (!values['skip-lateness']) {
  const firstDueAt = new Date(Date.now() + 3_000);
  await insertDue({ phase: 'lateness', count: LATENESS_N, firstDueAt, stepMs: 1000 / RATE });
  console.log(
    `\n2. lateness: ${LATENESS_N} deliveries falling due at ${RATE}/s for ${values.seconds} s, published by the in-process scheduler (LISTEN/NOTIFY + timer)`,
  );
  const scheduling = createDatabase(database.url, { max: 10 });
  const options = publisherOptions();
  const scheduler = startScheduler(scheduling.db, scheduling.sql, [(db) => publishDueDeliveries(db, options)]);
  const lastDueAt = firstDueAt.getTime() + (LATENESS_N * 1000) / RATE;
  const deadline = lastDueAt + 30_000;
  for (;;) {
    await sleep(500);
    const open = await q<{ n: number }>(sql`select count(*)::int as n from deliveries d join posts p on p.id = d.post_id
      where p.text like ${`bench ${runTag} lateness %`} and d.status in ('scheduled', 'publishing')`);
    if (open[0]!.n === 0 || Date.now() > deadline) break;
  }
  await scheduler.stop();
  await scheduling.close();
  const [row] = await q<{ p50: number; p99: number; max: number; sent: number }>(sql`
    select percentile_cont(0.5) within group (order by ms) as p50, percentile_cont(0.99) within group (order by ms) as p99,
      max(ms) as max, count(*)::int as sent
    from (select extract(epoch from d.settled_at - p.scheduled_at) * 1000 as ms from deliveries d join posts p on p.id = d.post_id
      where p.text like ${`bench ${runTag} lateness %`} and d.status = 'sent') t`);
  lateness = { p50: Number(row!.p50), p99: Number(row!.p99), max: Number(row!.max), sent: row!.sent };
  console.log(
    `   due → sent lateness      p50 ${fmt(lateness.p50)} ms, p99 ${fmt(lateness.p99)} ms, max ${fmt(lateness.max)} ms   (target p99 < ${TARGETS.latenessP99} ms, aim < ${TARGETS.latenessAim} ms)`,
  );
  console.log(`   sent / deliveries        ${lateness.sent} / ${LATENESS_N}`);
  await collectTimeline(seen);
}

// ── Exactly once: what the platform holds, what the database says ────────────────────────────────
const totalDeliveries = N + (lateness ? LATENESS_N : 0);
const timeline = await fetchTimeline();
const copiesOnSandbox = timeline.reduce((sum, a) => sum + a.total, 0);
const copiesPerText = new Map<string, number>();
for (const { accountId, text } of seen.values())
  copiesPerText.set(`${accountId}\u0000${text}`, (copiesPerText.get(`${accountId}\u0000${text}`) ?? 0) + 1);
const duplicates = [...copiesPerText.values()].reduce((sum, n) => sum + n - 1, 0);
const [dbFacts] = await q<{ sent: number; unsent: number; multi: number; refused: number }>(sql`
  select count(*) filter (where d.status = 'sent')::int as sent,
    count(*) filter (where d.status <> 'sent')::int as unsent,
    (select count(*)::int from (select delivery_id from attempts group by delivery_id having count(*) > 1) m) as multi,
    (select count(*)::int from delivery_events where detail->>'rule' = 'x-duplicate-content') as refused
  from deliveries d`);
// Every platform call must have been answered 2xx with the post created: anything else is an error, not a figure.
const answers = await q<{ status: string; expected: boolean; n: number }>(sql`
  select coalesce(a.http_status::text, 'no answer (' || coalesce(a.outcome::text, 'unfinished') || ')') as status,
    coalesce(a.http_status between 200 and 299 and a.outcome = 'sent', false) as expected, count(*)::int as n
  from attempts a group by 1, 2 order by 1`);
const unexpected = answers.filter((a) => !a.expected);
const unexpectedCalls = unexpected.reduce((sum, a) => sum + a.n, 0);
const byStatus = (list: typeof answers) =>
  list.map((a) => `${a.status}${a.expected ? '' : ' (unexpected)'} ×${a.n}`).join(', ') || 'none';
console.log('\nplatform answers (both phases)');
console.log(`   by status                ${byStatus(answers)}`);
console.log(
  `   unexpected               ${unexpectedCalls}   (target 0: every call answered 2xx with the post created)`,
);

console.log('\nexactly once (both phases)');
console.log(`   deliveries               ${totalDeliveries}`);
console.log(`   sent (database)          ${dbFacts!.sent}`);
console.log(
  `   copies on the sandbox    ${copiesOnSandbox}   (every copy listed: ${seen.size === copiesOnSandbox ? 'yes' : `NO, ${seen.size} seen`})`,
);
console.log(`   duplicates on the sandbox ${duplicates}   (target 0; copies of one text on one account)`);
console.log(`   deliveries with > 1 attempt ${dbFacts!.multi}`);
console.log(`   re-sends refused as duplicate content ${dbFacts!.refused}`);
console.log(`   unsent                   ${dbFacts!.unsent}`);

const exactlyOnce =
  duplicates === 0 &&
  dbFacts!.unsent === 0 &&
  dbFacts!.multi === 0 &&
  dbFacts!.refused === 0 &&
  copiesOnSandbox === totalDeliveries &&
  seen.size === copiesOnSandbox &&
  dbFacts!.sent === totalDeliveries;
const ok = exactlyOnce && unexpectedCalls === 0;
const rate = throughputSent / seconds;
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
console.log('\ntargets (this 2-core machine)');
const row = (label: string, value: string, verdict: string) =>
  console.log(`   ${label.padEnd(36)}${value.padEnd(16)}${verdict}`);
row(`throughput ≥ ${TARGETS.throughput} deliveries/s`, fmt(rate), met(rate >= TARGETS.throughput));
if (lateness) {
  row(
    `lateness p99 < ${TARGETS.latenessP99} ms at ${RATE}/s`,
    `${fmt(lateness.p99)} ms`,
    `${met(lateness.p99 < TARGETS.latenessP99)} (aim < ${TARGETS.latenessAim} ms: ${met(lateness.p99 < TARGETS.latenessAim)})`,
  );
}
row('zero duplicates', String(duplicates), met(duplicates === 0 && dbFacts!.multi === 0 && dbFacts!.refused === 0));
row('every delivery sent', `${dbFacts!.sent} / ${totalDeliveries}`, met(dbFacts!.sent === totalDeliveries));
row('every platform call answered 2xx', `${unexpectedCalls} unexpected`, met(unexpectedCalls === 0));
console.log(
  `exactly once: ${exactlyOnce ? 'OK' : 'FAILED'} (the exit code fails on a duplicate, an unsent delivery or an unexpected platform answer)`,
);
if (unexpectedCalls > 0) {
  console.error(
    `bench FAILED: ${unexpectedCalls} platform call(s) answered with an unexpected status: ${byStatus(unexpected)}. These were errors, not publishing: fix them before reading the figures.`,
  );
}

await setup.close();
await database.stop();
process.exit(ok ? 0 : 1);

// ── helpers ───────────────────────────────────────────────────────────────────────────────────────

type CpuSnapshot = { publisher: number; sandbox: number; postgres: number; machine: number; cores: number };

/** CPU time in clock ticks from /proc (Linux; null elsewhere): this process, the sandbox, Postgres with its backends, the whole machine. */
function cpuSnapshot(sandboxPid: number, postgresPid: number | null): CpuSnapshot | null {
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
      publisher: own(process.pid),
      sandbox: own(sandboxPid),
      postgres: postgresTicks,
      machine,
      cores: cpus().length,
    };
  } catch {
    return null;
  }
}

/** The postmaster: the parent of this connection's backend (when Postgres runs on this machine). */
async function postmasterPid(): Promise<number | null> {
  try {
    const [row] = await q<{ pid: number }>(sql`select pg_backend_pid() as pid`);
    const f = readFileSync(`/proc/${row!.pid}/stat`, 'utf8');
    return Number(f.slice(f.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** Posts with one delivery each, round-robin over the accounts (texts `bench <run> <phase> #i`). */
async function insertDue(params: { phase: string; count: number; firstDueAt: Date; stepMs: number }) {
  await scheduleDueInBulk(setup.db, {
    workspaceId: workspace.id,
    accountIds,
    count: params.count,
    label: `bench ${runTag} ${params.phase} `,
    firstDueAt: params.firstDueAt,
    stepMs: params.stepMs,
  });
}

async function statusCounts(phase: string) {
  const rows = await q<{
    status: string;
    n: number;
  }>(sql`select d.status, count(*)::int as n from deliveries d join posts p on p.id = d.post_id
    where p.text like ${`bench ${runTag} ${phase} %`} group by d.status`);
  return new Map(rows.map((r) => [r.status, r.n]));
}

async function xactCommits(): Promise<number> {
  await q(sql`select pg_stat_force_next_flush()`);
  await sleep(300);
  await q(sql`select pg_stat_clear_snapshot()`);
  const [row] = await q<{ n: string }>(
    sql`select xact_commit::text as n from pg_stat_database where datname = current_database()`,
  );
  return Number(row!.n);
}

async function fetchTimeline(): Promise<TimelineAccount[]> {
  const response = await fetch(`${sandboxUrl}/api/sandbox/timeline?limit=1000`);
  if (!response.ok) throw new Error(`sandbox timeline: HTTP ${response.status}`);
  return ((await response.json()) as { accounts: TimelineAccount[] }).accounts;
}

/** Every copy the sandbox lists, by its own id (a copy listed twice is still one copy). */
async function collectTimeline(into: Map<string, { accountId: string; text: string }>) {
  for (const account of await fetchTimeline())
    for (const post of account.posts) into.set(post.id, { accountId: account.accountId, text: post.text });
}

async function waitForSandbox(child: ChildProcess): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`sandbox server exited (${code}) before listening`);
  });
  const listening = (async () => {
    for await (const line of lines) {
      const match = /listening on (http:\/\/\S+)\/api\/sandbox/.exec(line);
      if (match) return match[1]!;
    }
    throw new Error('sandbox server closed its output before listening');
  })();
  const url = await Promise.race([listening, exited]);
  exited.catch(() => {}); // it exits when the bench stops it
  child.stdout!.resume();
  return url;
}

function emptyTotals(): PublishSummary {
  return {
    claimed: 0,
    sent: 0,
    failed: 0,
    not_sent: 0,
    ambiguous: 0,
    deferred: 0,
    missed: 0,
    released: 0,
    fenced: 0,
    stranded: 0,
  };
}

function addTotals(into: PublishSummary, summary: PublishSummary) {
  for (const key of Object.keys(into) as (keyof PublishSummary)[]) into[key] += summary[key];
}

function fmt(n: number): string {
  return Number.isFinite(n) ? n.toFixed(n >= 100 ? 0 : 1) : String(n);
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}
