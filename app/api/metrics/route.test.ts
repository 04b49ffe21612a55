import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { claimDueDeliveries } from '@/db/queries/deliveries';
import { lastTestDatabaseUrl } from '@/testing/db/test-database';
import { getEnv } from '@/lib/env';
import { trackJob } from '@/lib/metrics/record';
import { startMetricsServer } from '@/lib/metrics/server';
import { sample, sampleOrZero } from '@/testing/metrics';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import { POST as runCronJob } from '../cron/[job]/route';
import { POST as createPost } from '../v1/posts/route';
import { GET } from './route';

const TOKEN = 'metrics-token-for-tests-0123456789';
process.env.METRICS_TOKEN = TOKEN;
const sandbox = await startTestSandbox({ hangMs: 3_000 });
process.env.DATABASE_URL = lastTestDatabaseUrl(); // the route handlers' getDb() reads the sandbox's database
const { db } = sandbox;

async function scrape(): Promise<string> {
  const response = await GET(
    new Request('http://localhost/api/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }),
  );
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const delta = (before: string, after: string, name: string, labels: Record<string, string> = {}) =>
  sampleOrZero(after, name, labels) - sampleOrZero(before, name, labels);

function apiCreate(token: string, key: string, body: unknown) {
  return createPost(
    new Request('http://localhost/api/v1/posts', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({}) as Promise<Record<string, never>> },
  );
}

describe('GET /api/metrics', () => {
  it('moves every series during a real publish, reconcile and keyed API writes', async () => {
    const x = await sandbox.connectAccount('x');
    const mastodon = await sandbox.connectAccount('mastodon', x.workspaceId);
    await sandbox.setFaults(x.sandboxAccount.id, { latencyMs: 600 }); // slow enough to scrape while calls are in flight
    await sandbox.setFaults(mastodon.sandboxAccount.id, { timeoutAfterCommit: 1 }); // created, then no answer: ambiguous
    const before = await scrape();

    // Keyed API writes: one executed, one replay, one key reused with another body (422).
    const token = await sandbox.apiKey(x.workspaceId);
    const key = randomUUID();
    const body = { text: sandbox.uniqueText('metrics api'), accountIds: [x.productAccountId] };
    expect((await apiCreate(token, key, body)).status).toBe(201);
    expect((await apiCreate(token, key, body)).headers.get('idempotent-replayed')).toBe('true');
    expect((await apiCreate(token, key, { ...body, text: 'another intent' })).status).toBe(422);
    await schedulePosts(db, {
      workspaceId: x.workspaceId,
      accountId: x.productAccountId,
      count: 1,
      label: sandbox.uniqueText('metrics x'),
    });
    await schedulePosts(db, {
      workspaceId: x.workspaceId,
      accountId: mastodon.productAccountId,
      count: 1,
      label: sandbox.uniqueText('metrics m'),
    });
    const queued = await scrape();
    expect(delta(before, queued, 'semel_deliveries', { status: 'scheduled' })).toBe(3);

    const publishing = publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: 1_500 }));
    let during = await scrape();
    for (let i = 0; i < 100 && sample(during, 'semel_deliveries', { status: 'publishing' }) === 0; i++) {
      await sleep(20);
      during = await scrape();
    }
    expect(sample(during, 'semel_deliveries', { status: 'publishing' })).toBeGreaterThanOrEqual(1); // scraped mid-publish
    const summary = await publishing;
    expect(summary).toMatchObject({ sent: 2, ambiguous: 1 });
    const after = await scrape();

    expect(delta(before, after, 'semel_deliveries', { status: 'sent' })).toBe(2);
    expect(sample(after, 'semel_deliveries', { status: 'publishing' })).toBe(0);
    expect(sample(after, 'semel_ambiguous_deliveries')).toBe(1);
    expect(sample(after, 'semel_oldest_ambiguous_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(after, 'semel_oldest_ambiguous_age_seconds')).toBeLessThan(60);
    expect(sample(after, 'semel_review_queue_size')).toBe(1);
    expect(delta(before, after, 'semel_platform_calls_total', { provider: 'x', outcome: 'sent' })).toBe(2);
    expect(
      delta(before, after, 'semel_platform_calls_total', {
        provider: 'mastodon',
        outcome: 'ambiguous',
        rule: 'timeout-without-response',
      }),
    ).toBe(1);
    expect(delta(before, after, 'semel_platform_call_duration_seconds_count', { provider: 'x', outcome: 'sent' })).toBe(
      2,
    );
    expect(
      delta(before, after, 'semel_platform_call_duration_seconds_sum', { provider: 'x', outcome: 'sent' }),
    ).toBeGreaterThanOrEqual(1.2); // 2 × 600 ms latency
    expect(delta(before, after, 'semel_delivery_lateness_seconds_count')).toBe(2); // the ambiguous one is not "sent"
    expect(delta(before, after, 'semel_delivery_lateness_seconds_sum')).toBeGreaterThan(0);
    expect(
      delta(before, after, 'semel_idempotency_requests_total', { operation: 'posts.create', outcome: 'executed' }),
    ).toBe(1);
    expect(
      delta(before, after, 'semel_idempotency_requests_total', { operation: 'posts.create', outcome: 'replayed' }),
    ).toBe(1);
    expect(
      delta(before, after, 'semel_idempotency_requests_total', { operation: 'posts.create', outcome: 'mismatch' }),
    ).toBe(1);

    // Reconciliation finds the post the platform created: decision counted, gauges back to zero.
    await sandbox.setFaults(mastodon.sandboxAccount.id, {});
    const reconciled = await reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url));
    expect(reconciled.found).toBe(1);
    const settled = await scrape();
    expect(delta(after, settled, 'semel_reconcile_decisions_total', { decision: 'found' })).toBe(1);
    expect(sample(settled, 'semel_ambiguous_deliveries')).toBe(0);
    expect(sample(settled, 'semel_oldest_ambiguous_age_seconds')).toBe(0);
    expect(sample(settled, 'semel_review_queue_size')).toBe(0);
    expect(delta(after, settled, 'semel_deliveries', { status: 'sent' })).toBe(1);
  });

  it('counts a lapsed claim swept back to scheduled', async () => {
    const x = await sandbox.connectAccount('x');
    await schedulePosts(db, {
      workspaceId: x.workspaceId,
      accountId: x.productAccountId,
      count: 1,
      label: sandbox.uniqueText('swept'),
    });
    expect(await claimDueDeliveries(db, { workerId: 'doomed', limit: 10, leaseMs: 30_000 })).toHaveLength(1);
    await db.execute(sql`update claims set lease_expires_at = now() - interval '1 second' where released_at is null`);
    const before = await scrape();
    expect((await publishDueDeliveries(db, testPublisherOptions(sandbox.url))).sent).toBe(1);
    const after = await scrape();
    expect(delta(before, after, 'semel_claims_swept_total', { result: 'released' })).toBe(1);
    expect(delta(before, after, 'semel_deliveries', { status: 'sent' })).toBe(1);
  });

  it('counts job runs from the cron routes and failures of a job that throws', async () => {
    const before = await scrape();
    const request = new Request('http://localhost/api/cron/maintenance', {
      method: 'POST',
      headers: { authorization: `Bearer ${getEnv().CRON_SECRET}` },
    });
    const response = await runCronJob(request, { params: Promise.resolve({ job: 'maintenance' }) });
    expect(response.status).toBe(200);
    await expect(trackJob('broken', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const after = await scrape();
    expect(delta(before, after, 'semel_job_runs_total', { job: 'prune-idempotency-keys' })).toBe(1);
    expect(delta(before, after, 'semel_job_failures_total', { job: 'prune-idempotency-keys' })).toBe(0);
    expect(delta(before, after, 'semel_job_runs_total', { job: 'broken' })).toBe(1);
    expect(delta(before, after, 'semel_job_failures_total', { job: 'broken' })).toBe(1);
  });

  it('a worker (no web server) serves the same metrics and health checks on its own listener', async () => {
    const listener = await startMetricsServer(db, { port: 0, token: TOKEN });
    try {
      const scraped = await fetch(`${listener.url}/api/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scraped.status).toBe(200);
      const text = await scraped.text();
      expect(sample(text, 'semel_deliveries', { status: 'sent' })).toBe(
        sample(await scrape(), 'semel_deliveries', { status: 'sent' }),
      );
      expect(sample(text, 'semel_platform_calls_total')).toBeGreaterThan(0); // this process's counters
      expect((await fetch(`${listener.url}/api/metrics`)).status).toBe(401);
      expect((await fetch(`${listener.url}/api/health/live`)).status).toBe(200);
      expect(await (await fetch(`${listener.url}/api/health/ready`)).json()).toMatchObject({ status: 'ok' });
      expect((await fetch(`${listener.url}/elsewhere`)).status).toBe(404);
    } finally {
      await listener.close();
    }
  });

  it('answers 401 without the bearer token or with a wrong one', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-wrong-token-wrong', `Basic ${TOKEN}`]) {
      const response = await GET(
        new Request('http://localhost/api/metrics', { headers: authorization ? { authorization } : {} }),
      );
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.text()).not.toContain('semel_');
    }
  });

  it('is off (404) when METRICS_TOKEN is blank', async () => {
    vi.stubEnv('METRICS_TOKEN', '');
    vi.resetModules(); // a fresh env module: the environment is parsed once per process
    try {
      const { GET: offGet } = await import('./route');
      const response = await offGet(
        new Request('http://localhost/api/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }),
      );
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('semel_');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
