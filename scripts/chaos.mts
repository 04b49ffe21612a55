// npm run chaos [-- --deliveries 2000 --accounts 20 --within 60 --max-seconds 900 --api-share 0.25 --seed 42 --late-share 0.05]
// Exactly once under crashes, instances and weak platforms (six networks: all but TikTok;
// docs/operations.md#chaos-run-and-benchmarks). On its own fresh embedded Postgres (restarted once mid-run) and the
// standalone sandbox network in this process (in memory, so copies are counted on the platform's own records): two web
// instances (`next start`, each with its in-process scheduler) and two `npm run worker` processes, SIGKILLed by process
// group and restarted at random. Accounts on X, Mastodon, Bluesky, LinkedIn (organization pages), Threads and Instagram
// (each post with one image) use the weak profiles (scripts/lib/chaos-networks.ts), with slow processing beyond the
// call timeout, read lag, timeouts before/after commit, resets, 5xx and 429 (lifted when the kills end, as each asks
// for 60 s). Posts are created through the API of a live web instance (a share) and directly in the database. Exits 1
// on any duplicate, lost or unsettled delivery, any `sent` without exactly one copy; prints the figures per profile and
// per network. `--late-share f` (docs/architecture.md#late-copies): that share of writes on the weak timeline profiles
// is created beyond the processing allowance, so a proof of absence is wrong and a republish makes a second copy; the
// run then accepts two copies only in needs_review with both listed (the late-copy watch), never sent.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDatabase, type Database } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { createApiKey } from '@/db/queries/api-keys';
import { deliveryTextSql } from '@/db/queries/post-variants';
import { insertPostMedia } from '@/db/queries/media';
import { insertPostWithDeliveries } from '@/db/queries/posts';
import { notifyDue } from '@/db/queries/publishing';
import { makeWorkspace } from '@/testing/db/factories';
import { storedImage, storedVideo } from '@/testing/stored-media';
import { makeTestVideo } from '@/testing/video';
import { createDiskMediaStorage } from '@/lib/media/storage';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { generateApiKey } from '@/lib/auth/api-key-token';
import { createMemorySandboxStore } from '@/sandbox/store/memory-store';
import { startSandboxServer } from '@/sandbox/http/node-server';
import { NO_FAULTS } from '@/sandbox/store/types';
import { startEmbeddedPostgres } from './lib/chaos-postgres';
import { createSupervisor, sleep, type Managed } from './lib/chaos-processes';
import {
  CHAOS_PROFILES as PROFILES,
  MEDIA_OF,
  OPTIONS_OF,
  POSTS_PER_DAY,
  assignPosts,
  connectChaosAccount,
  copiesOnPlatform,
  type ChaosAccount,
} from './lib/chaos-networks';
import { judge, tallyByNetwork, type DeliveryRow, type Tally } from './lib/chaos-verdict';
import { seededRandom } from '@/lib/random/seeded';

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '2000' },
    accounts: { type: 'string', default: '24' },
    within: { type: 'string', default: '60' },
    'max-seconds': { type: 'string', default: '900' },
    'api-share': { type: 'string', default: '0.25' },
    'late-share': { type: 'string', default: '0' },
    seed: { type: 'string' },
  },
});
const N = positive('deliveries');
if (N > 100_000) throw new Error('--deliveries: at most 100000');
const ACCOUNTS = positive('accounts');
if (ACCOUNTS < PROFILES.length)
  throw new Error(`--accounts: at least ${PROFILES.length}, one per profile (every network and profile is in the run)`);
// The deliveries go round the accounts (assignPosts: TikTok and YouTube take only their run caps), and a Threads
// profile publishes at most 250 posts a day, an Instagram or Facebook one 100: beyond that the next would wait a day
// (its quota, honoured), which no run's time bound allows.
const ASSIGNED = assignPosts(
  Array.from({ length: ACCOUNTS }, (_, k) => PROFILES[k % PROFILES.length]!),
  N,
);
for (let k = 0; k < ACCOUNTS; k++) {
  const { platform } = PROFILES[k % PROFILES.length]!;
  const count = ASSIGNED.filter((a) => a === k).length;
  const perDay = POSTS_PER_DAY[platform];
  if (perDay !== undefined && count > perDay)
    throw new Error(
      `--deliveries ${N} over ${ACCOUNTS} accounts gives a ${platform} account ${count} posts, more than its ${perDay} a day: add accounts`,
    );
}
const WITHIN_MS = positive('within') * 1000;
const MAX_MS = positive('max-seconds') * 1000;
const API_SHARE = Math.min(1, Math.max(0, Number(values['api-share'])));
const LATE_SHARE = Number(values['late-share']);
if (!(LATE_SHARE >= 0 && LATE_SHARE <= 1)) throw new Error('--late-share: a fraction from 0 to 1');
const SEED = values.seed !== undefined ? Number(values.seed) >>> 0 : randomBytes(4).readUInt32LE();
const random = seededRandom(SEED);
const began = Date.now();

// Short timings so a run takes minutes: call timeout < processing < timeout + allowance (proof of absence
// waits out slow processing), read lag > what the first read can see of a slow post, recheck covers it.
// Each of the four may be set in the environment instead (e.g. RECONCILE_ALLOWANCE_MS=0 shows the run catching duplicates).
const TUNING: Record<string, string> = Object.fromEntries(
  Object.entries({
    PUBLISH_CALL_TIMEOUT_MS: 1_500,
    PUBLISH_LEASE_MS: 10_000,
    RECONCILE_ALLOWANCE_MS: 3_000,
    RECONCILE_RECHECK_MS: 2_500,
    // The late-copy watch, in seconds rather than minutes; its last step comes after any late create has landed.
    RECONCILE_WATCH_DELAYS_MS: '5000,15000,30000',
  }).map(([name, ms]) => [name, process.env[name] || String(ms)]),
);
const FAULTS = {
  ...NO_FAULTS,
  timeoutBeforeCommit: 0.05,
  timeoutAfterCommit: 0.1,
  errorAfterCommit: 0.05,
  resetAfterCommit: 0.05,
  rateLimited: 0.05,
  processingMs: 2_500,
  processingShare: 0.1,
  readLagMs: 2_500,
  listingUnavailable: 0.02,
};
// --late-share: on the weak timeline profiles (the key ignored or checked first, no dedupe), that share of creates
// lands this long after the call: beyond call timeout + allowance, so both reads find nothing and a republish follows.
const LATE_MS = Number(TUNING.PUBLISH_CALL_TIMEOUT_MS) + Number(TUNING.RECONCILE_ALLOWANCE_MS) + 4_000;
const LATE_PROFILES = new Set([
  'plain/x',
  'x-nodedupe/x',
  'plain/mastodon',
  'mastodon-legacy/mastodon',
  'mastodon-nokey/mastodon',
]);
const faultsFor = (profile: string, platform: string) =>
  LATE_SHARE > 0 && LATE_PROFILES.has(`${profile}/${platform}`)
    ? { ...FAULTS, processingMs: LATE_MS, processingShare: LATE_SHARE }
    : FAULTS;

const dataDir = path.resolve(process.env.CHAOS_DATA_DIR ?? '.data/chaos');
const logDir = path.join(dataDir, 'logs');
rmSync(logDir, { recursive: true, force: true });
mkdirSync(logDir, { recursive: true });
const distDir = process.env.NEXT_DIST_DIR || '.next';
if (!existsSync(path.join(distDir, 'BUILD_ID'))) {
  console.log(`chaos: no production build in ${distDir}: running next build first`);
  const { spawnSync } = await import('node:child_process');
  if (spawnSync('npx', ['next', 'build'], { stdio: 'inherit' }).status !== 0) throw new Error('next build failed');
}

// ── Postgres: our own, fresh, restartable (DATABASE_URL is ignored on purpose) ─────────────────────────
const pgDir = path.join(dataDir, 'postgres');
let database = await startEmbeddedPostgres(pgDir, { fresh: true });
const pgPort = Number(new URL(database.url).port);
const supervisor = createSupervisor();
process.on('exit', () => {
  supervisor.stopAll();
  stopPostgresNow(pgDir);
});
process.on('SIGINT', () => {
  console.error('\nchaos: interrupted; stopping every child');
  process.exit(130);
});
process.on('SIGTERM', () => process.exit(143));
await runMigrations(database.url);
// This process's own connections are closed before the Postgres restart and opened after it: it holds the
// platform's records, and postgres.js 3.4.9 can crash a process whose socket closes under a buffered write
// (porsager/postgres#1208). The web instances and workers get no such care: their crashes are counted.
let pool = createDatabase(database.url, { max: 4 });
let gate = Promise.resolve();
let busy = 0;
async function withDb<T>(run: (db: Database) => Promise<T>): Promise<T> {
  await gate;
  busy++;
  try {
    return await run(pool.db);
  } finally {
    busy--;
  }
}
const db = pool.db; // setup only, before any restart

// ── The platform: the standalone sandbox server, in memory, in this process ───────────────────────────
const store = createMemorySandboxStore();
// Instagram fetches each post's image from the app's signed URL. The app's public address is a load balancer over
// both web instances: a fetch reaches any live one, and fails (the container then reads ERROR) while none is up.
let liveWebOrigins = (): string[] => [];
async function fetchFromApp(url: string): Promise<Uint8Array | null> {
  const { pathname, search } = new URL(url);
  for (const origin of liveWebOrigins()) {
    try {
      const response = await fetch(`${origin}${pathname}${search}`, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) return new Uint8Array(await response.arrayBuffer());
      if (response.status < 500) return null;
    } catch {
      /* killed mid-request: the next instance */
    }
  }
  return null;
}
const sandbox = await startSandboxServer({
  deps: { store, resolveScope: async () => [], hangMs: 5_000, random, fetchImage: fetchFromApp },
});
const encryptionKey = randomBytes(32).toString('base64');
const runTag = randomUUID().slice(0, 6);
const workspace = await makeWorkspace(db, `chaos-${runTag}`);
const accounts: ChaosAccount[] = [];
for (let i = 0; i < ACCOUNTS; i++) {
  const { profile, platform } = PROFILES[i % PROFILES.length]!;
  accounts.push(
    await connectChaosAccount(db, {
      store,
      sandboxUrl: sandbox.url,
      workspaceId: workspace.id,
      encryptionKey,
      platform,
      profile,
      faults: faultsFor(profile, platform),
    }),
  );
}
const apiKey = generateApiKey();
await createApiKey(db, { workspaceId: workspace.id, name: 'chaos', prefix: apiKey.prefix, hash: apiKey.hash });
// One JPEG in the media storage the web instances and workers share, on every post to a network that needs a file.
const mediaDir = path.join(dataDir, 'media');
rmSync(mediaDir, { recursive: true, force: true });
const storage = createDiskMediaStorage(mediaDir);
const image = await storedImage(db, storage, workspace.id, { format: 'jpeg' });
const video = await storedVideo(
  db,
  storage,
  workspace.id,
  await makeTestVideo(path.join(dataDir, 'chaos.mp4'), { seconds: 4, width: 360, height: 640 }),
);
const accountOf = (i: number) => accounts[ASSIGNED[i]!]!;
const mediaOf = (i: number) => {
  const kind = MEDIA_OF[accountOf(i).platform];
  return kind ? { image, video }[kind] : null;
};
const optionsOf = (i: number) => OPTIONS_OF[accountOf(i).platform];

// ── The processes: two web instances, two workers ─────────────────────────────────────────────────────
const secrets = {
  NEXTAUTH_SECRET: randomBytes(32).toString('base64'),
  APP_ENCRYPTION_KEY: encryptionKey,
  CRON_SECRET: randomBytes(24).toString('base64'),
};
// The run's media are on disk (MEDIA_DIR below): a bucket configured in this shell would send the children elsewhere.
const inheritedEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MEDIA_S3_')));
const childEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  ...inheritedEnv,
  NODE_ENV: 'production',
  DATABASE_URL: database.url,
  SEMEL_DATA_DIR: dataDir,
  SANDBOX_ENABLED: 'false',
  MEDIA_DIR: mediaDir,
  SCHEDULER_ENABLED: 'true',
  NEXT_TELEMETRY_DISABLED: '1',
  LOG_LEVEL: 'info',
  ...secrets,
  ...TUNING,
  ...extra,
  // The sandbox is a "real" platform on this machine's loopback, which the outbound guard refuses unless allowed.
  OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
});
const webPorts = [await freePort(), await freePort()];
const webs = webPorts.map((port, i) =>
  supervisor.add({
    name: `web-${i + 1}`,
    role: 'web',
    command: process.execPath,
    args: ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'],
    env: childEnv({ PORT: String(port), NEXTAUTH_URL: `http://127.0.0.1:${port}` }),
    logFile: path.join(logDir, `web-${i + 1}.log`),
    readyUrl: `http://127.0.0.1:${port}/api/health`,
  }),
);
const workers = [1, 2].map((i) =>
  supervisor.add({
    name: `worker-${i}`,
    role: 'worker',
    command: process.execPath,
    args: ['--import', 'tsx', 'scripts/worker.mts'],
    env: childEnv({}),
    logFile: path.join(logDir, `worker-${i}.log`),
  }),
);
liveWebOrigins = () => {
  const live = webPorts.filter((_, i) => webs[i]!.up).map((port) => `http://127.0.0.1:${port}`);
  return random() < 0.5 ? live : live.reverse();
};
await Promise.race([Promise.all(webs.map((w) => w.ready)), sleep(120_000)]);
if (!webs.every((w) => w.up)) throw new Error(`web instances did not start within 120 s: see ${logDir}`);

const apiCount = Math.round(N * API_SHARE);
const dbCount = N - apiCount;
const t0 = Date.now();
console.log(
  `chaos (seed ${SEED}): ${N} deliveries (${dbCount} written to the database, ${apiCount} through POST /api/v1/posts) due within ${WITHIN_MS / 1000} s`,
);
console.log(
  `  ${ACCOUNTS} accounts on the sandbox ${sandbox.url}: ${PROFILES.map((p) => `${p.profile}/${p.platform}`).join(', ')}`,
);
console.log(
  '  linkedin: organization pages only (listed to settle an ambiguity; a member account would go to review by design)',
);
console.log(`  faults ${JSON.stringify(FAULTS)}`);
if (LATE_SHARE > 0)
  console.log(
    `  late creates on ${[...LATE_PROFILES].join(', ')}: processingMs ${LATE_MS}, processingShare ${LATE_SHARE}`,
  );
console.log(`  tuning ${JSON.stringify(TUNING)}`);
console.log(
  `  processes: web on ports ${webPorts.join(' and ')}, 2 workers; Postgres on port ${pgPort}; logs in ${logDir}`,
);

// ── Deliveries: most written directly, a share through the public API of a live web instance ─────────
const deliveryText = (i: number) => `chaos ${runTag} #${i}`;
// Every THREAD_EVERY-th intent written directly is a thread (each part replying to the one before): of 3 parts, or as
// many as the network takes (Instagram: the post and its first comment); none where it takes no replies. 19 is
// prime to the account count, so the threads go round the accounts.
const THREAD_EVERY = 19;
const threadParts = (i: number) => {
  const { kinds, replies } = PROVIDER_META[accountOf(i).platform];
  if (i % THREAD_EVERY !== 0 || !kinds.includes('reply')) return undefined;
  const n = Math.min(3, replies?.maxThreadParts ?? 3);
  return Array.from({ length: n }, (_, k) => `${deliveryText(i)} part ${k + 1}/${n}`);
};
const threads = Array.from({ length: dbCount }, (_, i) => threadParts(i)).filter((parts) => parts !== undefined);
const threadCount = threads.length;
const expectedDeliveries = N + threads.reduce((n, parts) => n + parts.length - 1, 0);
const insertDirect = (async () => {
  const order = Array.from({ length: dbCount }, (_, i) => i);
  for (let chunk = 0; chunk < order.length; chunk += 100) {
    await retryDb(() =>
      withDb((db) =>
        db.transaction(async (tx) => {
          for (const i of order.slice(chunk, chunk + 100)) {
            const parts = threadParts(i);
            const created = await insertPostWithDeliveries(tx, {
              parts,
              post: {
                workspaceId: workspace.id,
                kind: parts ? 'thread' : 'post',
                text: parts?.[0] ?? deliveryText(i),
                scheduledAt: new Date(t0 + 2_000 + random() * WITHIN_MS),
                source: 'api',
                idempotencyKey: `chaos-db-${i}`,
              },
              accountIds: [accountOf(i).id],
              options: optionsOf(i) && new Map([[accountOf(i).id.toLowerCase(), optionsOf(i)!]]),
              actor: 'chaos',
            });
            // A thread's file is on its first part (its later parts on Instagram are comments).
            const media = mediaOf(i);
            if (created && media) await insertPostMedia(tx, { postId: created.post.id, part: 0, mediaIds: [media.id] });
          }
          await notifyDue(tx);
        }),
      ),
    );
  }
})();
const api = { created: 0, replayed: 0, retries: 0, gaveUp: 0, refused: [] as string[] };
const createThroughApi = (async () => {
  let next = 0;
  const one = async (j: number) => {
    await sleep(Math.max(0, t0 + (j / Math.max(1, apiCount)) * WITHIN_MS * 0.8 - Date.now()));
    const i = dbCount + j;
    const scheduledAt = random() < 0.25 ? undefined : new Date(Date.now() + random() * 5_000).toISOString();
    const body = JSON.stringify({
      text: deliveryText(i),
      accountIds: [accountOf(i).id],
      scheduledAt,
      ...(mediaOf(i) ? { mediaIds: [mediaOf(i)!.id] } : {}),
      ...(optionsOf(i) ? { options: { [accountOf(i).id]: optionsOf(i) } } : {}),
    });
    const key = `chaos-api-${i}`;
    // One intent, one key, retried on any instance until an answer: the inbound guard is under test too.
    for (let attempt = 0; Date.now() - t0 < MAX_MS; attempt++) {
      const live = webs.filter((w) => w.up);
      const target = live.length > 0 ? live[Math.floor(random() * live.length)]! : webs[attempt % webs.length]!;
      try {
        const response = await fetch(`http://127.0.0.1:${webPorts[webs.indexOf(target)]}/api/v1/posts`, {
          method: 'POST',
          body,
          signal: AbortSignal.timeout(10_000),
          headers: {
            authorization: `Bearer ${apiKey.token}`,
            'idempotency-key': key,
            'content-type': 'application/json',
          },
        });
        await response.body?.cancel();
        if (response.status === 201 || response.status === 200) {
          if (response.headers.get('idempotent-replayed') === 'true') api.replayed++;
          api.created++;
          return;
        }
        // A refusal other than "still running" (409) is a bug here: every request is valid and its key unique.
        if (response.status !== 409 && response.status < 500) {
          api.refused.push(`${key}: ${response.status}`);
          return;
        }
      } catch {
        /* the instance was killed mid-request, or is restarting: same key, again */
      }
      api.retries++;
      await sleep(300 + random() * 700);
    }
    api.gaveUp++;
  };
  const lane = async () => {
    while (next < apiCount) await one(next++);
  };
  await Promise.all(Array.from({ length: 4 }, lane));
})();

// ── Kills at random, and one Postgres restart ─────────────────────────────────────────────────────────
const killPhaseEnd = t0 + WITHIN_MS + 20_000;
let killing = true;
const killer = (async () => {
  const targets: Managed[] = [...webs, ...workers];
  while (killing && Date.now() < killPhaseEnd) {
    await sleep(1_500 + random() * 3_500);
    if (killing) supervisor.kill(targets[Math.floor(random() * targets.length)]!);
  }
  // The sandbox's 429 asks for 60 s (LinkedIn's and Threads' name no reset: we wait a minute for them too); lifting
  // rate limits with the kills bounds the run (every other fault stays).
  for (const account of accounts)
    await store.setFaults([account.sandbox.id], {
      ...faultsFor(account.profileName, account.platform),
      rateLimited: 0,
      profile: account.profileName,
    });
})();
const pgRestart = { at: 0, downMs: 0 };
const restarter = (async () => {
  await sleep(WITHIN_MS * (0.35 + random() * 0.3));
  let reopen = () => {};
  gate = new Promise<void>((resolve) => (reopen = resolve));
  while (busy > 0) await sleep(20);
  await pool.close();
  const stoppedAt = Date.now();
  pgRestart.at = Math.round((stoppedAt - t0) / 1000);
  await database.stop(); // every connection of every other process drops here
  database = await startEmbeddedPostgres(pgDir, { port: pgPort });
  pgRestart.downMs = Date.now() - stoppedAt;
  pool = createDatabase(database.url, { max: 4 });
  reopen();
  console.log(
    `\n  Postgres restarted at ${pgRestart.at} s (down ${pgRestart.downMs} ms, same data dir, port ${pgPort})`,
  );
})();

// ── Wait until everything is settled (or the time bound) ──────────────────────────────────────────────
const countOpen = async () =>
  Number(
    [
      ...(await withDb((db) =>
        db.execute<{ n: number }>(
          // A republished delivery is open until its late-copy watch has ended (a late copy may still land).
          sql`select (select count(*) from deliveries where status in ('scheduled', 'publishing', 'ambiguous'))::int
            + (select count(*) from late_copy_watches where ended_at is null)::int as n`,
        ),
      )),
    ][0]!.n,
  );
let creationDone = false;
void Promise.all([insertDirect, createThroughApi]).then(() => (creationDone = true));
let open = N;
let lastPrint = 0;
for (;;) {
  await sleep(1_000);
  open = await countOpen().catch(() => open); // Postgres may be restarting
  const kills = supervisor.all.reduce((n, m) => n + m.kills, 0);
  const elapsed = Math.round((Date.now() - t0) / 1000);
  const line = `  ${elapsed} s: ${open} open, ${kills} kills, api ${api.created}/${apiCount} (${api.retries} retries)`;
  if (process.stdout.isTTY) process.stdout.write(`\r${line}   `);
  else if (Date.now() - lastPrint >= 10_000) {
    console.log(line);
    lastPrint = Date.now();
  }
  if (creationDone && open === 0 && Date.now() > t0 + WITHIN_MS) break;
  if (Date.now() - began > MAX_MS) {
    console.log(`\n  time bound reached (--max-seconds ${MAX_MS / 1000}): stopping with ${open} open`);
    break;
  }
}
killing = false;
await Promise.all([insertDirect, createThroughApi, killer, restarter]);
supervisor.stopAll();
await supervisor.waitAllExited();
// A slow write still being processed on the platform lands now: wait it out before counting.
await sleep(Math.max(FAULTS.processingMs, LATE_SHARE > 0 ? LATE_MS : 0) + 1_000);
const tookS = Math.round((Date.now() - t0) / 1000);
console.log('');

// ── Verdict: our database against the platform's own records ─────────────────────────────────────────
const rows = [
  ...(await withDb((db) =>
    db.execute<DeliveryRow>(sql`
  select d.id, ${deliveryTextSql} as text, d.status, d.external_id as "externalId", d.attempt_count as "attemptCount",
    d.post_id as "postId", d.part,
    coalesce(d.failure_reason, (select e.reason from delivery_events e where e.delivery_id = d.id and e.to_status = d.status order by e.id desc limit 1)) as "failureReason",
    a.id as "accountId", case when p.idempotency_key like 'chaos-api-%' then 'api' else 'db' end as source,
    coalesce((select json_agg(json_build_object('decision', r.decision, 'evidence', r.evidence) order by r.checked_at, r.id) from reconciliations r where r.delivery_id = d.id), '[]') as reconciliations,
    coalesce((select string_agg(e.to_status::text, '→' order by e.id) from delivery_events e where e.delivery_id = d.id), '') as history
  from deliveries d join posts p on p.id = d.post_id join social_accounts a on a.id = d.account_id
  where d.workspace_id = ${workspace.id}`),
  )),
].map((r) => {
  const account = accounts.find((a) => a.id === (r as unknown as { accountId: string }).accountId);
  return { ...r, profile: account?.profile ?? '?' };
});
const copiesByText = await copiesOnPlatform(store, accounts);
const verdict = judge(rows, copiesByText, { acceptDetectedLateCopies: LATE_SHARE > 0 });
// A sent thread part's copy replies to the part before it, by the id we hold for that part (any network's form).
// That part was sent first (the claim requires it) but may be in needs_review since: the late-copy watch moves a
// sent delivery there when a similar post appears, and the next part's own copy can be that post.
const parts = rows as unknown as (DeliveryRow & { postId: string; part: number })[];
const wrongParent = parts
  .filter((r) => r.part > 0 && r.status === 'sent')
  .filter((r) => {
    const previous = parts.find((p) => p.postId === r.postId && p.part === r.part - 1);
    const copy = copiesByText.get(r.text)?.[0];
    const wasSent = previous?.status === 'sent' || (previous?.status === 'needs_review' && previous.externalId);
    return !wasSent || !copy || copy.parent !== previous!.externalId;
  })
  .map((r) => r.id);
const logFile = path.join(dataDir, `deliveries-${runTag}.log`);
writeFileSync(logFile, `${verdict.lines.sort().join('\n')}\n`);

const f = verdict.failures;
const kills = (role: string) => supervisor.all.filter((m) => m.role === role).reduce((n, m) => n + m.kills, 0);
const crashes = supervisor.all.flatMap((m) => m.crashes.map((c) => ({ ...c, name: m.name })));
const restarts = supervisor.all.reduce((n, m) => n + m.starts - 1, 0);
console.log(
  `deliveries ${rows.length} of ${expectedDeliveries} intended (${threadCount} threads); copies on the sandbox ${verdict.copies}`,
);
console.log(
  `states: ${[...verdict.byStatus]
    .sort()
    .map(([s, n]) => `${s} ${n}`)
    .join(', ')}`,
);
const byProfile = new Map(
  PROFILES.map((p) => `${p.profile}/${p.platform}`)
    .filter((name) => verdict.byProfile.has(name))
    .map((name) => [name, verdict.byProfile.get(name)!]),
);
printTallies('per profile/network', byProfile);
printTallies('per network', tallyByNetwork(byProfile));
console.log('paths:');
for (const [p, n] of [...verdict.paths].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(6)}  ${p}`);
console.log(
  `processes: ${kills('web')} web and ${kills('worker')} worker SIGKILLs, ${restarts} restarts, ${crashes.length} exits not caused by the run; Postgres restarted at ${pgRestart.at} s, down ${pgRestart.downMs} ms`,
);
for (const c of crashes) {
  const log = path.join(logDir, `${c.name}.log`);
  console.log(
    `  ${c.name} exited by itself at ${Math.round((c.at.getTime() - t0) / 1000)} s (code ${c.code}, signal ${c.signal}): ${lastError(log, c.at)} (${log})`,
  );
}
console.log(
  `api: ${api.created} created (${api.replayed} answered as replays), ${api.retries} retries, ${api.gaveUp} gave up, ${api.refused.length} refused${api.refused.length ? ` (${api.refused.slice(0, 3).join('; ')})` : ''}`,
);
console.log(`per-delivery log: ${logFile}`);
const problems: [string, string[]][] = [
  ['duplicates (>1 copy on the platform)', f.duplicates],
  ['one intent, two deliveries', f.duplicateIntents],
  ['lost', f.lost],
  ['unsettled', f.unsettled],
  ['sent but not exactly one copy', f.sentNotExactlyOne],
  ['sent with a link to another copy', f.sentWrongLink],
  ['live on the platform but not sent', f.liveButNotSent],
  ['needs_review without evidence', f.reviewWithoutEvidence],
  ['needs_review with copies not listed', f.reviewCopiesNotListed],
  ['thread part not a reply to the part before it', wrongParent],
];
for (const [label, ids] of problems)
  if (ids.length > 0) console.log(`  FAIL ${label}: ${ids.length}, e.g. ${ids.slice(0, 3).join(', ')}`);
if (f.duplicates.length > 0)
  console.log(`  of the duplicates, ${verdict.duplicatesListed.length} are in needs_review with every copy listed`);
if (LATE_SHARE > 0) {
  const learned = [
    ...(await withDb((db) =>
      db.execute<{ provider: string; host: string; ms: number; source: string }>(
        sql`select provider, host, observed_worst_ms as ms, source from host_allowances where workspace_id = ${workspace.id} order by provider`,
      ),
    )),
  ];
  const byWatch = rows.filter(
    (r) => verdict.lateCopiesDetected.includes(r.id) && r.reconciliations.at(-1)?.decision === 'late_copy',
  );
  console.log(
    `late copies (--late-share ${LATE_SHARE}, creates ${LATE_MS} ms after the call): ${verdict.lateCopiesDetected.length} in needs_review with both copies listed (${byWatch.length} found by the watch after "sent"), none sent with two`,
  );
  for (const l of learned) console.log(`  learned allowance ${l.provider} ${l.host}: worst ${l.ms} ms (${l.source})`);
}
// A network where nothing went out proves nothing (every post failed, say, on an image no one could fetch).
const silent = [...tallyByNetwork(byProfile)].filter(([, t]) => t.sent === 0).map(([network]) => network);
if (silent.length > 0) console.log(`  FAIL nothing sent on ${silent.join(', ')}`);
const failed =
  silent.length > 0 ||
  problems.some(([, ids]) => ids.length > 0) ||
  api.gaveUp > 0 ||
  api.refused.length > 0 ||
  rows.length !== expectedDeliveries;
console.log(
  `chaos ${failed ? 'FAILED' : 'passed'}: ${rows.length} deliveries, ${verdict.byStatus.get('sent') ?? 0} sent, ${verdict.byStatus.get('needs_review') ?? 0} needs_review, ` +
    `${f.duplicates.length} duplicates, ${f.lost.length} lost, ${f.unsettled.length} unsettled, ${f.sentNotExactlyOne.length} sent-not-exactly-one; ` +
    `${kills('web') + kills('worker')} kills, Postgres down ${pgRestart.downMs} ms; ${tookS} s (seed ${SEED})`,
);

await sandbox.close();
process.exit(failed ? 1 : 0);

// ── helpers ───────────────────────────────────────────────────────────────────────────────────────────
function positive(name: 'deliveries' | 'accounts' | 'within' | 'max-seconds'): number {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
  return n;
}

async function retryDb<T>(run: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await run();
    } catch (error) {
      // Postgres restarting: write the chunk again; deterministic keys make a chunk that did commit a no-op.
      if (i >= 60) throw error;
      await sleep(500);
    }
  }
}

/** The error line a process printed before the exit marker the supervisor wrote at `at`. */
function lastError(logFile: string, at: Date): string {
  const lines = readFileSync(logFile, 'utf8').split('\n');
  const marker = lines.findIndex(
    (l) => l.startsWith('---') && l.includes('exited by itself') && l.endsWith(at.toISOString()),
  );
  const before = lines.slice(0, marker === -1 ? lines.length : marker).reverse();
  return (
    before.find((l) => /^\w*Error\b/.test(l)) ??
    before.find((l) => /"level":[56]0/.test(l)) ??
    'no error printed'
  ).slice(0, 200);
}

/** One line per profile (or network): its deliveries, where they ended, and the copies on the platform. */
function printTallies(title: string, tallies: Map<string, Tally>) {
  const width = Math.max(...[...tallies.keys()].map((k) => k.length));
  console.log(`${title}:`);
  for (const [name, t] of tallies) {
    console.log(
      `  ${name.padEnd(width)}  ${String(t.deliveries).padStart(5)} deliveries: ${t.sent} sent, ${t.needsReview} needs_review, ` +
        `${t.other} failed/missed/canceled; ${t.copies} copies; ${t.duplicates} duplicates, ${t.lost} lost, ${t.unsettled} unsettled` +
        (t.sentNotExactlyOne ? `, ${t.sentNotExactlyOne} sent-not-exactly-one` : ''),
    );
  }
}

/** On exit, whatever happened: Postgres's own fast shutdown (SIGINT), from its pid file. */
function stopPostgresNow(dir: string) {
  try {
    const pid = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (pid) process.kill(pid, 'SIGINT');
  } catch {
    /* not running */
  }
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
