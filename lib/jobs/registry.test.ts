import { describe, expect, it } from 'vitest';
import { defineJob } from './job';
import { aliasedJobs, findJob, jobAliases, jobs } from './registry';

describe('the job registry', () => {
  it('every job has a URL-safe name and a cadence the scheduler knows', () => {
    for (const job of jobs) {
      expect(job.name).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
      if (job.cadence !== 'due') expect(job.cadence.everyMs, job.name).toBeGreaterThan(0);
      expect(typeof job.run, job.name).toBe('function');
    }
  });

  it('names are unique, and no alias hides a job of the same name', () => {
    const names = jobs.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    for (const alias of Object.keys(jobAliases)) expect(names).not.toContain(alias);
  });

  it('holds the jobs the scheduler, the worker and the cron routes run', () => {
    expect(jobs.map((job) => [job.name, job.cadence === 'due' ? 'due' : 'interval'])).toEqual([
      ['publish', 'due'],
      ['reconcile', 'due'],
      ['watch-late-copies', 'interval'],
      ['prune-idempotency-keys', 'interval'],
      ['prune-login-attempts', 'interval'],
      ['prune-sessions', 'interval'],
      ['refresh-tokens', 'interval'],
      ['webhooks', 'interval'],
      ['prune-webhooks', 'interval'],
      ['prune-media', 'interval'],
      ['prune-platform-events', 'interval'],
      ['prune-platform-reads', 'interval'],
      ['notifications', 'interval'],
      ['purge-workspaces', 'interval'],
      ['inbox', 'interval'],
      ['evergreen', 'interval'],
      ['feeds', 'interval'],
      ['metrics', 'interval'],
      ['client-reports', 'interval'],
    ]);
  });

  it('finds jobs and aliases by exact name only', () => {
    expect(findJob('publish')).toBe(jobs[0]);
    expect(aliasedJobs('maintenance')?.map((job) => job.name)).toEqual([
      'prune-idempotency-keys',
      'prune-login-attempts',
      'prune-webhooks',
    ]);
    for (const name of ['Publish', 'constructor', 'toString', '__proto__', '']) {
      expect(findJob(name), name).toBeNull();
      expect(aliasedJobs(name), name).toBeNull();
    }
  });

  it('every job reads its defaults from the validated environment without throwing', () => {
    for (const job of jobs) expect(job.defaults(), job.name).toBeTypeOf('object');
  });

  it('an incomplete definition does not compile (checked by tsc)', () => {
    // @ts-expect-error a job without a cadence is refused by the compiler
    const incomplete = defineJob({ name: 'incomplete', run: async () => ({}), defaults: () => ({}) });
    expect(incomplete.name).toBe('incomplete');
  });
});
