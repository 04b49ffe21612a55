import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '@/db/client';
import { METRIC_NAMES } from '@/db/metric-names';
import { insertPostWithDeliveries } from '@/db/queries/posts';
import { jsonb } from '@/db/queries/sql-params';
import { engagementOf as sumEngagement } from '@/lib/analytics/metrics';
import { readingAt } from '@/lib/analytics/schedule';
import { encodeTid } from '@/lib/providers/bluesky/tid';
import { resolveBaseUrl } from '@/lib/providers/base-url';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { followersOf, servedMetrics } from '@/sandbox/behaviour/engagement';
import { backdateCreation, publishOnce, storeSandboxCopy } from './seed-history';
import type { SeedAccount } from './seed-posts';

// The demo's analytics (docs/analytics.md): six weeks of sent posts on every seeded account, at the hours a team
// posts, each with its copy on the sandbox network and the metric readings the metrics job would have taken (the
// sandbox's own numbers, as each network's API gives them: sandbox/behaviour/engagement.ts), and each account's daily
// follower counts. The readings still due are left to the real job, which reads them through the provider clients
// once the server runs. Idempotent per day: each post is keyed by its day, so a restart adds only the days since.

export type SeedAnalyticsOptions = {
  workspaceId: string;
  accounts: SeedAccount[];
  authorUserId: string;
  origin: string;
  now: Date;
  /** The metrics job's readings (ANALYTICS_READ_DELAYS_MS). */
  delaysMs: number[];
  /** How far back (days). */
  days?: number;
};

const SEED_WORKER = 'seed:analytics';
const HOURS = [8, 9, 9, 12, 13, 17, 17, 18, 20];
const TOPICS = [
  'our spring collection',
  'the new scheduling guide',
  'a customer story from Lyon',
  'this week’s team picks',
  'the community meetup',
  'three tips for a calmer calendar',
  'what “exactly once” means',
  'the behind-the-scenes video',
];
const ANGLES = [
  'A quick look at',
  'Why we love',
  'Five minutes on',
  'Your questions about',
  'Everything new in',
  'A thread on',
  'Still time to see',
  'Thank you for sharing',
];

/** Deterministic small numbers from a name (the same demo on every machine). */
const pick = (name: string, n: number) => createHash('sha256').update(name).digest().readUInt32BE(0) % n;

export async function seedDemoAnalytics(db: Database, o: SeedAnalyticsOptions) {
  const days = o.days ?? 42;
  const accounts = o.accounts.filter((a) => SEEDED_NETWORKS.has(a.provider));
  if (accounts.length === 0) return;
  let n = 0;
  for (let back = days; back >= 1; back--) {
    const day = new Date(o.now.getTime() - back * 86_400_000).toISOString().slice(0, 10);
    const count = 1 + pick(`${o.workspaceId}:${day}:count`, 3); // one to three posts a day
    for (let k = 0; k < count; k++, n++) {
      const hour = HOURS[pick(`${o.workspaceId}:${day}:${k}:hour`, HOURS.length)]!;
      const at = new Date(
        `${day}T${String(hour).padStart(2, '0')}:${String(pick(`${day}${k}m`, 50) + 5).padStart(2, '0')}:00Z`,
      );
      const account = accounts[pick(`${o.workspaceId}:${day}:${k}:account`, accounts.length)]!;
      const text = `${ANGLES[n % ANGLES.length]} ${TOPICS[Math.floor(n / ANGLES.length) % TOPICS.length]} (${day})`;
      await db.transaction((tx) => seedPost(tx, o, { key: `seed:analytics:${day}:${k}`, text, at, account }));
    }
  }
  await seedFollowers(db, o, accounts, days);
}

const SEEDED_NETWORKS = new Set(['x', 'mastodon', 'bluesky', 'linkedin', 'threads']);

/** One sent post with its platform copy, its history and the readings already due (all but the latest). */
async function seedPost(
  tx: Executor,
  o: SeedAnalyticsOptions,
  p: { key: string; text: string; at: Date; account: SeedAccount },
) {
  const created = await insertPostWithDeliveries(tx, {
    post: {
      workspaceId: o.workspaceId,
      text: p.text,
      scheduledAt: p.at,
      source: 'form',
      idempotencyKey: p.key,
      createdByUserId: o.authorUserId,
      createdAt: new Date(p.at.getTime() - 86_400_000),
      updatedAt: new Date(p.at.getTime() - 86_400_000),
    },
    accountIds: [p.account.id],
    actor: `user:${o.authorUserId}`,
  });
  if (!created) return; // seeded before
  const delivery = created.deliveries[0]!;
  await backdateCreation(tx, [delivery.id], new Date(p.at.getTime() - 86_400_000));
  const createdAt = new Date(p.at.getTime() + 300);
  const { provider, platformUserId } = p.account;
  const rkey = provider === 'bluesky' ? encodeTid(BigInt(createdAt.getTime()) * 1000n, pick(p.key, 1024)) : null;
  const copy = await storeSandboxCopy(tx, {
    platform: provider,
    platformUserId,
    text: p.text,
    createdAt,
    recordKey: rkey,
    record: rkey ? { $type: 'app.bsky.feed.post', text: p.text, createdAt: createdAt.toISOString() } : null,
  });
  const externalId =
    provider === 'bluesky'
      ? `at://${platformUserId}/app.bsky.feed.post/${rkey}`
      : provider === 'linkedin'
        ? `urn:li:share:${copy.id}`
        : copy.id;
  const url = resolveBaseUrl(PROVIDER_META[provider].sandboxPostPath(rkey ?? externalId, platformUserId), o.origin);
  await publishOnce(tx, delivery, p.at, SEED_WORKER, {
    outcome: 'sent',
    durationMs: 420,
    httpStatus: 200,
    rule: 'seed-demo-sent',
    reason: 'Published; the platform returned its id.',
    externalId,
    url,
  });
  // The readings already due: all but the latest are the history; the latest is left due for the real job.
  const due = o.delaysMs.map((_, k) => k).filter((k) => readingAt(p.at, o.delaysMs, k) <= o.now);
  const history = due.slice(0, -1);
  const post = { id: copy.id, createdAt, kind: 'post' as const };
  const snapshots = history.map((k) => {
    const readAt = readingAt(p.at, o.delaysMs, k);
    return { reading: k, reading_at: readAt.toISOString(), metrics: servedMetrics(post, provider, readAt) };
  });
  const latest = snapshots.at(-1)?.metrics ?? {};
  const next = due.length > 0 ? due.at(-1)! : 0;
  await tx.execute(sql`
    insert into post_metrics (delivery_id, workspace_id, post_id, account_id, provider, published_at, next_reading,
      next_due_at, read_at, ${sql.raw(METRIC_NAMES.join(', '))}, engagement)
    values (${delivery.id}, ${o.workspaceId}, ${delivery.postId}, ${p.account.id}, ${provider}, ${p.at.toISOString()}::timestamptz,
      ${next}, ${readingAt(p.at, o.delaysMs, next).toISOString()}::timestamptz,
      ${snapshots.at(-1)?.reading_at ?? null}::timestamptz,
      ${sql.join(
        METRIC_NAMES.map((m) => sql`${latest[m] ?? null}::bigint`),
        sql`, `,
      )}, ${snapshots.length > 0 ? sumEngagement(latest) : null}::bigint)
    on conflict (delivery_id) do nothing`);
  if (snapshots.length === 0) return;
  await tx.execute(sql`
    insert into metric_snapshots (workspace_id, delivery_id, reading, reading_at, taken_at, ${sql.raw(METRIC_NAMES.join(', '))})
    select ${o.workspaceId}, ${delivery.id}, s.reading, s.reading_at, s.reading_at, ${sql.raw(
      METRIC_NAMES.map((m) => `(s.metrics->>'${m}')::bigint`).join(', '),
    )}
    from jsonb_to_recordset(${jsonb(snapshots)}) as s(reading int, reading_at timestamptz, metrics jsonb)
    on conflict (delivery_id, reading_at) do nothing`);
}

/** Each account's follower count at the end of every day of the range (today is the real job's). */
async function seedFollowers(db: Database, o: SeedAnalyticsOptions, accounts: SeedAccount[], days: number) {
  const rows = accounts.flatMap((a) =>
    Array.from({ length: days }, (_, i) => {
      const day = new Date(o.now.getTime() - (days - i) * 86_400_000).toISOString().slice(0, 10);
      const endOfDay = new Date(`${day}T23:59:59Z`);
      return { account_id: a.id, day, followers: followersOf(a, a.provider, endOfDay) };
    }),
  );
  await db.execute(sql`
    insert into follower_snapshots (account_id, workspace_id, day, followers, taken_at)
    select r.account_id, ${o.workspaceId}, r.day, r.followers, (r.day || 'T23:59:59Z')::timestamptz
    from jsonb_to_recordset(${jsonb(rows)}) as r(account_id uuid, day text, followers bigint)
    on conflict (account_id, day) do nothing`);
}
