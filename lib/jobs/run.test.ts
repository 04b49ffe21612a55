import { describe, expect, it } from 'vitest';
import { makeExpiredIdempotencyKey, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { metrics } from '@/lib/metrics/registry';
import { sampleOrZero } from '@/testing/metrics';
import { defineJob } from './job';
import { pruneIdempotencyKeysJob } from './prune-idempotency-keys';
import { runJob } from './run';

const { db } = await createTestDatabase();
const counted = async (name: string, job: string) => sampleOrZero(await metrics().registry.metrics(), name, { job });

describe('runJob', () => {
  it('runs the job with its defaults on the database, counting the run and no failure', async () => {
    const workspace = await makeWorkspace(db);
    await makeExpiredIdempotencyKey(db, workspace.id);
    const before = {
      runs: await counted('semel_job_runs_total', 'prune-idempotency-keys'),
      failures: await counted('semel_job_failures_total', 'prune-idempotency-keys'),
    };
    expect(await runJob(db, pruneIdempotencyKeysJob)).toEqual({ prunedIdempotencyKeys: 1 });
    expect(await counted('semel_job_runs_total', 'prune-idempotency-keys')).toBe(before.runs + 1);
    expect(await counted('semel_job_failures_total', 'prune-idempotency-keys')).toBe(before.failures);
  });

  it('passes given options instead of the defaults', async () => {
    const job = defineJob({
      name: 'echo-options',
      run: async (_db, options: { limit: number }) => options,
      defaults: () => ({ limit: 1 }),
      cadence: 'due',
    });
    expect(await runJob(db, job)).toEqual({ limit: 1 });
    expect(await runJob(db, job, { limit: 7 })).toEqual({ limit: 7 });
  });

  it('counts a failure — of the run or of reading the defaults — and rethrows it', async () => {
    const failing = defineJob({
      name: 'failing-run',
      run: async () => Promise.reject(new Error('boom')),
      defaults: () => ({}),
      cadence: 'due',
    });
    const badDefaults = defineJob({
      name: 'failing-defaults',
      run: async () => ({}),
      defaults: (): object => {
        throw new Error('bad env');
      },
      cadence: 'due',
    });
    await expect(runJob(db, failing)).rejects.toThrow('boom');
    await expect(runJob(db, badDefaults)).rejects.toThrow('bad env');
    for (const job of ['failing-run', 'failing-defaults']) {
      expect(await counted('semel_job_runs_total', job)).toBe(1);
      expect(await counted('semel_job_failures_total', job)).toBe(1);
    }
  });
});
