import { describe, expect, it } from 'vitest';
import { makeAccount, makeDelivery, makePost, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { SCHEDULER_LANES, startScheduler } from './scheduler';

const { db, sql } = await createTestDatabase({ max: 4 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the in-process scheduler', () => {
  it(`while deliveries keep falling due, a second pass starts during the first (at most ${SCHEDULER_LANES} at once)`, async () => {
    const workspace = await makeWorkspace(db);
    const account = await makeAccount(db, workspace.id, 'mastodon');
    const post = await makePost(db, workspace.id);
    // Due now and never claimed by the task below: every pass ends with the next delivery already due.
    await makeDelivery(db, { workspaceId: workspace.id, postId: post.id, accountId: account.id });

    let inFlight = 0;
    let most = 0;
    const starts: number[] = [];
    const pass = async () => {
      starts.push(performance.now());
      inFlight++;
      most = Math.max(most, inFlight);
      await sleep(100); // a pass: maintenance, claim, calls, outcomes
      inFlight--;
    };
    // A one-lane task after it (reconciliation): never two of its runs at once, however busy.
    let singleInFlight = 0;
    let singleMost = 0;
    let singleRuns = 0;
    const single = async () => {
      singleRuns++;
      singleInFlight++;
      singleMost = Math.max(singleMost, singleInFlight);
      await sleep(20);
      singleInFlight--;
    };
    const scheduler = startScheduler(db, sql, [
      { run: pass, overlaps: true },
      { run: single, overlaps: false },
    ]);
    await sleep(1_000);
    await scheduler.stop();
    while (inFlight > 0 || singleInFlight > 0) await sleep(10);

    expect(most, 'passes overlapped, and never more than the lanes').toBe(SCHEDULER_LANES);
    const overlapping = starts.filter((t, i) => i > 0 && t - starts[i - 1]! < 100).length;
    expect(overlapping, 'passes that started while the one before still ran').toBeGreaterThan(0);
    // Not starved: passes overlap all the time, and still about every other pass runs every task (a full pass is
    // 100 + 20 ms, so ~8 in the second).
    expect(singleRuns, 'the one-lane task kept running while the overlapping one was busy').toBeGreaterThanOrEqual(5);
    expect(singleMost, 'the one-lane task never ran twice at once').toBe(1);
    expect(starts.length, 'the overlapping task ran more often than the one-lane task').toBeGreaterThan(singleRuns);
  });

  it('with nothing due soon, one pass runs and the scheduler sleeps: no second lane', async () => {
    const { db: quiet, sql: quietSql } = await createTestDatabase({ max: 2 });
    let passes = 0;
    let inFlight = 0;
    let most = 0;
    const scheduler = startScheduler(quiet, quietSql, [
      {
        run: async () => {
          passes++;
          inFlight++;
          most = Math.max(most, inFlight);
          await sleep(60);
          inFlight--;
        },
        overlaps: true,
      },
    ]);
    await sleep(500);
    await scheduler.stop();
    expect(passes).toBe(1);
    expect(most).toBe(1);
  });
});
