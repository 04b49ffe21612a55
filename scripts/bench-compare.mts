// npm run bench:compare [-- --deliveries 20000 --accounts 20 --variants c16,c64,c16-batched,c64-batched
//                           --local-queue 1000 --publishers 3 --rounds 1 --skip-semel --skip-graphile --cpu-prof DIR]
// Semel's publisher beside graphile-worker, measured here rather than quoted (docs/operations.md#chaos-run-and-benchmarks).
// Each side gets a fresh database (Semel's schema), N deliveries due now on its own sandbox accounts, and a child
// process of its own for its publisher; all sides publish to one standalone sandbox server (in memory, zero latency).
// Per side: deliveries/s, commits and statements per delivery, CPU per delivery of the publisher, the sandbox and
// Postgres, and the CPU bound (cores ÷ that CPU per delivery); then the ratio of Semel to the best graphile-worker
// variant. With --rounds N the sides run N times in turn (A B C … A B C …, each run on fresh accounts), and every figure
// is the median of a side's runs: this shared machine's speed drifts between runs, and a ratio of two single runs
// taken a minute apart carries that drift. Every run is checked exactly-once on the sandbox's own records; the exit
// code fails on any violation.
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDatabase } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { makeWorkspace } from '@/testing/db/factories';
import { scheduleDueInBulk } from '@/testing/publisher';
import { DEFAULT_PUBLISHER_TUNING } from '@/lib/publishing/config';
import { recreateSiblingDatabase, resolveDatabase } from './lib/database';
import {
  cpuSnapshot,
  cpuUsed,
  fmt,
  postmasterPid,
  rowsOf,
  sleep,
  xactCommits,
  type CpuSnapshot,
  type Rows,
} from './lib/bench-support';
import {
  fetchTimeline,
  registerSandboxAccounts,
  sandboxIdentities,
  startSandboxProcess,
  tallyCopies,
  type SandboxIdentity,
} from './lib/bench-sandbox';
import { runSide, type GraphileSideConfig, type SemelSideConfig } from './lib/compare-protocol';

const GRAPHILE_VARIANTS = {
  c16: { concurrency: 16, batched: false },
  c64: { concurrency: 64, batched: false },
  'c16-batched': { concurrency: 16, batched: true },
  'c64-batched': { concurrency: 64, batched: true },
} as const;
type VariantName = keyof typeof GRAPHILE_VARIANTS;

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '20000' },
    accounts: { type: 'string', default: '20' },
    variants: { type: 'string', default: Object.keys(GRAPHILE_VARIANTS).join(',') },
    /** Jobs graphile-worker fetches (and locks) per statement in the batched variants. */
    'local-queue': { type: 'string', default: '1000' },
    publishers: { type: 'string', default: '3' },
    /** Runs of every side, in turn; the figures are each side's medians. */
    rounds: { type: 'string', default: '1' },
    'skip-semel': { type: 'boolean', default: false },
    'skip-graphile': { type: 'boolean', default: false },
    /** Writes a V8 CPU profile of each side's publisher and of the sandbox into DIR (where a delivery's CPU goes). */
    'cpu-prof': { type: 'string' },
  },
});
const N = Number(values.deliveries);
// The sandbox's timeline lists at most 1,000 posts per account: enough accounts per side that every copy is seen.
const ACCOUNTS = Math.max(Number(values.accounts), Math.ceil(N / 1000));
const LOCAL_QUEUE = Number(values['local-queue']);
const variants = values['skip-graphile'] ? [] : values.variants!.split(',').map((v) => v.trim());
for (const v of variants)
  if (!(v in GRAPHILE_VARIANTS)) throw new Error(`--variants: ${v}? (${Object.keys(GRAPHILE_VARIANTS).join(', ')})`);
const TARGETS = { ratio: 2.0, ofBound: 0.9 };
const encryptionKey = randomBytes(32).toString('base64');
const runTag = randomUUID().slice(0, 8);

const ROUNDS = Math.max(1, Number(values.rounds));

type Side = { name: string; title: string } & (
  { kind: 'semel' } | { kind: 'graphile'; concurrency: number; localQueueSize: number | null }
);
/** One run of a side: its own sandbox accounts, so each run's copies are counted alone. */
type Run = { side: Side; round: number; identities: SandboxIdentity[] };
const sides: Side[] = [
  ...(values['skip-semel'] ? [] : [{ kind: 'semel' as const, name: 'semel', title: semelTitle() }]),
  ...variants.map((v) => {
    const { concurrency, batched } = GRAPHILE_VARIANTS[v as VariantName];
    const title = `graphile-worker ${concurrency}${batched ? ` batched (localQueue ${LOCAL_QUEUE})` : ' plain'}`;
    return {
      kind: 'graphile' as const,
      name: `graphile ${v}`,
      title,
      concurrency,
      localQueueSize: batched ? LOCAL_QUEUE : null,
    };
  }),
];
if (sides.length === 0) throw new Error('nothing to compare');
const runs: Run[] = Array.from({ length: ROUNDS }, (_, round) =>
  sides.map((side) => ({ side, round, identities: sandboxIdentities(ACCOUNTS, ['mastodon']) })),
).flat();

process.env.SEMEL_DATA_DIR ??= '.data/bench-compare';
// The server only: each side's database is a fresh sibling of this one (never DATABASE_URL's own).
const server = await resolveDatabase();
const cpuProfDir = values['cpu-prof'];
const sandbox = await startSandboxProcess(
  runs.flatMap((r) => r.identities),
  { handlePrefix: 'cmp', cpuProfDir },
);
console.log(
  `bench:compare: ${N} deliveries per side, each side on a fresh database and ${ACCOUNTS} sandbox accounts of its own,`,
);
console.log(
  `   published to one standalone sandbox server (pid ${sandbox.process.pid}; Mastodon wire format, in memory, zero latency, no faults);`,
);
console.log(
  `   each publisher in a child process of its own, so its CPU is measured alone; sides run one after another${ROUNDS > 1 ? `, ${ROUNDS} rounds in turn (medians)` : ''}.`,
);

type Measured = {
  side: Side;
  rate: number;
  /** The rates of every run of this side, in order (one with a single round). */
  rates: number[];
  seconds: number;
  commits: number;
  statements: number;
  cpuMs: { publisher: number; sandbox: number; postgres: number } | null;
  exactlyOnce: boolean;
};
const measured: Measured[] = [];
for (const run of runs) measured.push(await measure(run));
const results = sides.map((side) => medianOf(measured.filter((m) => m.side === side)));

// ── The comparison ────────────────────────────────────────────────────────────────────────────────
const cores = cpuSnapshot(sandbox.process.pid!, null)?.cores ?? 0;
console.log(
  `\ncomparison (${N} deliveries per side, ${cores} cores; CPU in ms per delivery${ROUNDS > 1 ? `; each figure the median of ${ROUNDS} runs` : ''})`,
);
const header = [
  'side',
  'deliveries/s',
  'commits/d',
  'statements/d',
  'publisher',
  'sandbox',
  'postgres',
  'total',
  'CPU bound/s',
  'of bound',
  'exactly once',
];
const widths = [44, 13, 10, 13, 10, 8, 9, 7, 12, 9, 12];
const line = (cells: string[]) =>
  console.log(cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' '));
line(header);
const bound = (r: Measured) =>
  r.cpuMs ? (cores * 1000) / (r.cpuMs.publisher + r.cpuMs.sandbox + r.cpuMs.postgres) : NaN;
for (const r of results) {
  const cpu = r.cpuMs;
  line([
    r.side.title,
    fmt(r.rate),
    (r.commits / N).toFixed(3),
    (r.statements / N).toFixed(3),
    ...(cpu
      ? [cpu.publisher, cpu.sandbox, cpu.postgres, cpu.publisher + cpu.sandbox + cpu.postgres].map((ms) =>
          ms.toFixed(3),
        )
      : ['n/a', 'n/a', 'n/a', 'n/a']),
    fmt(bound(r)),
    `${((100 * r.rate) / bound(r)).toFixed(0)} %`,
    r.exactlyOnce ? 'OK' : 'FAILED',
  ]);
}
console.log(
  "   commits: pg_stat_database.xact_commit of the side's database while it published (every autocommit statement is one)",
);
console.log(
  "   statements: Semel counted by postgres.js's debug hook, graphile-worker by a wrapper on pg's Client.prototype.query\n" +
    "   (graphile-worker's own statements and the task's), each statement sent to Postgres once",
);
console.log('   CPU bound: cores × 1000 ÷ total CPU ms per delivery (publisher + sandbox + Postgres)');

const semel = results.find((r) => r.side.kind === 'semel');
const graphile = results.filter((r) => r.side.kind === 'graphile');
const best = graphile.reduce<Measured | undefined>((b, r) => (!b || r.rate > b.rate ? r : b), undefined);
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
if (semel && best) {
  const ratio = semel.rate / best.rate;
  console.log(
    `\nSemel ÷ best graphile-worker variant (${best.side.title}): ${ratio.toFixed(2)}×   (target ≥ ${TARGETS.ratio.toFixed(1)}×: ${met(ratio >= TARGETS.ratio)})`,
  );
  if (ROUNDS > 1)
    console.log(
      `   round by round: ${semel.rates.map((rate, i) => `${(rate / best.rates[i]!).toFixed(2)}×`).join(', ')} (each round's Semel ÷ that round's ${best.side.title})`,
    );
}
if (semel) {
  const share = semel.rate / bound(semel);
  console.log(
    `Semel at ${(100 * share).toFixed(0)} % of its CPU bound (${fmt(bound(semel))} deliveries/s)   (target ≥ ${100 * TARGETS.ofBound} %: ${met(share >= TARGETS.ofBound)})`,
  );
}
const ok = results.every((r) => r.exactlyOnce);
console.log(
  `exactly once: ${ok ? 'OK on every side' : 'FAILED'} (the exit code fails on a duplicate or a missing copy)`,
);
await server.stop();
process.exit(ok ? 0 : 1);

// ── One side ──────────────────────────────────────────────────────────────────────────────────────

async function measure({ side, round, identities }: Run): Promise<Measured> {
  console.log(`\n${side.title}${ROUNDS > 1 ? ` (round ${round + 1} of ${ROUNDS})` : ''}`);
  const url = await recreateSiblingDatabase(server.url, `cmp_${side.name.replace(/\W+/g, '_')}`);
  await runMigrations(url);
  const setup = createDatabase(url, { max: 1 });
  const q = rowsOf(setup.db);
  const workspace = await makeWorkspace(setup.db, `cmp-${runTag}-${side.name}`);
  const accountIds = await registerSandboxAccounts(setup.db, {
    workspaceId: workspace.id,
    identities,
    encryptionKey,
    handlePrefix: 'cmp',
  });
  const label = `cmp ${runTag} ${side.name} `;
  await scheduleDueInBulk(setup.db, {
    workspaceId: workspace.id,
    accountIds,
    count: N,
    label,
    firstDueAt: new Date(Date.now() - 1_000),
    stepMs: 0,
  });
  // graphile-worker's job lock is its claim: its deliveries wait in `publishing`, which its task moves to `sent`.
  if (side.kind === 'graphile') await q(sql`update deliveries set status = 'publishing' where status = 'scheduled'`);

  const postgresPid = await postmasterPid(q);
  let commitsBefore = 0;
  let cpuBefore: CpuSnapshot | null = null;
  let cpuAtDone: CpuSnapshot | null = null;
  // Postgres is read only while no backend of this database is exiting: one that exits between the reads of the
  // postmaster and of its children would be in neither (graphile-worker ends its pools as it stops).
  const around = {
    ready: async (pid: number) => {
      await q(sql`analyze`); // after graphile-worker queued its jobs, so both sides start with fresh statistics
      await checkpoint(q); // every side starts with no dirty pages to write and the same full-page writes ahead
      await othersGone(q);
      commitsBefore = await xactCommits(q);
      cpuBefore = cpuSnapshot(sandbox.process.pid!, postgresPid, pid);
    },
    done: async (pid: number) => void (cpuAtDone = cpuSnapshot(sandbox.process.pid!, postgresPid, pid)),
  };
  const common = { url, origin: sandbox.url, encryptionKey };
  const result =
    side.kind === 'semel'
      ? await runSide<SemelSideConfig>(
          'scripts/lib/compare-semel.mts',
          { ...common, publishers: Number(values.publishers) },
          around,
          { cpuProfDir },
        )
      : await runSide<GraphileSideConfig>(
          'scripts/lib/compare-graphile.mts',
          { ...common, concurrency: side.concurrency, localQueueSize: side.localQueueSize },
          around,
          { cpuProfDir },
        );
  await othersGone(q);
  const commits = (await xactCommits(q)) - commitsBefore; // the child's backends have exited and flushed
  const postgresAfter = cpuSnapshot(sandbox.process.pid!, postgresPid);
  const used =
    cpuBefore && cpuAtDone && postgresAfter
      ? cpuUsed(cpuBefore, { ...(cpuAtDone as CpuSnapshot), postgres: postgresAfter.postgres })
      : null;
  const cpuMs = used && {
    publisher: (1000 * used.publisher) / N,
    sandbox: (1000 * used.sandbox) / N,
    postgres: (1000 * used.postgres) / N,
  };
  const rate = result.sent / result.seconds;

  for (const [key, value] of Object.entries({ ...result.setup, ...result.notes }))
    console.log(`   ${key.padEnd(25)}${value}`);
  console.log(`   time                     ${result.seconds.toFixed(2)} s`);
  console.log(`   deliveries/s             ${fmt(rate)}`);
  console.log(`   commits per delivery     ${(commits / N).toFixed(3)}   (${commits} commits)`);
  console.log(`   statements per delivery  ${(result.statements / N).toFixed(3)}   (${result.statements} statements)`);
  if (cpuMs && used)
    console.log(
      `   CPU per delivery         publisher ${cpuMs.publisher.toFixed(3)} ms, sandbox ${cpuMs.sandbox.toFixed(3)} ms, postgres ${cpuMs.postgres.toFixed(3)} ms` +
        ` (machine busy ${used.machine.toFixed(1)} CPU s in ${result.seconds.toFixed(1)} s, of which other processes ${(used.machine - used.publisher - used.sandbox - used.postgres).toFixed(1)} s)`,
    );
  const exactlyOnce = await checkExactlyOnce(side, identities, q, result.failed);
  await setup.close();
  return {
    side,
    rate,
    rates: [rate],
    seconds: result.seconds,
    commits,
    statements: result.statements,
    cpuMs,
    exactlyOnce,
  };
}

/** The sandbox's own records of this side's accounts against its deliveries: one copy each, none extra, all sent. */
async function checkExactlyOnce(side: Side, identities: SandboxIdentity[], q: Rows, failedJobs: number) {
  const mine = new Set(identities.map((i) => i.platformUserId));
  const accounts = (await fetchTimeline(sandbox.url)).filter((a) => mine.has(a.platformUserId));
  const copies = accounts.reduce((sum, a) => sum + a.total, 0);
  const listed = new Map(accounts.flatMap((a) => a.posts.map((p) => [p.id, { accountId: a.accountId, text: p.text }])));
  const { duplicates } = tallyCopies(listed.values());
  const deliveries = await q<{ status: string; external_id: string | null }>(
    sql`select status, external_id from deliveries`,
  );
  const sent = deliveries.filter((d) => d.status === 'sent');
  const linked = new Set(sent.map((d) => d.external_id).filter((id) => id !== null && listed.has(id)));
  const [{ multi }] = await q<{ multi: number }>(sql`select count(*)::int as multi
    from (select delivery_id from attempts group by delivery_id having count(*) > 1) m`);
  // graphile-worker deletes a job once it is completed: any job left was never finished.
  const jobsLeft =
    side.kind === 'graphile'
      ? (await q<{ n: number }>(sql`select count(*)::int as n from graphile_worker._private_jobs`))[0]!.n
      : 0;
  console.log(
    `   exactly once             ${copies} copies on the sandbox (${listed.size === copies ? 'every one listed' : `only ${listed.size} listed`}), ${duplicates} duplicates,` +
      ` ${sent.length} / ${N} sent, ${linked.size} sent with their own copy, ${multi} with > 1 attempt` +
      (side.kind === 'graphile' ? `, ${failedJobs} jobs failed, ${jobsLeft} jobs left` : ''),
  );
  return (
    copies === N &&
    listed.size === copies &&
    duplicates === 0 &&
    sent.length === N &&
    linked.size === N &&
    multi === 0 &&
    failedJobs === 0 &&
    jobsLeft === 0
  );
}

/** A side's runs as one: the median of each figure (a run that broke exactly-once breaks the side). */
function medianOf(runs: Measured[]): Measured {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const cpu = runs.map((r) => r.cpuMs).filter((c) => c !== null);
  return {
    side: runs[0]!.side,
    rate: median(runs.map((r) => r.rate)),
    rates: runs.map((r) => r.rate),
    seconds: median(runs.map((r) => r.seconds)),
    commits: median(runs.map((r) => r.commits)),
    statements: median(runs.map((r) => r.statements)),
    cpuMs:
      cpu.length === runs.length
        ? {
            publisher: median(cpu.map((c) => c.publisher)),
            sandbox: median(cpu.map((c) => c.sandbox)),
            postgres: median(cpu.map((c) => c.postgres)),
          }
        : null,
    exactlyOnce: runs.every((r) => r.exactlyOnce),
  };
}

/** CHECKPOINT needs a superuser or pg_checkpoint; without either the side starts wherever the last one left off. */
async function checkpoint(q: Rows) {
  try {
    await q(sql`checkpoint`);
  } catch (error) {
    console.log(`   (no checkpoint before the run: ${(error as Error).message})`);
  }
}

/** Waits until this connection is the only one on its database (every other backend has exited). */
async function othersGone(q: Rows) {
  for (let tries = 0; tries < 100; tries++) {
    const [row] = await q<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    if (row!.n === 0) return sleep(200); // gone from pg_stat_activity just before the process exits
    await sleep(100);
  }
  throw new Error('backends of the side database did not exit');
}

function semelTitle() {
  const { concurrency, chunkSize, batchSize } = DEFAULT_PUBLISHER_TUNING;
  return `Semel ${values.publishers}×${concurrency} (chunks ${chunkSize}, batch ${batchSize})`;
}
