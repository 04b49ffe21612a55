import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '@/testing/db/test-database';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { expectedMetrics, insertMetricHistory } from '@/testing/analytics';
import { checkAnalyticsPeriod } from './period';
import { readAnalyticsSummary, readAnalyticsView } from './summary';

// The analytics page's figures come from SQL (db/queries/analytics.ts); here they are checked against the same
// numbers added up in JavaScript from what was written: totals, the previous period, the account filter, the daily
// series, followers, the ranking, the heat map, and that another workspace's posts never count (I6).

const { db } = await createTestDatabase();
const UTC = 'UTC';

async function workspaceWithHistory() {
  const workspace = await makeWorkspace(db);
  const x = await makeAccount(db, workspace.id, 'x');
  const mastodon = await makeAccount(db, workspace.id, 'mastodon');
  // 60 posts over 60 days (the previous period and this one), alternating X and Mastodon; Mastodon counts no views.
  await insertMetricHistory(db, {
    workspaceId: workspace.id,
    accountIds: [x.id, mastodon.id],
    noViews: [mastodon.id],
    posts: 60,
    from: new Date('2026-03-02T10:00:00Z'),
    to: new Date('2026-05-01T10:00:00Z'),
    readings: 2,
  });
  return { workspace, x, mastodon };
}

const period = (from: string, to: string) => {
  const checked = checkAnalyticsPeriod({ from, to }, UTC);
  if (!checked.ok) throw new Error('bad period');
  return checked.period;
};
const sum = (values: (number | null)[]) => {
  const given = values.filter((v): v is number => v !== null);
  return given.length === 0 ? null : given.reduce((a, b) => a + b, 0);
};

describe('analytics figures (SQL aggregates against the rows written)', () => {
  it('totals of the period and the previous one; absent metrics stay null; another workspace never counts', async () => {
    const { workspace } = await workspaceWithHistory();
    await workspaceWithHistory(); // another workspace with the same history
    // Posts 30–59 go out from 2026-04-01 10:00; the period 2026-04-01 … 2026-04-30 holds them.
    const summary = await readAnalyticsSummary(db, {
      workspaceId: workspace.id,
      timeZone: UTC,
      period: period('2026-04-01', '2026-04-30'),
      accountIds: null,
    });
    const current = Array.from({ length: 30 }, (_, k) => expectedMetrics(30 + k, (30 + k) % 2 === 0));
    expect(summary.current.posts).toBe(30);
    expect(summary.current.likes).toBe(sum(current.map((m) => m.likes)));
    expect(summary.current.views).toBe(sum(current.map((m) => m.views)));
    expect(summary.current.engagement).toBe(sum(current.map((m) => m.engagement)));
    expect(summary.current.quotes).toBeNull(); // no network of the set gives quotes: absent, not 0
    expect(summary.current.clicks).toBeNull();
    const previous = Array.from({ length: 30 }, (_, k) => expectedMetrics(k, k % 2 === 0));
    expect(summary.previous.posts).toBe(30);
    expect(summary.previous.engagement).toBe(sum(previous.map((m) => m.engagement)));
    expect(summary.networks.map((n) => [n.provider, n.posts])).toEqual(
      expect.arrayContaining([
        ['x', 15],
        ['mastodon', 15],
      ]),
    );
    expect(summary.networks.find((n) => n.provider === 'mastodon')!.views).toBeNull();
    // Followers: each account 1000 + 10 a day since 2026-03-02; the period's growth is 30 days × 10 × 2 accounts.
    expect(summary.followers.change).toBe(600);
    expect(summary.followers.previousChange).toBe(600);
  });

  it('the account filter changes every figure', async () => {
    const { workspace, x } = await workspaceWithHistory();
    const onlyX = await readAnalyticsSummary(db, {
      workspaceId: workspace.id,
      timeZone: UTC,
      period: period('2026-04-01', '2026-04-30'),
      accountIds: [x.id],
    });
    const xPosts = Array.from({ length: 30 }, (_, k) => 30 + k).filter((i) => i % 2 === 0);
    expect(onlyX.current.posts).toBe(xPosts.length);
    expect(onlyX.current.likes).toBe(sum(xPosts.map((i) => expectedMetrics(i, true).likes)));
    expect(onlyX.networks.map((n) => n.provider)).toEqual(['x']);
    expect(onlyX.followers.end).toBe(1000 + 59 * 10);
  });

  it('the page: a point per day with its posts and followers, posts ranked by rate, the best time to post', async () => {
    const { workspace } = await workspaceWithHistory();
    const view = await readAnalyticsView(db, {
      workspaceId: workspace.id,
      timeZone: UTC,
      period: period('2026-04-01', '2026-04-30'),
      accountIds: null,
    });
    expect(view.series).toHaveLength(30);
    expect(view.series.reduce((n, p) => n + p.posts, 0)).toBe(30);
    const april10 = view.series.find((p) => p.day === '2026-04-10')!;
    expect(april10.followers).toBe(2 * (1000 + 39 * 10));
    expect(april10.engagement).toBe(expectedMetrics(39, false).engagement);
    // Ranked by engagement per view (X) or per follower (Mastodon), highest first.
    const rates = view.topPosts.map((p) => p.rate!);
    expect(rates).toEqual([...rates].sort((a, b) => b - a));
    expect(view.topPosts).toHaveLength(10);
    const top = view.topPosts[0]!;
    const expected = expectedMetrics(Number(top.text.split('#')[1]), top.rateBasis === 'views');
    expect(top.engagement).toBe(expected.engagement);
    // Every post went out at 10:00 UTC (the step is a whole day): the heat map has that hour only.
    expect(new Set(view.hours.map((h) => h.hour))).toEqual(new Set([10]));
    expect(view.hours.reduce((n, h) => n + h.posts, 0)).toBe(60);
    expect(view.bestTime?.hour).toBe(10);
  });

  it('a first comment (a reply part) is no post: only part 0 counts, ranks and fills the heat map; its metrics are summed', async () => {
    const { workspace } = await workspaceWithHistory();
    const scope = {
      workspaceId: workspace.id,
      timeZone: UTC,
      period: period('2026-04-01', '2026-04-30'),
      accountIds: null,
    };
    const before = await readAnalyticsView(db, scope);
    // Each post of the period gets its first comment (part 1), read with 5 likes (and a rate that would top the ranking).
    const comments = await db.execute<{ id: string }>(sql`
      with d as (
        insert into deliveries (workspace_id, post_id, account_id, part, due_at, status, settled_at, external_id)
        select d.workspace_id, d.post_id, d.account_id, 1, d.due_at, 'sent', d.settled_at, d.external_id || '-comment'
        from deliveries d join post_metrics m on m.delivery_id = d.id
        where d.workspace_id = ${workspace.id} and m.published_at >= '2026-04-01' and m.published_at < '2026-05-01'
        returning id, workspace_id, post_id, account_id, due_at
      )
      insert into post_metrics (delivery_id, workspace_id, post_id, account_id, provider, part, published_at,
        next_reading, views, likes, engagement)
      select d.id, d.workspace_id, d.post_id, d.account_id, a.provider, 1, d.due_at + interval '1 minute', 1, 6, 5, 5
      from d join social_accounts a on a.id = d.account_id
      returning delivery_id as id`);
    expect([...comments]).toHaveLength(30);
    const after = await readAnalyticsView(db, scope);
    expect(after.current.posts).toBe(30);
    expect(after.current.likes).toBe(before.current.likes! + 30 * 5);
    expect(after.current.engagement).toBe(before.current.engagement! + 30 * 5);
    expect(after.networks.reduce((n, x) => n + x.posts, 0)).toBe(30);
    expect(after.series.reduce((n, p) => n + p.posts, 0)).toBe(30);
    const commentIds = new Set([...comments].map((c) => c.id));
    expect(after.topPosts.some((p) => commentIds.has(p.deliveryId))).toBe(false);
    expect(after.hours.reduce((n, h) => n + h.posts, 0)).toBe(60);
  });
});
