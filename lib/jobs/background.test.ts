import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { idempotencyKeys } from '@/db/schema';
import { makeExpiredIdempotencyKey, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { metrics } from '@/lib/metrics/registry';
import { sampleOrZero } from '@/testing/metrics';
import { startBackgroundJobs } from './background';
import { defineJob } from './job';
import { pruneIdempotencyKeysJob } from './prune-idempotency-keys';

const { db, sql } = await createTestDatabase();
const runsOf = async (job: string) => sampleOrZero(await metrics().registry.metrics(), 'semel_job_runs_total', { job });

async function waitFor(done: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('startBackgroundJobs', () => {
  it('runs an interval job on its cadence, counted, until stopped', async () => {
    const workspace = await makeWorkspace(db);
    await makeExpiredIdempotencyKey(db, workspace.id);
    const work = startBackgroundJobs(db, sql, [{ ...pruneIdempotencyKeysJob, cadence: { everyMs: 30 } }]);
    await waitFor(async () => (await runsOf('prune-idempotency-keys')) >= 2);
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.workspaceId, workspace.id))).toEqual([]);
    await work.stop();
    const stopped = await runsOf('prune-idempotency-keys');
    await new Promise((resolve) => setTimeout(resolve, 150)); // five intervals: none may start a run now
    expect(await runsOf('prune-idempotency-keys')).toBe(stopped);
  });

  it('stop waits for the run in flight to finish; no run overlaps it or starts after it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const events: string[] = [];
    const slow = defineJob({
      name: 'slow-interval',
      run: async () => {
        events.push('started');
        await gate;
        events.push('finished');
        return {};
      },
      defaults: () => ({}),
      cadence: { everyMs: 20 },
    });
    const work = startBackgroundJobs(db, sql, [slow]);
    await waitFor(async () => events.includes('started'));
    const stopping = work.stop(10_000).then(() => events.push('stopped'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events).toEqual(['started']); // five intervals passed: no second run joined the one in flight, which stop awaits
    release();
    await stopping;
    expect(events).toEqual(['started', 'finished', 'stopped']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events).toEqual(['started', 'finished', 'stopped']);
  });
});
