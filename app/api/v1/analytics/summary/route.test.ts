import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiRequest, createApiFixture, idParams, makeScopedApiKey, noParams } from '@/testing/api-fixture';
import { expectedMetrics, insertMetricHistory } from '@/testing/analytics';
import { GET as getPostMetrics } from '../../posts/[id]/metrics/route';
import { GET as getSummary } from './route';

type Totals = Record<string, number | null>;
type Summary = {
  accountIds: string[] | null;
  totals: Totals;
  previous: { totals: Totals };
  change: Totals;
  followers: Totals;
};

// GET /api/v1/analytics/summary and GET /api/v1/posts/{id}/metrics (posts:read): real figures from the rows written,
// bad periods and foreign accounts refused with 422 and nothing read, another workspace's post a 404 (I6).

const fixture = await createApiFixture();
const { db } = fixture;

async function tenantWithHistory() {
  const tenant = await fixture.tenant();
  const postIds = await insertMetricHistory(db, {
    workspaceId: tenant.workspace.id,
    accountIds: tenant.accounts.map((a) => a.id),
    posts: 20,
    from: new Date('2026-06-01T00:00:00Z'),
    to: new Date('2026-06-21T00:00:00Z'),
    readings: 3,
  });
  return { ...tenant, postIds };
}

const summary = (token: string, query: string) =>
  getSummary(apiRequest(`/api/v1/analytics/summary?${query}`, { token }), noParams);

describe('GET /api/v1/analytics/summary', () => {
  it('totals, the previous period, the change and followers, per account when asked', async () => {
    const t = await tenantWithHistory();
    const response = await summary(t.token, 'from=2026-06-11T00:00:00Z&to=2026-06-21T00:00:00Z');
    expect(response.status).toBe(200);
    const body = (await response.json()) as Summary;
    const current = Array.from({ length: 10 }, (_, k) => expectedMetrics(10 + k, true));
    const previous = Array.from({ length: 10 }, (_, k) => expectedMetrics(k, true));
    const add = (list: typeof current, key: 'likes' | 'engagement') => list.reduce((n, m) => n + m[key], 0);
    expect(body.totals).toMatchObject({ posts: 10, likes: add(current, 'likes'), quotes: null, clicks: null });
    expect(body.previous.totals.engagement).toBe(add(previous, 'engagement'));
    expect(body.change.engagement).toBeCloseTo(
      (add(current, 'engagement') - add(previous, 'engagement')) / add(previous, 'engagement'),
    );
    expect(body.followers).toEqual({ end: 2 * (1000 + 19 * 10), change: 200, previousChange: 200 });

    const one = t.accounts[0]!.id;
    const filtered = (await (
      await summary(t.token, `from=2026-06-11T00:00:00Z&to=2026-06-21T00:00:00Z&accountIds=${one}`)
    ).json()) as Summary;
    expect(filtered.accountIds).toEqual([one]);
    expect(filtered.totals.posts).toBe(5);
  });

  it('422 with field errors for a missing or too long period, or accounts that are not the workspace’s', async () => {
    const t = await tenantWithHistory();
    const other = await tenantWithHistory();
    const missing = await summary(t.token, 'from=2026-06-11T00:00:00Z');
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { errors: object }).errors).toHaveProperty('to');
    expect((await summary(t.token, 'from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z')).status).toBe(422);
    const foreign = await summary(
      t.token,
      `from=2026-06-11T00:00:00Z&to=2026-06-21T00:00:00Z&accountIds=${other.accounts[0]!.id}`,
    );
    expect(foreign.status).toBe(422);
    expect(((await foreign.json()) as { errors: object }).errors).toHaveProperty('accountIds');
    expect((await summary(t.token, 'from=x&to=y&accountIds=not-a-uuid')).status).toBe(422);
  });

  it('needs posts:read', async () => {
    const t = await tenantWithHistory();
    const token = await makeScopedApiKey(db, t.workspace.id, ['accounts:read']);
    const refused = await summary(token, 'from=2026-06-11T00:00:00Z&to=2026-06-21T00:00:00Z');
    expect(refused.status).toBe(403);
  });
});

describe('GET /api/v1/posts/{id}/metrics', () => {
  it('every reading of each delivery, oldest first; another workspace’s post is a 404 (I6)', async () => {
    const t = await tenantWithHistory();
    const other = await tenantWithHistory();
    const id = t.postIds[4]!;
    const response = await getPostMetrics(apiRequest(`/api/v1/posts/${id}/metrics`, { token: t.token }), idParams(id));
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      deliveries: { state: string; readings: { label: string; metrics: Record<string, number | null> }[] }[];
    };
    expect(body.deliveries).toHaveLength(1);
    const [delivery] = body.deliveries;
    expect(delivery!.state).toBe('reading');
    expect(delivery!.readings.map((r) => r.label)).toEqual(['+1 h', '+24 h', '+7 d']);
    expect(delivery!.readings.at(-1)!.metrics).toMatchObject({ likes: expectedMetrics(4, true).likes, quotes: null });
    const foreign = other.postIds[4]!;
    expect(
      (await getPostMetrics(apiRequest(`/api/v1/posts/${foreign}/metrics`, { token: t.token }), idParams(foreign)))
        .status,
    ).toBe(404);
    const unknown = randomUUID();
    expect(
      (await getPostMetrics(apiRequest(`/api/v1/posts/${unknown}/metrics`, { token: t.token }), idParams(unknown)))
        .status,
    ).toBe(404);
    expect(
      (await getPostMetrics(apiRequest('/api/v1/posts/nope/metrics', { token: t.token }), idParams('nope'))).status,
    ).toBe(404);
  });
});
