import { createServer, type AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claimDueDeliveries, recordOutcomes, startAttempts } from '@/db/queries/deliveries';
import { deliveries, deliveryEvents } from '@/db/schema';
import { startTestSandbox } from '@/testing/sandbox';
import { publishDueDeliveries } from './publish-due';
import { attemptCount, deliveryStates, schedulePosts, testPublisherOptions } from '@/testing/publisher';

const sandbox = await startTestSandbox({ hangMs: 3_000 });
const { db } = sandbox;
const options = (overrides = {}) => testPublisherOptions(sandbox.url, overrides);
const expireLeases = () =>
  db.execute(sql`update claims set lease_expires_at = now() - interval '1 second' where released_at is null`);

describe('publishing — I1: at most once', () => {
  it('I1 — four publishers racing on the same due set publish each delivery exactly once', async () => {
    const a = await sandbox.connectAccount('x');
    const b = await sandbox.connectAccount('mastodon', a.workspaceId);
    const ids = [
      ...(await schedulePosts(db, {
        workspaceId: a.workspaceId,
        accountId: a.productAccountId,
        count: 40,
        label: sandbox.uniqueText('race x'),
      })),
      ...(await schedulePosts(db, {
        workspaceId: a.workspaceId,
        accountId: b.productAccountId,
        count: 40,
        label: sandbox.uniqueText('race m'),
      })),
    ];
    const summaries = await Promise.all(
      Array.from({ length: 4 }, () => publishDueDeliveries(db, options({ batchSize: 7, callTimeoutMs: 10_000 }))),
    );
    expect(summaries.reduce((n, s) => n + s.sent, 0)).toBe(80);
    expect(summaries.reduce((n, s) => n + s.claimed, 0)).toBe(80);
    const states = await deliveryStates(db, ids);
    expect([...states.values()].every((d) => d.status === 'sent' && d.externalId)).toBe(true);
    expect(await sandbox.copies(a.sandboxAccount.id)).toBe(40);
    expect(await sandbox.copies(b.sandboxAccount.id)).toBe(40);
    for (const id of ids.slice(0, 5)) expect(await attemptCount(db, id)).toBe(1);
  });

  it('I1 — a timeout after the platform committed is ambiguous and never re-sent', async () => {
    const a = await sandbox.connectAccount('x');
    await sandbox.setFaults(a.sandboxAccount.id, { timeoutAfterCommit: 1 });
    const [id] = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 1,
      label: sandbox.uniqueText('after commit'),
    });
    const first = await publishDueDeliveries(db, options({ callTimeoutMs: 300 }));
    expect(first.ambiguous).toBe(1);
    await publishDueDeliveries(db, options());
    await publishDueDeliveries(db, options());
    expect((await deliveryStates(db, [id!])).get(id!)!.status).toBe('ambiguous');
    expect(await attemptCount(db, id!)).toBe(1);
    expect(await sandbox.copies(a.sandboxAccount.id)).toBe(1);
  });
});

describe('publishing — I2: nothing lost', () => {
  it('I2 — a worker that crashed after claiming (no attempt) is released and the delivery published once', async () => {
    const a = await sandbox.connectAccount('x');
    const [id] = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 1,
      label: sandbox.uniqueText('crash after claim'),
    });
    const claimed = await claimDueDeliveries(db, { workerId: 'doomed', limit: 10, leaseMs: 30_000 });
    expect(claimed.map((c) => c.deliveryId)).toContain(id);
    await expireLeases(); // the worker died: its lease runs out
    const summary = await publishDueDeliveries(db, options());
    expect(summary.released).toBeGreaterThanOrEqual(1);
    expect((await deliveryStates(db, [id!])).get(id!)!.status).toBe('sent');
    expect(await sandbox.copies(a.sandboxAccount.id)).toBe(1);
  });

  it('I2 — a worker that crashed after its attempt started leaves the delivery ambiguous, not retried', async () => {
    const a = await sandbox.connectAccount('x');
    const [id] = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 1,
      label: sandbox.uniqueText('crash after attempt'),
    });
    const claimed = (await claimDueDeliveries(db, { workerId: 'doomed', limit: 10, leaseMs: 30_000 })).filter(
      (c) => c.deliveryId === id,
    );
    expect(await startAttempts(db, { claims: claimed, minLeaseMs: 0 })).toHaveLength(1);
    await expireLeases();
    await publishDueDeliveries(db, options());
    await publishDueDeliveries(db, options());
    expect((await deliveryStates(db, [id!])).get(id!)!.status).toBe('ambiguous');
    expect(await attemptCount(db, id!)).toBe(1);
    expect(await sandbox.copies(a.sandboxAccount.id)).toBe(0);
  });

  it('I2 — a delivery past the lateness limit is marked missed, not published late', async () => {
    const a = await sandbox.connectAccount('x');
    const [id] = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 1,
      label: sandbox.uniqueText('late'),
      scheduledAt: new Date(Date.now() - 2 * 3600_000),
    });
    await publishDueDeliveries(db, options());
    expect((await deliveryStates(db, [id!])).get(id!)!.status).toBe('missed');
    expect(await sandbox.copies(a.sandboxAccount.id)).toBe(0);
  });
});

describe('publishing — I2: maintenance once an interval (the scheduler’s passes)', () => {
  it('I2 — a pass that claims something within the interval skips maintenance, yet never publishes late; the next pass with nothing to claim sweeps and marks', async () => {
    const a = await sandbox.connectAccount('x');
    const shared = options({ maintainEveryMs: 60_000 });
    await publishDueDeliveries(db, shared); // the first pass of the interval maintains
    const [crashed] = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 1,
      label: sandbox.uniqueText('lapsed lease in the interval'),
    });
    expect((await claimDueDeliveries(db, { workerId: 'doomed', limit: 10, leaseMs: 30_000 })).length).toBe(1);
    await expireLeases(); // its worker died
    const lateText = sandbox.uniqueText('late in the interval');
    const [late] = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 1,
      label: lateText,
      scheduledAt: new Date(Date.now() - 2 * 3600_000),
    });
    const [fresh] = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 1,
      label: sandbox.uniqueText('fresh in the interval'),
    });

    const busy = await publishDueDeliveries(db, shared);
    expect(busy.claimed, 'only the fresh one: the late one is never claimed').toBe(1);
    expect(busy.released, 'no sweep within the interval').toBe(0);
    const states = await deliveryStates(db, [crashed!, late!, fresh!]);
    expect(states.get(fresh!)!.status).toBe('sent');
    expect(states.get(late!)!.status, 'not yet marked, and not published').toBe('scheduled');
    expect(states.get(crashed!)!.status).toBe('publishing');

    const idle = await publishDueDeliveries(db, shared); // nothing claimable: it maintains whatever the interval
    expect(idle.missed).toBe(1);
    expect(idle.released).toBe(1);
    const after = await deliveryStates(db, [crashed!, late!]);
    expect(after.get(late!)!.status).toBe('missed');
    expect(after.get(crashed!)!.status, 'released, then published in the same pass').toBe('sent');
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, lateText)).toBe(0);
    expect(await attemptCount(db, crashed!)).toBe(1);
  });
});

describe('publishing — I4: fencing', () => {
  it('I4 — an outcome written with a stale claim generation is rejected', async () => {
    const a = await sandbox.connectAccount('x');
    const [id] = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 1,
      label: sandbox.uniqueText('stale'),
    });
    const [first] = (await claimDueDeliveries(db, { workerId: 'slow', limit: 50, leaseMs: 30_000 })).filter(
      (c) => c.deliveryId === id,
    );
    await expireLeases();
    await db.execute(sql`select 1`);
    // The sweeper releases the lapsed claim; a second worker claims generation 2.
    const { sweepExpiredClaims } = await import('@/db/queries/deliveries');
    await sweepExpiredClaims(db);
    const [second] = (await claimDueDeliveries(db, { workerId: 'fresh', limit: 50, leaseMs: 30_000 })).filter(
      (c) => c.deliveryId === id,
    );
    expect(second!.generation).toBe(first!.generation + 1);
    const stale = await recordOutcomes(db, {
      actor: 'worker:slow',
      outcomes: [
        {
          deliveryId: id!,
          generation: first!.generation,
          attemptId: null,
          outcome: 'sent',
          status: 'sent',
          externalId: 'late',
          reason: 'late write',
        },
      ],
    });
    expect(stale).toEqual([]);
    expect((await deliveryStates(db, [id!])).get(id!)!.status).toBe('publishing');
    const current = await recordOutcomes(db, {
      actor: 'worker:fresh',
      outcomes: [
        {
          deliveryId: id!,
          generation: second!.generation,
          attemptId: null,
          outcome: 'failed',
          status: 'failed',
          reason: 'test',
        },
      ],
    });
    expect(current).toEqual([id]);
    // A repeated (replayed) outcome after settlement changes nothing either.
    expect(
      await recordOutcomes(db, {
        actor: 'worker:fresh',
        outcomes: [
          {
            deliveryId: id!,
            generation: second!.generation,
            attemptId: null,
            outcome: 'sent',
            status: 'sent',
            reason: 'replay',
          },
        ],
      }),
    ).toEqual([]);
    expect((await deliveryStates(db, [id!])).get(id!)!.status).toBe('failed');
  });
});

describe('publishing — not sent and rate limits', () => {
  it('a platform 429 defers the delivery (same delivery, later), then it is sent once', async () => {
    const a = await sandbox.connectAccount('x');
    await sandbox.setFaults(a.sandboxAccount.id, { rateLimited: 1 });
    const [id] = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 1,
      label: sandbox.uniqueText('429'),
    });
    const first = await publishDueDeliveries(db, options());
    expect(first.not_sent).toBe(1);
    const after429 = (await deliveryStates(db, [id!])).get(id!)!;
    expect(after429.status).toBe('scheduled');
    expect(after429.dueAt.getTime()).toBeGreaterThan(Date.now());
    await sandbox.setFaults(a.sandboxAccount.id, {});
    await db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id!)); // the reset time has come
    const second = await publishDueDeliveries(db, options());
    expect(second.sent).toBe(1);
    expect(await sandbox.copies(a.sandboxAccount.id)).toBe(1);
    const history = await db
      .select({ to: deliveryEvents.toStatus })
      .from(deliveryEvents)
      .where(eq(deliveryEvents.deliveryId, id!))
      .orderBy(deliveryEvents.id);
    expect(history.map((h) => h.to)).toEqual(['scheduled', 'publishing', 'scheduled', 'publishing', 'sent']);
  });

  it('the per-account rate limit defers the excess instead of failing it', async () => {
    const a = await sandbox.connectAccount('x');
    const ids = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 5,
      label: sandbox.uniqueText('limited'),
    });
    const summary = await publishDueDeliveries(db, options({ rateLimits: { sandbox: { max: 2, windowSeconds: 60 } } }));
    expect(summary.sent).toBe(2);
    expect(summary.deferred).toBe(3);
    const states = [...(await deliveryStates(db, ids)).values()];
    expect(states.filter((s) => s.status === 'scheduled')).toHaveLength(3);
    expect(await sandbox.copies(a.sandboxAccount.id)).toBe(2);
  });

  it('a refused connection is not_sent: back to scheduled with a backoff, nothing on the platform', async () => {
    const a = await sandbox.connectAccount('x');
    const [id] = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 1,
      label: sandbox.uniqueText('refused'),
    });
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const summary = await publishDueDeliveries(db, options({ origin: `http://127.0.0.1:${closedPort}` }));
    expect(summary.not_sent).toBe(1);
    const state = (await deliveryStates(db, [id!])).get(id!)!;
    expect(state.status).toBe('scheduled');
    expect(state.dueAt.getTime()).toBeGreaterThan(Date.now());
  });
});
