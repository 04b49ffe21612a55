// `npm run worker` as deployed: its own process on the same Postgres, publishing to the sandbox over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { insertPostWithDeliveries } from '@/db/queries/posts';
import { notifyDue } from '@/db/queries/publishing';
import { lastTestDatabaseUrl } from '@/testing/db/test-database';
import { startTestSandbox } from '@/testing/sandbox';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';

let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function startWorker() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.mts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: lastTestDatabaseUrl(),
      APP_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      NEXTAUTH_SECRET: 'worker-test-secret-'.padEnd(40, 'x'),
      CRON_SECRET: 'worker-test-cron-secret',
      // Sandbox accounts have relative base URLs: they resolve against this origin.
      PORT: new URL(sandbox.url).port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function schedule(productAccountId: string, workspaceId: string, text: string, inMs = 0) {
  const created = await insertPostWithDeliveries(sandbox.db, {
    post: { workspaceId, text, scheduledAt: new Date(Date.now() + inMs), source: 'api', idempotencyKey: text },
    accountIds: [productAccountId],
    actor: 'test',
  });
  await notifyDue(sandbox.db);
  return created!.deliveries[0]!.id;
}

const statusOf = async (deliveryId: string) =>
  [...(await sandbox.db.execute<{ status: string }>(sql`select status from deliveries where id = ${deliveryId}`))][0]!
    .status;

describe('npm run worker', () => {
  it('publishes a post due now and one falling due while it runs, once each, then stops on SIGTERM', async () => {
    const account = await sandbox.connectAccount('mastodon');
    const first = sandbox.uniqueText('worker due now');
    const firstId = await schedule(account.productAccountId, account.workspaceId, first);
    const worker = startWorker();

    expect(
      await waitFor(
        () => statusOf(firstId),
        (s) => s === 'sent',
      ),
    ).toBe('sent');
    // Due in a second, announced by NOTIFY: the worker's scheduler wakes for it like the web process's does.
    const second = sandbox.uniqueText('worker due soon');
    const secondId = await schedule(account.productAccountId, account.workspaceId, second, 1_000);
    expect(
      await waitFor(
        () => statusOf(secondId),
        (s) => s === 'sent',
      ),
    ).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, first)).toBe(1);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, second)).toBe(1);

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toContain('worker stopped');
  }, 60_000);

  it('on SIGTERM during a platform call, records the outcome before it exits', async () => {
    const account = await sandbox.connectAccount('x');
    await sandbox.setFaults(account.sandboxAccount.id, { latencyMs: 2_000 });
    const text = sandbox.uniqueText('worker graceful');
    const deliveryId = await schedule(account.productAccountId, account.workspaceId, text);
    const worker = startWorker();

    // The attempt row is written just before the call: from here the call is in flight for ~2 s.
    const started = await waitFor(
      async () =>
        [
          ...(await sandbox.db.execute<{ n: number }>(
            sql`select count(*)::int as n from attempts where delivery_id = ${deliveryId} and finished_at is null`,
          )),
        ][0]!.n,
      (n) => n > 0,
    );
    expect(started).toBe(1);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(await statusOf(deliveryId)).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  }, 60_000);
});
