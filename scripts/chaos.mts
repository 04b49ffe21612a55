// npm run chaos [-- --deliveries 2000 --accounts 20 --within 60]
// A fresh database, a faulty sandbox network, two publisher processes SIGKILLed at random intervals.
// Exits non-zero on any duplicate on the sandbox, any lost delivery or any delivery left unsettled.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDatabase } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { upsertAccount } from '@/db/queries/accounts';
import { insertPostWithDeliveries } from '@/db/queries/posts';
import { makeWorkspace } from '@/db/testing/factories';
import { sealCredentials } from '@/lib/providers/credentials';
import { startSandboxServer } from '@/lib/sandbox/node-server';
import { createPgSandboxStore } from '@/lib/sandbox/pg-store';
import { newSandboxIdentity } from '@/lib/sandbox/tokens';
import { resolveDatabase } from './lib/database';

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '2000' },
    accounts: { type: 'string', default: '20' },
    within: { type: 'string', default: '60' },
    'max-seconds': { type: 'string', default: '420' },
  },
});
const N = Number(values.deliveries);
const ACCOUNTS = Number(values.accounts);
const WITHIN_MS = Number(values.within) * 1000;
const FAULTS = { latencyMs: 0, timeoutAfterCommit: 0.2, timeoutBeforeCommit: 0.1, errorAfterCommit: 0.05, resetAfterCommit: 0.05, rateLimited: 0.05 };
const encryptionKey = randomBytes(32).toString('base64');

process.env.POSTONCE_DATA_DIR ??= '.data/chaos';
const database = await resolveDatabase({ fresh: true });
await runMigrations(database.url);
const { db, close } = createDatabase(database.url, { max: 10 });
const store = createPgSandboxStore(db);
// The platform in this (parent) process; the publishers in their own processes, killed at random.
const sandbox = await startSandboxServer({ deps: { store, resolveScope: async () => [], hangMs: 3_000 } });

const workspace = await makeWorkspace(db, 'chaos');
const accountIds: string[] = [];
const sandboxIds: string[] = [];
for (let i = 0; i < ACCOUNTS; i++) {
  const platform = i % 2 === 0 ? 'x' : 'mastodon';
  const { platformUserId, token, suffix } = newSandboxIdentity();
  const handle = `@chaos_${suffix}`;
  const registered = await store.registerAccount({ platform, platformUserId, handle, token });
  sandboxIds.push(registered.id);
  const product = await upsertAccount(db, {
    workspaceId: workspace.id, provider: platform, sandbox: true, handle, platformUserId, baseUrl: `/api/sandbox/${platform}`,
    ...sealCredentials({ accessToken: token }, encryptionKey),
  });
  accountIds.push(product!.id);
}
await store.setFaults(sandboxIds, FAULTS);

const runTag = randomUUID().slice(0, 6);
const start = Date.now();
for (let i = 0; i < N; i++) {
  await insertPostWithDeliveries(db, {
    post: { workspaceId: workspace.id, text: `chaos ${runTag} #${i}`, scheduledAt: new Date(start + Math.random() * WITHIN_MS), source: 'api', idempotencyKey: randomUUID() },
    accountIds: [accountIds[i % ACCOUNTS]!],
    actor: 'chaos',
  });
}
console.log(`chaos: ${N} deliveries on ${ACCOUNTS} sandbox accounts, due within ${WITHIN_MS / 1000} s; faults ${JSON.stringify(FAULTS)}`);

// Sandbox accounts store a relative base URL; the workers resolve it against this (trusted) origin.
const env = { ...process.env, DATABASE_URL: database.url, APP_ENCRYPTION_KEY: encryptionKey, CHAOS_SANDBOX_ORIGIN: sandbox.url };
const spawnWorker = () => spawn(process.execPath, ['--import', 'tsx', 'scripts/chaos-worker.mts'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
const workers: ChildProcess[] = [spawnWorker(), spawnWorker()];
let kills = 0;
let killing = true;
const killer = (async () => {
  while (killing) {
    await new Promise((r) => setTimeout(r, 1_000 + Math.random() * 4_000));
    if (!killing) break;
    const i = Math.floor(Math.random() * workers.length);
    workers[i]!.kill('SIGKILL'); // no cleanup, no goodbye: leases and started attempts are left behind
    kills++;
    workers[i] = spawnWorker();
  }
})();

const count = async (where: ReturnType<typeof sql>) => Number([...(await db.execute<{ n: number }>(sql`select count(*)::int as n from deliveries where ${where}`))][0]!.n);
const deadline = start + Number(values['max-seconds']) * 1000;
for (;;) {
  await new Promise((r) => setTimeout(r, 1_000));
  const open = await count(sql`status in ('scheduled', 'publishing', 'ambiguous')`);
  process.stdout.write(`\r  ${Math.round((Date.now() - start) / 1000)} s: ${open} not settled yet, ${kills} publisher kills   `);
  if ((open === 0 && Date.now() > start + WITHIN_MS) || Date.now() > deadline) break;
}
killing = false;
await killer;
for (const w of workers) w.kill('SIGTERM');
console.log('');

const byStatus = new Map([...(await db.execute<{ status: string; n: number }>(sql`select status, count(*)::int as n from deliveries group by status`))].map((r) => [r.status, r.n]));
const duplicates = Number([...(await db.execute<{ n: number }>(sql`select coalesce(sum(n - 1), 0)::int as n from (select count(*) as n from sandbox.posts group by account_id, text having count(*) > 1) d`))][0]!.n);
const refusedAsDuplicate = Number([...(await db.execute<{ n: number }>(sql`select count(*)::int as n from delivery_events where detail->>'rule' = 'x-duplicate-content'`))][0]!.n);
const sentWithoutCopy = await count(sql`status = 'sent' and not exists (select 1 from sandbox.posts p where p.id::text = deliveries.external_id)`);
const stuck = (byStatus.get('scheduled') ?? 0) + (byStatus.get('publishing') ?? 0);
const unsettled = byStatus.get('ambiguous') ?? 0;
const path = async (where: ReturnType<typeof sql>) => count(where);
const paths = {
  direct: await path(sql`status = 'sent' and not exists (select 1 from reconciliations r where r.delivery_id = deliveries.id)`),
  foundByReconciliation: await path(sql`status = 'sent' and exists (select 1 from reconciliations r where r.delivery_id = deliveries.id and r.decision = 'found')`),
  releasedAndRepublished: await path(sql`status = 'sent' and exists (select 1 from reconciliations r where r.delivery_id = deliveries.id and r.decision = 'released')
    and not exists (select 1 from reconciliations r where r.delivery_id = deliveries.id and r.decision = 'found')`),
  needsReview: byStatus.get('needs_review') ?? 0,
};
const lost = sentWithoutCopy + stuck;
const copies = Number([...(await db.execute<{ n: number }>(sql`select count(*)::int as n from sandbox.posts`))][0]!.n);

console.log(`deliveries                 ${N}`);
for (const s of ['sent', 'failed', 'ambiguous', 'needs_review', 'missed', 'canceled', 'scheduled', 'publishing']) console.log(`  ${s.padEnd(25)}${byStatus.get(s) ?? 0}`);
console.log(`paths: sent directly ${paths.direct}, found by reconciliation ${paths.foundByReconciliation}, released and republished ${paths.releasedAndRepublished}, needs_review ${paths.needsReview}`);
console.log(`not yet settled (ambiguous) ${unsettled}`);
console.log(`copies on the sandbox      ${copies}`);
console.log(`publisher SIGKILLs         ${kills}`);
console.log(`duplicates on the sandbox  ${duplicates}`);
console.log(`re-sends refused as duplicate content ${refusedAsDuplicate}`);
console.log(`lost                       ${lost} (sent without a copy: ${sentWithoutCopy}, stuck scheduled/publishing: ${stuck})`);

await sandbox.close();
await close();
await database.stop();
process.exit(duplicates > 0 || refusedAsDuplicate > 0 || lost > 0 || unsettled > 0 ? 1 : 0);
