// npm run bench [-- --deliveries 20000 --accounts 20 --platforms mastodon --publishers 3 --concurrency 64 --chunk 32
//                   --rate 100,500 --seconds 10 --skip-lateness --spike 20000 --upload 200 --skip-analytics
//                   --skip-inbox]
// The publishing benchmark (docs/operations.md#chaos-run-and-benchmarks): on a fresh database and a zero-latency
// sandbox network in its own process (in-memory store, so the platform's storage is not what is measured),
//   1. throughput: N deliveries all due now, published by the real publisher pass until none is left;
//      deliveries/s, commits and statements per delivery, copies and duplicates on the sandbox;
//   2. lateness: deliveries falling due at a steady rate (each rate of --rate in turn), published by the real
//      scheduler (LISTEN/NOTIFY + timer); due-to-sent lateness p50/p99 (posts.scheduled_at → deliveries.settled_at),
//      and where it goes (due → claimed → attempt started → call → outcome written);
//   3. with --spike N, the top of the hour: N deliveries due at one instant across 200 workspaces (half of them in
//      one), published by the in-process schedulers; when the last went out, and lateness per workspace.
//   4. upload (--upload MB, 0 to skip): one video of that size through the tus routes in their own process; MB/s and
//      the server's peak RSS growth, which must stay well under the video's size.
//   5. analytics (--skip-analytics skips it): the analytics page's server time with 100,000 snapshots over 10,000
//      posts (scripts/lib/bench-analytics.ts, also `npm run bench:analytics`).
//   6. inbox (--skip-inbox skips it): the inbox page's server time with 50,000 items (scripts/lib/bench-inbox.ts, also
//      `npm run bench:inbox`).
// Exits non-zero on any duplicate, any unsent delivery, any delivery with more than one attempt or any platform call
// not answered 2xx (each counted by status and reported).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDatabase } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { makeWorkspace } from '@/testing/db/factories';
import { scheduleDueInBulk } from '@/testing/publisher';
import { DEFAULT_PUBLISHER_TUNING } from '@/lib/publishing/config';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { startScheduler } from '@/lib/publishing/scheduler';
import { ANALYTICS_TARGET_MS, benchAnalytics } from './lib/bench-analytics';
import { INBOX_TARGET_MS, benchInbox } from './lib/bench-inbox';
import { benchUpload, makeLargeVideo } from './lib/bench-upload';
import { resolveDatabase } from './lib/database';
import {
  benchPublisherOptions,
  countingPostgres,
  cpuSnapshot,
  cpuUsed,
  fmt,
  postmasterPid,
  publishUntilDone,
  rowsOf,
  sleep,
  xactCommits,
} from './lib/bench-support';
import {
  collectTimeline,
  fetchTimeline,
  registerSandboxAccounts,
  sandboxIdentities,
  startSandboxProcess,
  tallyCopies,
  type SandboxCopy,
} from './lib/bench-sandbox';

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '20000' },
    accounts: { type: 'string', default: '20' },
    // Mastodon only by default: the in-memory sandbox checks X's duplicate-content rule by scanning every
    // stored post (sandbox/store/memory-store.ts), O(n²) over a run, which would measure the sandbox's storage.
    platforms: { type: 'string', default: 'mastodon' },
    publishers: { type: 'string', default: '3' },
    batch: { type: 'string', default: String(DEFAULT_PUBLISHER_TUNING.batchSize) },
    concurrency: { type: 'string', default: String(DEFAULT_PUBLISHER_TUNING.concurrency) },
    chunk: { type: 'string', default: String(DEFAULT_PUBLISHER_TUNING.chunkSize) },
    rate: { type: 'string', default: '100,500' },
    seconds: { type: 'string', default: '10' },
    'skip-lateness': { type: 'boolean', default: false },
    /** The top of the hour: this many deliveries due at one instant across 200 workspaces, half of them in one. */
    spike: { type: 'string', default: '0' },
    /** The upload section: a video of this many MB through the tus routes in their own process (0: skip it). */
    upload: { type: 'string', default: '200' },
    'skip-analytics': { type: 'boolean', default: false },
    'skip-inbox': { type: 'boolean', default: false },
    /** Also profile the sandbox process (profile this one with `node --cpu-prof --import tsx scripts/bench.mts`). */
    'sandbox-cpu-prof-dir': { type: 'string' },
  },
});
const N = Number(values.deliveries);
// The sandbox's timeline lists at most 1,000 posts per account: enough accounts that every copy is seen.
const ACCOUNTS = Math.max(Number(values.accounts), Math.ceil(N / 1000));
const PUBLISHERS = Number(values.publishers);
const RATES = values.rate!.split(',').map(Number);
if (RATES.some((r) => !(r > 0)))
  throw new Error('--rate: a comma-separated list of deliveries per second, e.g. 100,500');
const encryptionKey = randomBytes(32).toString('base64');
const runTag = randomUUID().slice(0, 8);

// Lateness p99 targets (docs/publishing.md#lateness): under 30 ms at 100/s, under 50 ms at 500/s and any higher rate.
const TARGETS = { throughput: 2_000, latenessP99: (rate: number) => (rate <= 100 ? 30 : 50) };

process.env.SEMEL_DATA_DIR ??= '.data/bench-publish';
const database = await resolveDatabase({ fresh: true });
await runMigrations(database.url);
// One connection for setup and measurements, so its own commits are few and known.
const setup = createDatabase(database.url, { max: 1 });
const q = rowsOf(setup.db);

// ── The platform: the standalone sandbox server, in memory, in its own process ────────────────────
const PLATFORMS = values.platforms!.split(',').map((p) => p.trim());
if (PLATFORMS.length === 0 || PLATFORMS.some((p) => p !== 'x' && p !== 'mastodon'))
  throw new Error('--platforms: a comma-separated list of x and mastodon');
const identities = sandboxIdentities(ACCOUNTS, PLATFORMS as ('x' | 'mastodon')[]);
// The spike's workspaces: the big one with enough accounts for its half (1,000 listed per account), one each.
const SPIKE = Number(values.spike);
const SPIKE_WORKSPACES = 200;
const SPIKE_BIG_ACCOUNTS = Math.max(1, Math.ceil(SPIKE / 2 / 1000));
const spikeIdentities =
  SPIKE > 0 ? sandboxIdentities(SPIKE_BIG_ACCOUNTS + SPIKE_WORKSPACES - 1, PLATFORMS as ('x' | 'mastodon')[]) : [];
const { process: sandboxProcess, url: sandboxUrl } = await startSandboxProcess([...identities, ...spikeIdentities], {
  handlePrefix: 'bench',
  cpuProfDir: values['sandbox-cpu-prof-dir'],
});

const workspace = await makeWorkspace(setup.db, `bench-${runTag}`);
const accountIds = await registerSandboxAccounts(setup.db, {
  workspaceId: workspace.id,
  identities,
  encryptionKey,
  handlePrefix: 'bench',
});

const publisherOptions = () =>
  benchPublisherOptions({
    encryptionKey,
    origin: sandboxUrl,
    batchSize: Number(values.batch),
    concurrency: Number(values.concurrency),
    chunkSize: Number(values.chunk),
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

const publisher = countingPostgres(database.url, 10);
const commitsBefore = await xactCommits(q);
const postgresPid = await postmasterPid(q);
const cpuBefore = cpuSnapshot(sandboxProcess.pid!, postgresPid);
const started = performance.now();
const totals = await publishUntilDone(publisher.db, PUBLISHERS, publisherOptions);
const seconds = (performance.now() - started) / 1000;
const cpu = cpuSnapshot(sandboxProcess.pid!, postgresPid);
await publisher.sql.end({ timeout: 5 }); // a backend that exits flushes its statistics
const commits = (await xactCommits(q)) - commitsBefore;

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
  `   statements per delivery  ${(publisher.statements() / N).toFixed(3)}   (${publisher.statements()} statements sent by the publishers, each its own transaction)`,
);
console.log(`   outcomes                 ${JSON.stringify(totals)}`);
if (cpuBefore && cpu) {
  const used = cpuUsed(cpuBefore, cpu);
  const ours = used.publisher + used.sandbox + used.postgres;
  const perDelivery = (s: number) => `${((1000 * s) / N).toFixed(3)} ms`;
  console.log(
    `   CPU per delivery         publisher ${perDelivery(used.publisher)}, sandbox ${perDelivery(used.sandbox)}, postgres ${perDelivery(used.postgres)}` +
      ` (machine busy ${used.machine.toFixed(1)} of ${cpu.cores} cores × ${seconds.toFixed(1)} s = ${(cpu.cores * seconds).toFixed(1)} CPU s; these three ${ours.toFixed(1)} s)`,
  );
}
console.log(
  `   sent / deliveries        ${throughputSent} / ${N}${throughputSent === N ? '' : `   NOT ALL SENT: ${JSON.stringify(Object.fromEntries(throughputStates))}`}`,
);
const seen = new Map<string, SandboxCopy>();
await collectTimeline(sandboxUrl, seen);

// ── 2. Lateness ───────────────────────────────────────────────────────────────────────────────────
type Lateness = { rate: number; count: number; target: number; p50: number; p99: number; max: number; sent: number };
const latenesses: Lateness[] = [];
if (!values['skip-lateness']) {
  for (const [i, rate] of RATES.entries()) latenesses.push(await measureLateness(rate, `lateness${i}`));
}
const latenessDeliveries = latenesses.reduce((sum, l) => sum + l.count, 0);

// ── 3. The top of the hour ────────────────────────────────────────────────────────────────────────
const spike = SPIKE > 0 ? await measureSpike(throughputSent / seconds) : null;

// ── Exactly once: what the platform holds, what the database says ────────────────────────────────
const totalDeliveries = N + latenessDeliveries + SPIKE;
const timeline = await fetchTimeline(sandboxUrl);
const copiesOnSandbox = timeline.reduce((sum, a) => sum + a.total, 0);
const { duplicates } = tallyCopies(seen.values());
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
  console.log(`   ${label.padEnd(44)}${value.padEnd(16)}${verdict}`);
row(`throughput ≥ ${TARGETS.throughput} deliveries/s`, fmt(rate), met(rate >= TARGETS.throughput));
for (const l of latenesses)
  row(`lateness p99 < ${l.target} ms at ${l.rate}/s`, `${fmt(l.p99)} ms`, met(l.p99 < l.target));
if (spike) {
  row(`spike: small workspaces' p99 < 2,000 ms`, `${fmt(spike.smallP99)} ms`, met(spike.smallP99 < 2_000));
  row(
    `spike: all out within ${fmt(spike.allowedMs / 1000)} s`,
    `${fmt(spike.lastMs / 1000)} s`,
    `${met(spike.lastMs <= spike.allowedMs)} (${SPIKE} ÷ ${fmt(throughputSent / seconds)}/s + 5 s)`,
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

const upload = Number(values.upload) > 0 ? await measureUpload(Number(values.upload)) : null;
const analytics = values['skip-analytics'] ? null : await measureAnalytics();
const inbox = values['skip-inbox'] ? null : await measureInbox();

await setup.close();
await database.stop();
process.exit(ok && (upload?.ok ?? true) && (analytics?.ok ?? true) && (inbox?.ok ?? true) ? 0 : 1);

// ── helpers ───────────────────────────────────────────────────────────────────────────────────────

/**
 * 4. A video through the tus upload routes (their own process), chunked as the composer sends it: MB/s, and the
 * server's peak RSS against its RSS before, which must grow by well under the video's size (the bytes stream to disk).
 */
async function measureUpload(megabytes: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'semel-bench-upload-'));
  try {
    const { clip, video } = await makeLargeVideo(dir, megabytes);
    const result = await benchUpload({
      db: setup.db,
      databaseUrl: database.url,
      workspaceId: workspace.id,
      file: video,
      warmUp: clip,
      dataDir: dir,
    });
    const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MB`;
    const growth = result.peakRss - result.rssBefore;
    // A quarter of the file is generous: the server holds a chunk or two, the probe and the hash stream.
    const bounded = growth < result.size / 4;
    console.log(
      `\n4. upload: one ${mb(result.size)} video through tus (5 MiB PATCHes) to the upload routes in their own process`,
    );
    console.log(
      `   time to the finish       ${result.seconds.toFixed(2)} s (bytes, probe, SHA-256, cover, stored once)`,
    );
    console.log(`   rate                     ${fmt(result.size / 1024 / 1024 / result.seconds)} MB/s`);
    console.log(
      `   server RSS               ${mb(result.rssBefore)} before, ${mb(result.peakRss)} at its peak (+${mb(growth)})`,
    );
    row(`upload: peak RSS growth < ¼ of the video`, `+${mb(growth)}`, met(bounded));
    return { ok: bounded };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 5. The analytics page's server time over 100,000 snapshots of 10,000 posts (its own workspaces, beside the rest). */
async function measureAnalytics() {
  console.log('\n5. analytics');
  const figures = await benchAnalytics(setup.db, { log: (line) => console.log(`   ${line}`) });
  row(`analytics page p95 < ${ANALYTICS_TARGET_MS} ms`, `${fmt(figures.all.p95)} ms`, met(figures.targetMet));
  return { ok: figures.targetMet };
}

/** 6. The inbox page's server time with 50,000 items (its own workspaces, beside the rest). */
async function measureInbox() {
  console.log('\n6. inbox');
  const figures = await benchInbox(setup.db, { items: 50_000, runs: 30 });
  const worst = Math.max(...Object.values(figures.views).map((v) => v.p95), figures.conversation.p95);
  row(`inbox page p95 < ${INBOX_TARGET_MS} ms (slowest view)`, `${fmt(worst)} ms`, met(figures.targetMet));
  return { ok: figures.targetMet };
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

/** Deliveries falling due at `rate` per second for --seconds, published by the in-process scheduler. */
async function measureLateness(rate: number, phase: string): Promise<Lateness> {
  const count = Math.round(rate * Number(values.seconds));
  const target = TARGETS.latenessP99(rate);
  const firstDueAt = new Date(Date.now() + 3_000);
  await insertDue({ phase, count, firstDueAt, stepMs: 1000 / rate });
  // Fresh statistics, as autovacuum's analyze keeps them on a live table: planned on the counts from before this
  // insert, the statements that look for due rows chose sequential scans.
  await q(sql`analyze`);
  console.log(
    `\n2. lateness: ${count} deliveries falling due at ${rate}/s for ${values.seconds} s, published by the in-process scheduler (LISTEN/NOTIFY + timer)`,
  );
  const scheduling = createDatabase(database.url, { max: 10 });
  const options = publisherOptions();
  const scheduler = startScheduler(scheduling.db, scheduling.sql, [
    { run: (db) => publishDueDeliveries(db, options), overlaps: true },
  ]);
  const lastDueAt = firstDueAt.getTime() + (count * 1000) / rate;
  const deadline = lastDueAt + 30_000;
  const like = `bench ${runTag} ${phase} %`;
  for (;;) {
    await sleep(500);
    const open = await q<{ n: number }>(sql`select count(*)::int as n from deliveries d join posts p on p.id = d.post_id
      where p.text like ${like} and d.status in ('scheduled', 'publishing')`);
    if (open[0]!.n === 0 || Date.now() > deadline) break;
  }
  await scheduler.stop();
  await scheduling.close();
  const [row] = await q<{ p50: number; p99: number; max: number; sent: number }>(sql`
    select percentile_cont(0.5) within group (order by ms) as p50, percentile_cont(0.99) within group (order by ms) as p99,
      max(ms) as max, count(*)::int as sent
    from (select extract(epoch from d.settled_at - p.scheduled_at) * 1000 as ms from deliveries d join posts p on p.id = d.post_id
      where p.text like ${like} and d.status = 'sent') t`);
  const result = {
    rate,
    count,
    target,
    p50: Number(row!.p50),
    p99: Number(row!.p99),
    max: Number(row!.max),
    sent: row!.sent,
  };
  console.log(
    `   due → sent lateness      p50 ${fmt(result.p50)} ms, p99 ${fmt(result.p99)} ms, max ${fmt(result.max)} ms   (target p99 < ${target} ms)`,
  );
  console.log(`   sent / deliveries        ${result.sent} / ${count}`);
  // Where the lateness goes, from the rows' own times (each is now() of the statement that wrote it): due → claimed
  // (the scheduler's wake-up and the pass before the claim), claimed → attempt started, the platform call
  // (attempts.duration_ms), answered → outcome written (the chunk's other calls, then the outcome statement).
  const [steps] = await q<Record<string, number>>(sql`
    with t as (
      select extract(epoch from c.claimed_at - p.scheduled_at) * 1000 as wake,
        extract(epoch from a.started_at - c.claimed_at) * 1000 as start,
        a.duration_ms as call,
        extract(epoch from d.settled_at - a.started_at) * 1000 - a.duration_ms as record
      from deliveries d join posts p on p.id = d.post_id join claims c on c.delivery_id = d.id
      join attempts a on a.delivery_id = d.id
      where p.text like ${like} and d.status = 'sent')
    select percentile_cont(0.5) within group (order by wake) as wake50, percentile_cont(0.99) within group (order by wake) as wake99,
      percentile_cont(0.5) within group (order by start) as start50, percentile_cont(0.99) within group (order by start) as start99,
      percentile_cont(0.5) within group (order by call) as call50, percentile_cont(0.99) within group (order by call) as call99,
      percentile_cont(0.5) within group (order by record) as record50, percentile_cont(0.99) within group (order by record) as record99
    from t`);
  const step = (name: string) => `p50 ${fmt(Number(steps![`${name}50`]))} / p99 ${fmt(Number(steps![`${name}99`]))} ms`;
  console.log(
    `   where it goes            due → claimed ${step('wake')}; claimed → started ${step('start')}; call ${step('call')}; answered → recorded ${step('record')}`,
  );
  await collectTimeline(sandboxUrl, seen);
  return result;
}

/**
 * N deliveries due at one instant: half of them in one workspace (on SPIKE_BIG_ACCOUNTS accounts), the rest spread
 * over 199 workspaces of one account each; published by PUBLISHERS in-process schedulers, as web instances would.
 */
async function measureSpike(throughput: number) {
  const phase = 'spike';
  const big = Math.round(SPIKE / 2);
  const perSmall = Math.floor((SPIKE - big) / (SPIKE_WORKSPACES - 1));
  const extra = SPIKE - big - perSmall * (SPIKE_WORKSPACES - 1);
  const workspaceIds: string[] = [];
  const plans: { workspaceId: string; accountIds: string[]; count: number; w: number }[] = [];
  for (let w = 0; w < SPIKE_WORKSPACES; w++) {
    const workspace = await makeWorkspace(setup.db, `bench-${runTag}-spike-${w}`);
    const own = w === 0 ? spikeIdentities.slice(0, SPIKE_BIG_ACCOUNTS) : [spikeIdentities[SPIKE_BIG_ACCOUNTS + w - 1]!];
    const accountIds = await registerSandboxAccounts(setup.db, {
      workspaceId: workspace.id,
      identities: own,
      encryptionKey,
      handlePrefix: 'bench',
    });
    plans.push({ workspaceId: workspace.id, accountIds, w, count: w === 0 ? big : perSmall + (w <= extra ? 1 : 0) });
    workspaceIds.push(workspace.id);
  }
  // The big workspace's rows first: the order an unfair claim (by due time, then by what was written first) favours.
  const dueAt = new Date(Date.now() + 5_000 + SPIKE / 10);
  for (const plan of plans) {
    await scheduleDueInBulk(setup.db, {
      workspaceId: plan.workspaceId,
      accountIds: plan.accountIds,
      count: plan.count,
      label: `bench ${runTag} ${phase} w${plan.w} `,
      firstDueAt: dueAt,
      stepMs: 0,
    });
  }
  if (Date.now() > dueAt.getTime()) throw new Error('spike: the deliveries were written after their due time');
  await q(sql`analyze`);
  console.log(
    `\n3. the top of the hour: ${SPIKE} deliveries due at one instant in ${SPIKE_WORKSPACES} workspaces (${big} in one, ~${perSmall} in each other), ${PUBLISHERS} in-process scheduler(s)`,
  );
  const schedulers = Array.from({ length: PUBLISHERS }, () => {
    const pool = createDatabase(database.url, { max: 10 });
    const options = publisherOptions();
    return {
      pool,
      scheduler: startScheduler(pool.db, pool.sql, [
        { run: (db) => publishDueDeliveries(db, options), overlaps: true },
      ]),
    };
  });
  const like = `bench ${runTag} ${phase} %`;
  const deadline = dueAt.getTime() + 60_000 + (SPIKE / Math.max(throughput, 1)) * 3_000;
  for (;;) {
    await sleep(500);
    const open = await q<{ n: number }>(sql`select count(*)::int as n from deliveries d join posts p on p.id = d.post_id
      where p.text like ${like} and d.status in ('scheduled', 'publishing')`);
    if (open[0]!.n === 0 || Date.now() > deadline) break;
  }
  for (const { pool, scheduler } of schedulers) {
    await scheduler.stop();
    await pool.close();
  }
  const bigId = workspaceIds[0]!;
  const perWorkspace = await q<{ workspace_id: string; n: number; p50: number; p99: number; last: number }>(sql`
    select t.workspace_id, count(*)::int as n, max(ms) as last,
      percentile_cont(0.5) within group (order by ms) as p50, percentile_cont(0.99) within group (order by ms) as p99
    from (select d.workspace_id, extract(epoch from d.settled_at - p.scheduled_at) * 1000 as ms from deliveries d
      join posts p on p.id = d.post_id where p.text like ${like} and d.status = 'sent') t
    group by t.workspace_id`);
  const [smallAll] = await q<{ p50: number; p99: number }>(sql`
    select percentile_cont(0.5) within group (order by ms) as p50, percentile_cont(0.99) within group (order by ms) as p99
    from (select extract(epoch from d.settled_at - p.scheduled_at) * 1000 as ms from deliveries d
      join posts p on p.id = d.post_id
      where p.text like ${like} and d.status = 'sent' and d.workspace_id <> ${bigId}::uuid) t`);
  const bigRow = perWorkspace.find((r) => r.workspace_id === bigId);
  const smallP99s = perWorkspace
    .filter((r) => r.workspace_id !== bigId)
    .map((r) => Number(r.p99))
    .sort((a, b) => a - b);
  const sent = perWorkspace.reduce((sum, r) => sum + r.n, 0);
  const result = {
    sent,
    lastMs: Math.max(...perWorkspace.map((r) => Number(r.last))),
    allowedMs: (SPIKE / throughput) * 1000 + 5_000,
    smallP99: Number(smallAll!.p99),
  };
  console.log(`   sent / deliveries        ${sent} / ${SPIKE}`);
  console.log(`   last one out after       ${fmt(result.lastMs)} ms`);
  console.log(
    `   the big workspace        ${bigRow?.n ?? 0} sent: p50 ${fmt(Number(bigRow?.p50))} ms, p99 ${fmt(Number(bigRow?.p99))} ms`,
  );
  console.log(
    `   the ${smallP99s.length} others           their deliveries p50 ${fmt(Number(smallAll!.p50))} ms, p99 ${fmt(result.smallP99)} ms; p99 per workspace: best ${fmt(smallP99s[0] ?? NaN)}, median ${fmt(smallP99s[Math.floor(smallP99s.length / 2)] ?? NaN)}, worst ${fmt(smallP99s.at(-1) ?? NaN)} ms`,
  );
  await collectTimeline(sandboxUrl, seen);
  return result;
}
