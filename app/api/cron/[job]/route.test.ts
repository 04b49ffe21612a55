// POST /api/cron/<job> for every registry job and the old `maintenance` URL: the secret, unknown names, and real
// runs on this file's database against the sandbox platform, with the options the job reads from the environment.
import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { attempts, idempotencyKeys, loginAttempts } from '@/db/schema';
import { lastTestDatabaseUrl } from '@/testing/db/test-database';
import { makeWorkspace } from '@/testing/db/factories';
import { jobs } from '@/lib/jobs/registry';
import { metrics } from '@/lib/metrics/registry';
import { sampleOrZero } from '@/testing/metrics';
import { deliveryStates, schedulePosts } from '@/testing/publisher';
import { startTestSandbox } from '@/testing/sandbox';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { POST } from './route';

const CRON_SECRET = 'cron-route-test-secret-0123456789';
const CALL_TIMEOUT_MS = 300;
const sandbox = await startTestSandbox({ hangMs: 2_000 });
// Read once by getEnv() on the first request: the jobs' defaults come from here, as in production.
Object.assign(process.env, {
  DATABASE_URL: lastTestDatabaseUrl(),
  CRON_SECRET,
  APP_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  PORT: new URL(sandbox.url).port,
  PUBLISH_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS),
  RECONCILE_ALLOWANCE_MS: '0',
  RECONCILE_RECHECK_MS: '0',
});
const { db } = sandbox;

function cron(job: string, authorization: string | null = `Bearer ${CRON_SECRET}`) {
  const headers = authorization ? { authorization } : undefined;
  return POST(new Request(`http://localhost/api/cron/${job}`, { method: 'POST', headers }), {
    params: Promise.resolve({ job }),
  });
}

const runsOf = async (job: string) => sampleOrZero(await metrics().registry.metrics(), 'semel_job_runs_total', { job });
const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!.status;

describe('POST /api/cron/[job]', () => {
  it('401 without the secret or with a wrong one, for known and unknown names alike, and runs nothing', async () => {
    const before = await runsOf('publish');
    for (const job of ['publish', 'maintenance', 'no-such-job']) {
      for (const authorization of [null, 'Bearer wrong-secret-0123456789abcd', CRON_SECRET]) {
        const response = await cron(job, authorization);
        expect(response.status).toBe(401);
        expect(response.headers.get('content-type')).toBe('application/problem+json');
        expect(response.headers.get('www-authenticate')).toBe('Bearer');
      }
    }
    expect(await runsOf('publish')).toBe(before);
  });

  it('404 problem+json for a name that is neither a job nor an alias', async () => {
    for (const job of ['no-such-job', 'Publish', 'constructor', '__proto__', 'prune-keys']) {
      const response = await cron(job);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toMatchObject({ status: 404, title: 'Not Found' });
    }
  });

  it('publish: sends the post that is due, once, answers the summary and counts the run', async () => {
    const account = await sandbox.connectAccount('mastodon');
    const label = sandbox.uniqueText('cron publish');
    const [id] = await schedulePosts(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      count: 1,
      label,
    });
    const before = await runsOf('publish');

    const response = await cron('publish');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ claimed: 1, sent: 1, ambiguous: 0 });
    expect(await status(id!)).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, `${label} #0`)).toBe(1);
    expect(await runsOf('publish')).toBe(before + 1);
  });

  it('reconcile: settles a delivery the publish run left ambiguous as sent, without publishing again', async () => {
    const account = await sandbox.connectAccount('x');
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutAfterCommit: 1 });
    const label = sandbox.uniqueText('cron reconcile');
    const [id] = await schedulePosts(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      count: 1,
      label,
    });
    expect(await (await cron('publish')).json()).toMatchObject({ claimed: 1, ambiguous: 1 });
    expect(await status(id!)).toBe('ambiguous');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    // The reconciler reads only once the call timed out (PUBLISH_CALL_TIMEOUT_MS, no allowance) and the delivery is due.
    const [attempt] = await db
      .select({ startedAt: attempts.startedAt })
      .from(attempts)
      .where(eq(attempts.deliveryId, id!));
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, attempt!.startedAt.getTime() + CALL_TIMEOUT_MS + 100 - Date.now())),
    );
    await db.execute(sql`update deliveries set due_at = now() where id = ${id!}`);
    const before = await runsOf('reconcile');

    const response = await cron('reconcile');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ checked: 1, found: 1 });
    expect(await status(id!)).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, `${label} #0`)).toBe(1);
    expect(await runsOf('reconcile')).toBe(before + 1);
  });

  async function expiredKeysAndOldAttempts() {
    const workspace = await makeWorkspace(db);
    const email = `cron-${randomUUID().slice(0, 8)}@test.test`;
    const expired = new Date(Date.now() - 1_000);
    const keys = await db
      .insert(idempotencyKeys)
      .values(
        [expired, new Date(Date.now() + 86_400_000)].map((expiresAt) => ({
          workspaceId: workspace.id,
          operation: 'posts.create',
          key: randomUUID(),
          fingerprint: 'f',
          state: 'completed' as const,
          expiresAt,
        })),
      )
      .returning({ id: idempotencyKeys.id });
    const old = new Date(Date.now() - 60 * 60 * 1000);
    await db.insert(loginAttempts).values([
      { email, ip: '192.0.2.1', network: '192.0.2.1', succeeded: false, createdAt: old },
      { email, ip: '192.0.2.1', network: '192.0.2.1', succeeded: false, createdAt: old },
      { email, ip: '192.0.2.1', network: '192.0.2.1', succeeded: false },
    ]);
    const left = async () => ({
      keys: (
        await db
          .select()
          .from(idempotencyKeys)
          .where(
            inArray(
              idempotencyKeys.id,
              keys.map((k) => k.id),
            ),
          )
      ).length,
      attempts: (await db.select().from(loginAttempts).where(eq(loginAttempts.email, email))).length,
    });
    return { left };
  }

  it('prune-idempotency-keys and prune-login-attempts: delete only what expired and answer how many', async () => {
    const { left } = await expiredKeysAndOldAttempts();
    expect(await (await cron('prune-idempotency-keys')).json()).toEqual({ prunedIdempotencyKeys: 1 });
    expect(await left()).toEqual({ keys: 1, attempts: 3 });
    expect(await (await cron('prune-login-attempts')).json()).toEqual({ prunedLoginAttempts: 2 });
    expect(await left()).toEqual({ keys: 1, attempts: 1 });
  });

  it('maintenance (the old URL) runs the prune jobs and answers each summary by job name', async () => {
    const { left } = await expiredKeysAndOldAttempts();
    const before = { keys: await runsOf('prune-idempotency-keys'), attempts: await runsOf('prune-login-attempts') };
    const response = await cron('maintenance');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      'prune-idempotency-keys': { prunedIdempotencyKeys: 1 },
      'prune-login-attempts': { prunedLoginAttempts: 2 },
      'prune-webhooks': { prunedWebhookEvents: expect.any(Number) },
    });
    expect(await left()).toEqual({ keys: 1, attempts: 1 });
    expect(await runsOf('prune-idempotency-keys')).toBe(before.keys + 1);
    expect(await runsOf('prune-login-attempts')).toBe(before.attempts + 1);
  });

  it('every registry job answers 200 with a JSON summary on its own URL', async () => {
    for (const job of jobs) {
      const response = await cron(job.name);
      expect(response.status, job.name).toBe(200);
      expect(typeof (await response.json()), job.name).toBe('object');
    }
  });
});
