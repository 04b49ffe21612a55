// npm run bench:calendar [-- --posts 10000 --runs 50]
// The calendar page's server time (docs/publishing.md#scheduling; the target: under 200 ms with 10,000 posts in the
// workspace). On a fresh database, one workspace gets N posts (1–3 deliveries each, in every status) and a second
// workspace as many again (the range read must not pay for another tenant's rows). Measured: the month view's data path
// exactly as the page and GET /api/app/calendar run it — readCalendar (range query, deliveries, chip shape) and its
// JSON — for (a) the N posts spread over a year around today and (b) all N in the shown month (capped at the calendar's
// limit). Prints p50/p95/max; the target is a figure to read, not an assertion.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDatabase, type Database } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { fetchRange } from '@/lib/calendar/grid';
import { CALENDAR_POST_CAP, readCalendar } from '@/lib/reads/calendar';
import { resolveDatabase } from './lib/database';

const { values } = parseArgs({
  options: { posts: { type: 'string', default: '10000' }, runs: { type: 'string', default: '50' } },
});
const N = Number(values.posts);
const RUNS = Number(values.runs);
const TARGET_MS = 200;

process.env.SEMEL_DATA_DIR ??= '.data/bench-calendar';
const database = await resolveDatabase({ fresh: true });
await runMigrations(database.url);
const { db, close } = createDatabase(database.url, { max: 4 });

const today = new Date().toISOString().slice(0, 10);
const month = fetchRange('month', today);
const STATUSES = ['scheduled', 'sent', 'failed', 'ambiguous', 'needs_review', 'canceled', 'missed'];

/** N posts in one workspace, scheduled evenly over [from, from + spanDays), with 1–3 deliveries each. */
async function seed(database: Database, spanDays: number, from: Date) {
  const workspace = await makeWorkspace(database, `bench-calendar-${randomUUID().slice(0, 8)}`);
  const accounts = [];
  for (let i = 0; i < 3; i++) accounts.push((await makeAccount(database, workspace.id)).id);
  await database.execute(sql`
    insert into posts (workspace_id, text, scheduled_at, source, idempotency_key)
    select ${workspace.id}, 'Calendar bench post ' || g || ': a line of text as a real post would have it, with a link https://example.test/' || g,
      ${from.toISOString()}::timestamptz + (g * ${(spanDays * 86_400) / N}::float8 * interval '1 second'),
      'api', ${randomUUID()} || '-' || g
    from generate_series(1, ${N}) g`);
  // Post k goes to accounts 0..(k mod 3); statuses rotate so every badge is drawn.
  await database.execute(sql`
    insert into deliveries (workspace_id, post_id, account_id, due_at, status)
    select p.workspace_id, p.id, a.account_id, p.scheduled_at,
      (${sql.raw(`array[${STATUSES.map((s) => `'${s}'`).join(',')}]`)})[1 + (abs(hashtext(p.id::text)) % ${STATUSES.length})]::delivery_status
    from (select *, row_number() over (order by scheduled_at) as k from posts where workspace_id = ${workspace.id}) p
    join lateral unnest(${sql.raw(`array[${accounts.map((a) => `'${a}'::uuid`).join(',')}]`)}) with ordinality as a(account_id, n)
      on a.n <= 1 + (p.k % 3)`);
  return workspace.id;
}

async function measure(workspaceId: string) {
  const query = { from: month.from, to: month.to };
  const once = async () => {
    const started = performance.now();
    const result = await readCalendar(db, { workspaceId, query });
    if (!result.ok) throw new Error('bad range');
    const bytes = JSON.stringify(result.data).length;
    return {
      ms: performance.now() - started,
      posts: result.data.posts.length,
      truncated: result.data.truncated,
      bytes,
    };
  };
  for (let i = 0; i < 5; i++) await once(); // warm-up: connections, plans, JIT
  const samples = [];
  for (let i = 0; i < RUNS; i++) samples.push(await once());
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!;
  return { p50: at(0.5), p95: at(0.95), max: ms.at(-1)!, ...samples[0]! };
}

async function plan(workspaceId: string) {
  const rows = await db.execute<{ 'QUERY PLAN': string }>(sql`explain (analyze, costs off)
    select * from posts where workspace_id = ${workspaceId}
      and scheduled_at >= ${month.from}::timestamptz and scheduled_at < ${month.to}::timestamptz
    order by scheduled_at, id limit ${CALENDAR_POST_CAP + 1}`);
  return [...rows].map((r) => r['QUERY PLAN']);
}

const yearStart = new Date(Date.now() - 182 * 86_400_000);
const spread = await seed(db, 365, yearStart);
await seed(db, 365, yearStart); // another tenant with as many posts in the same dates
const dense = await seed(
  db,
  Math.max(1, (Date.parse(month.to) - Date.parse(month.from)) / 86_400_000 - 1),
  new Date(month.from),
);
await db.execute(sql`analyze posts`);
await db.execute(sql`analyze deliveries`);

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
console.log(`bench:calendar — month view (${month.from} … ${month.to}), ${N} posts per workspace, ${RUNS} runs each`);
for (const [label, workspaceId] of [
  ['spread over a year', spread],
  ['all in this month ', dense],
] as const) {
  const r = await measure(workspaceId);
  console.log(
    `${label}: ${r.posts} posts${r.truncated ? ` (capped at ${CALENDAR_POST_CAP})` : ''}, ${(r.bytes / 1024).toFixed(0)} KiB JSON; readCalendar + JSON p50 ${fmt(r.p50)}, p95 ${fmt(r.p95)}, max ${fmt(r.max)} (target < ${TARGET_MS} ms: ${r.p95 < TARGET_MS ? 'met' : 'NOT met'})`,
  );
}
console.log('range scan plan (spread):');
for (const line of await plan(spread)) console.log(`  ${line}`);

await close();
await database.stop();
