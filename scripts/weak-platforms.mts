// npm run weak-platforms [-- --deliveries 20 --processing-ms 13000 --read-lag-ms 60000 --allowance-ms 60000]
// The promise against platforms that forgive nothing (docs/sandbox.md#platforms-that-forgive-nothing): for each weak
// sandbox profile, N posts due now
//   - "slow": the platform creates each post processingMs after the request arrived (longer than our call
//     timeout: the call times out while the post is still being made), and
//   - "lag": the call times out after the platform stored the post, which shows in listings readLagMs later,
// published and reconciled by the real publisher and reconciler with the production defaults (call timeout
// 10 s, allowance 60 s, recheck 15 s). Copies are counted on the sandbox's own records, per delivery.
// Exits non-zero if any delivery is `sent` without exactly one copy, if a delivery with extra copies is not in
// review with them listed, or if any delivery is left unsettled. `--allowance-ms 0` shows what the guard prevents.
// Texts are words only, or each construct in turn that a server shows other than as sent: Markdown on
// `mastodon-markdown` (rendered to HTML, as Hollo does), links on X (read back as t.co); a table per construct.
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDatabase } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { upsertAccount } from '@/db/queries/accounts';
import { insertPostWithDeliveries } from '@/db/queries/posts';
import { getNextWakeAt } from '@/db/queries/publishing';
import { makeWorkspace } from '@/testing/db/factories';
import { DEFAULT_PUBLISHER_TUNING } from '@/lib/publishing/config';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { sealCredentials } from '@/lib/providers/credentials';
import { RECONCILE_DEFAULTS } from '@/lib/reconcile/options';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { createMemorySandboxStore } from '@/sandbox/store/memory-store';
import { startSandboxServer } from '@/sandbox/http/node-server';
import { newSandboxIdentity } from '@/sandbox/oauth/tokens';
import { NO_FAULTS, type FaultsUpdate, type Platform, type Profile } from '@/sandbox/store/types';
import { resolveDatabase } from './lib/database';

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '20' },
    'processing-ms': { type: 'string', default: '13000' },
    'read-lag-ms': { type: 'string', default: '60000' },
    'call-timeout-ms': { type: 'string', default: String(DEFAULT_PUBLISHER_TUNING.callTimeoutMs) },
    'allowance-ms': { type: 'string', default: '60000' },
    'recheck-ms': { type: 'string', default: '15000' },
    'max-seconds': { type: 'string', default: '300' },
  },
});
const N = Number(values.deliveries);
const CALL_TIMEOUT_MS = Number(values['call-timeout-ms']);
const ALLOWANCE_MS = Number(values['allowance-ms']);
const LEASE_MS = Math.max(DEFAULT_PUBLISHER_TUNING.leaseMs, CALL_TIMEOUT_MS + 5_000);

// The text each post carries: `plain` (words only) or, to meet a server that shows a post other than as it was
// sent (docs/architecture.md#proof-of-absence), each construct in turn — Markdown a Hollo/Akkoma-like server renders,
// links X shows as t.co.
const CONSTRUCTS = {
  plain: [['words', (t: string) => t]],
  markdown: [
    ['bold and em', (t: string) => `**Launch** _today_ ${t}`],
    ['quote', (t: string) => `> ${t}`],
    ['list item', (t: string) => `- ${t}`],
    ['heading', (t: string) => `# ${t}`],
    ['code span', (t: string) => `${t} \`npm ci\``],
    ['mention', (t: string) => `${t} with @ann@social.example`],
    ['hashtag', (t: string) => `${t} #launch`],
    ['custom emoji', (t: string) => `${t} :blobcat:`],
    ['https:// link', (t: string) => `${t} https://example.com/launch`],
  ],
  links: [
    ['https:// link', (t: string) => `${t} https://example.com/launch`],
    ['bare domain', (t: string) => `${t} at example.com/launch`],
    ['link in brackets', (t: string) => `${t} (see https://example.com/launch).`],
  ],
} satisfies Record<string, [string, (text: string) => string][]>;

const PROFILES: [Platform, Profile, keyof typeof CONSTRUCTS][] = [
  ['mastodon', 'mastodon-legacy', 'plain'],
  ['mastodon', 'mastodon-nokey', 'plain'],
  ['mastodon', 'plain', 'plain'],
  ['mastodon', 'mastodon-markdown', 'markdown'],
  ['x', 'x-nodedupe', 'plain'],
  ['x', 'plain', 'plain'],
  ['x', 'x-nodedupe', 'links'],
];
const SCENARIOS: Record<string, Omit<FaultsUpdate, 'profile'>> = {
  slow: { ...NO_FAULTS, processingMs: Number(values['processing-ms']) },
  lag: { ...NO_FAULTS, timeoutAfterCommit: 1, readLagMs: Number(values['read-lag-ms']) },
};

process.env.SEMEL_DATA_DIR ??= '.data/weak-platforms';
const database = await resolveDatabase({ fresh: true });
await runMigrations(database.url);
const { db, close } = createDatabase(database.url, { max: 10 });
const store = createMemorySandboxStore();
// The platform holds a timed-out request up to 3 minutes; our client gives up after its call timeout.
const sandbox = await startSandboxServer({ deps: { store, resolveScope: async () => [], hangMs: 180_000 } });
const encryptionKey = randomBytes(32).toString('base64');
const workspace = await makeWorkspace(db, `weak-${randomUUID().slice(0, 6)}`);

type Group = {
  platform: Platform;
  profile: Profile;
  textKind: keyof typeof CONSTRUCTS;
  scenario: string;
  sandboxAccountId: string;
  deliveryIds: string[];
  texts: Map<string, string>;
  constructs: Map<string, string>;
};
const groups: Group[] = [];
const runTag = randomUUID().slice(0, 6);
for (const [platform, profile, texts] of PROFILES) {
  for (const [scenario, faults] of Object.entries(SCENARIOS)) {
    const { platformUserId, token, suffix } = newSandboxIdentity();
    const handle = `@weak_${suffix}`;
    const registered = await store.registerAccount({ platform, platformUserId, handle, token });
    await store.setFaults([registered.id], { ...faults, profile });
    const account = await upsertAccount(db, {
      workspaceId: workspace.id,
      provider: platform,
      sandbox: true,
      handle,
      platformUserId,
      baseUrl: `/api/sandbox/${platform}`,
      ...sealCredentials({ accessToken: token }, encryptionKey),
    });
    const group: Group = {
      platform,
      profile,
      textKind: texts,
      scenario,
      sandboxAccountId: registered.id,
      deliveryIds: [],
      texts: new Map(),
      constructs: new Map(),
    };
    for (let i = 0; i < N; i++) {
      const [construct, shape] = CONSTRUCTS[texts][i % CONSTRUCTS[texts].length]!;
      const text = shape(`weak ${runTag} ${profile}/${platform} ${texts} ${scenario} #${i}`);
      const created = await insertPostWithDeliveries(db, {
        post: { workspaceId: workspace.id, text, scheduledAt: new Date(), source: 'api', idempotencyKey: randomUUID() },
        accountIds: [account!.id],
        actor: 'weak-platforms',
      });
      const deliveryId = created!.deliveries[0]!.id;
      group.deliveryIds.push(deliveryId);
      group.texts.set(deliveryId, text);
      group.constructs.set(deliveryId, construct);
    }
    groups.push(group);
  }
}
console.log(
  `weak-platforms: ${groups.length * N} deliveries (${N} per profile and scenario); call timeout ${CALL_TIMEOUT_MS} ms, ` +
    `allowance ${ALLOWANCE_MS} ms, recheck ${values['recheck-ms']} ms; slow = processing ${values['processing-ms']} ms, lag = read lag ${values['read-lag-ms']} ms`,
);

const allowanceMs = {
  x: ALLOWANCE_MS,
  mastodon: ALLOWANCE_MS,
  bluesky: ALLOWANCE_MS,
  linkedin: ALLOWANCE_MS,
  threads: ALLOWANCE_MS,
  instagram: ALLOWANCE_MS,
  tiktok: ALLOWANCE_MS,
  facebook: ALLOWANCE_MS,
  youtube: ALLOWANCE_MS,
};
const publisher = {
  ...DEFAULT_PUBLISHER_TUNING,
  workerId: `weak-${runTag}`,
  callTimeoutMs: CALL_TIMEOUT_MS,
  leaseMs: LEASE_MS,
  budgetMs: 20_000,
  encryptionKey,
  rateLimits: {},
  allowanceMs,
  origin: sandbox.url, // relative sandbox base URLs resolve against this trusted origin
};
const reconciler = {
  ...RECONCILE_DEFAULTS,
  workerId: `weak-${runTag}`,
  leaseMs: LEASE_MS,
  readTimeoutMs: CALL_TIMEOUT_MS,
  callTimeoutMs: CALL_TIMEOUT_MS,
  allowanceMs,
  recheckDelayMs: Number(values['recheck-ms']),
  encryptionKey,
  origin: sandbox.url,
};
const started = Date.now();
const deadline = started + Number(values['max-seconds']) * 1000;
const unsettled = async () =>
  Number(
    (
      [
        ...(await db.execute(
          sql`select count(*)::int as n from deliveries where status in ('scheduled', 'publishing', 'ambiguous')`,
        )),
      ][0] as { n: number }
    ).n,
  );
// Two loops, as two processes would run them: a slow platform call must not hold up the reconciler.
let stop = false;
const loop = async (pass: () => Promise<unknown>) => {
  while (!stop) {
    await pass();
    const next = await getNextWakeAt(db);
    await new Promise((r) => setTimeout(r, next ? Math.min(Math.max(next.getTime() - Date.now(), 50), 1_000) : 1_000));
  }
};
const loops = [
  loop(() => publishDueDeliveries(db, publisher)),
  loop(() => reconcileAmbiguousDeliveries(db, reconciler)),
];
let left = await unsettled();
while (left > 0 && Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 2_000));
  left = await unsettled();
}
stop = true;
await Promise.all(loops);
const seconds = ((Date.now() - started) / 1000).toFixed(0);

type Row = { id: string; status: string; evidence: { copies?: unknown[] } | null };
const finalRows = await db.execute(sql`
  select d.id, d.status, (select r.evidence from reconciliations r where r.delivery_id = d.id order by r.checked_at desc limit 1) as evidence
  from deliveries d`);
const rows = new Map([...finalRows].map((r) => [(r as Row).id, r as Row]));
const problems: string[] = [];
const table: string[] = [
  '| profile | wire format | texts | scenario | sent (1 copy) | needs review | of which with copies listed | other | max copies of one post |',
  '|---|---|---|---|---|---|---|---|---|',
];
// Per construct of the texts that are not words only: which of them the read-back failed to recognise.
const byConstruct = new Map<string, { deliveries: number; wrong: number; maxCopies: number }>();
for (const group of groups) {
  const posts = await store.listPosts(group.sandboxAccountId, {
    kinds: ['post', 'reply', 'dm'],
    includeDeleted: true,
    limit: 10_000,
  });
  const copiesOf = (text: string) => posts.filter((p) => p.text === text).length;
  let sent = 0,
    review = 0,
    reviewWithCopies = 0,
    other = 0,
    maxCopies = 0;
  for (const id of group.deliveryIds) {
    const row = rows.get(id)!;
    const copies = copiesOf(group.texts.get(id)!);
    const where = `${group.profile} ${group.textKind} ${group.scenario}, ${group.constructs.get(id)}`;
    const before = problems.length;
    maxCopies = Math.max(maxCopies, copies);
    if (row.status === 'sent') {
      sent++;
      if (copies !== 1) problems.push(`${id} (${where}) is sent with ${copies} copies on the platform`);
    } else if (row.status === 'needs_review') {
      review++;
      const listed = row.evidence?.copies?.length ?? 0;
      if (copies > 1) {
        if (listed === copies) reviewWithCopies++;
        else problems.push(`${id} (${where}) is in review with ${copies} copies but ${listed} listed`);
      }
    } else {
      other++;
      problems.push(`${id} (${where}) ended ${row.status}`);
    }
    if (group.textKind !== 'plain') {
      const key = `| ${group.profile} | ${group.platform} | ${group.constructs.get(id)} |`;
      const tally = byConstruct.get(key) ?? { deliveries: 0, wrong: 0, maxCopies: 0 };
      tally.deliveries++;
      if (problems.length > before) tally.wrong++;
      tally.maxCopies = Math.max(tally.maxCopies, copies);
      byConstruct.set(key, tally);
    }
  }
  table.push(
    `| ${group.profile} | ${group.platform} | ${group.textKind} | ${group.scenario} | ${sent} | ${review} | ${reviewWithCopies} | ${other} | ${maxCopies} |`,
  );
}
console.log(`\n${table.join('\n')}\n`);
if (byConstruct.size > 0) {
  console.log('| profile | wire format | construct | deliveries | failing the check | max copies of one post |');
  console.log('|---|---|---|---|---|---|');
  for (const [key, t] of byConstruct) console.log(`${key} ${t.deliveries} | ${t.wrong} | ${t.maxCopies} |`);
  console.log('');
}
console.log(
  `weak-platforms: settled in ${seconds} s; ${problems.length === 0 ? 'every post: exactly one copy, or in review with its copies listed' : `${problems.length} problems`}`,
);
for (const p of problems.slice(0, 20)) console.log(`  ${p}`);

await sandbox.close();
await close();
await database.stop();
process.exit(problems.length === 0 ? 0 : 1);
