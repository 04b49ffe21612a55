import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { checkAnalyticsPeriod } from '@/lib/analytics/period';
import { readDueMetrics } from '@/lib/analytics/read-metrics';
import { DEFAULT_READ_DELAYS_MS } from '@/lib/analytics/schedule';
import { readAnalyticsView } from '@/lib/analytics/summary';
import { createDiskMediaStorage } from '@/lib/media/storage';
import { allowanceFor } from '@/lib/reconcile/allowance-map';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { startTestSandbox } from '@/testing/sandbox';
import { seedDemoData } from './seed';

// The demo's analytics (scripts/seed/seed-analytics.ts): six weeks of sent posts with readings and followers, so the
// analytics page opens populated; and the readings still due are read by the real metrics job through the real
// provider clients, from the copies the seed left on the sandbox (every network's ids as its API names them).

const sandbox = await startTestSandbox();
const { db } = sandbox;
const media = createDiskMediaStorage(mkdtempSync(path.join(tmpdir(), 'semel-seed-analytics-')));
const seed = () =>
  seedDemoData(db, {
    password: 'seed-test-password',
    encryptionKey: TEST_ENCRYPTION_KEY,
    posts: { origin: sandbox.url, media, callTimeoutMs: 300, allowanceMs: allowanceFor(0) },
    analytics: { delaysMs: DEFAULT_READ_DELAYS_MS },
  });
const count = async (query: ReturnType<typeof sql>) => Number([...(await db.execute<{ n: number }>(query))][0]!.n);

describe('the seeded demo’s analytics', () => {
  it('six weeks of posts with readings and followers; the real job reads what is due, nothing is gone; a re-run adds nothing', async () => {
    await seed();
    const [demo] = [...(await db.execute<{ id: string }>(sql`select id from workspaces where slug = 'demo'`))];
    const posts = await count(sql`select count(*)::int as n from post_metrics where workspace_id = ${demo!.id}`);
    expect(posts).toBeGreaterThanOrEqual(42);
    expect(
      await count(sql`select count(*)::int as n from metric_snapshots where workspace_id = ${demo!.id}`),
    ).toBeGreaterThan(posts);
    expect(
      await count(sql`select count(distinct provider)::int as n from post_metrics where workspace_id = ${demo!.id}`),
    ).toBe(5);
    expect(await count(sql`select count(*)::int as n from follower_snapshots where workspace_id = ${demo!.id}`)).toBe(
      42 * 6,
    );

    const checked = checkAnalyticsPeriod({}, 'UTC');
    if (!checked.ok) throw new Error('period');
    const view = await readAnalyticsView(db, {
      workspaceId: demo!.id,
      timeZone: 'UTC',
      period: checked.period,
      accountIds: null,
    });
    expect(view.current.posts).toBeGreaterThan(20);
    expect(view.current.engagement).toBeGreaterThan(0);
    expect(view.followers.end).toBeGreaterThan(0);
    expect(view.topPosts.length).toBe(10);
    expect(view.hours.length).toBeGreaterThan(3);

    // Every seeded post's latest reading is due: the real job reads it from the sandbox copy through its client.
    const run = await readDueMetrics(db, {
      workerId: 'seed-test',
      batchSize: 500,
      leaseMs: 60_000,
      readTimeoutMs: 5_000,
      delaysMs: DEFAULT_READ_DELAYS_MS,
      maxFailures: 5,
      budgetMs: 60_000,
      readBudget: { rateLimits: {}, reservedShare: 0.5 },
      encryptionKey: TEST_ENCRYPTION_KEY,
      origin: sandbox.url,
    });
    expect(run.recorded).toBeGreaterThanOrEqual(posts);
    expect(run.deleted).toBe(0);
    expect(
      await count(
        sql`select count(*)::int as n from post_metrics where workspace_id = ${demo!.id} and next_due_at <= now()`,
      ),
    ).toBe(0);

    const before = await count(sql`select count(*)::int as n from posts`);
    await seed();
    expect(await count(sql`select count(*)::int as n from posts`)).toBe(before);
  });
});
