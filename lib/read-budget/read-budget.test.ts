import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accountReadLock, countReadsByPurpose } from '@/db/queries/read-budget';
import { platformReads } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { deliveryStates, schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { holdLock, settled, untilBlocked } from '@/testing/race';
import { startTestSandbox } from '@/testing/sandbox';
import { pruneOldPlatformReads } from './prune';
import { readCap, takeReadBudget, type ReadBudgetAccount, type ReadBudgetOptions } from './take';

const sandbox = await startTestSandbox();
const { db } = sandbox;

// Ten calls an hour per account, half of them kept for publishing: reads may spend five.
const LIMITS: ReadBudgetOptions = { rateLimits: { sandbox: { max: 10, windowSeconds: 3600 } }, reservedShare: 0.5 };

const onPlatform = new Map<string, string>(); // product account id → sandbox account id
async function account(): Promise<ReadBudgetAccount> {
  const a = await sandbox.connectAccount('x');
  onPlatform.set(a.productAccountId, a.sandboxAccount.id);
  return { id: a.productAccountId, workspaceId: a.workspaceId, provider: 'x', sandbox: true };
}
const read = (a: ReadBudgetAccount, calls = 1, options = LIMITS) =>
  takeReadBudget(db, { account: a, calls, purpose: 'metrics' }, options);
const publish = (rateLimits = LIMITS.rateLimits) =>
  publishDueDeliveries(db, testPublisherOptions(sandbox.url, { rateLimits }));
const due = (a: ReadBudgetAccount, count: number) =>
  schedulePosts(db, { workspaceId: a.workspaceId, accountId: a.id, count, label: sandbox.uniqueText('budget') });

describe('the read budget: reads spend what publishing leaves, never its reserved share', () => {
  it('the readable part is the limit less the reserved share', () => {
    expect(readCap({ max: 10 }, 0.5)).toBe(5);
    expect(readCap({ max: 15 }, 0.5)).toBe(7);
    expect(readCap({ max: 6 }, 1)).toBe(0);
  });

  it('twenty parallel readers on real connections take exactly the five calls reads may spend', async () => {
    const a = await account();
    const grants = await Promise.all(Array.from({ length: 20 }, () => read(a)));
    expect(grants.filter((g) => g.granted)).toHaveLength(5);
    expect(
      (await countReadsByPurpose(db, { accountId: a.id, since: new Date(Date.now() - 60_000) })).get('metrics'),
    ).toBe(5);
    const refused = grants.find((g) => !g.granted);
    expect(refused && !refused.granted && refused.retryAt.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
  });

  it('readers wait for the account lock: one holding it delays the others, none slips past the count', async () => {
    const a = await account();
    // A reader holds the account's lock with four calls recorded and not yet committed.
    const release = await holdLock(
      db,
      sql`with lock as (${accountReadLock(a.id)})
        insert into platform_reads (workspace_id, account_id, purpose, calls)
        select ${a.workspaceId}, ${a.id}, 'inbox', 4 from lock`,
    );
    const racing = Promise.all([read(a), read(a)]);
    await untilBlocked(db, 'select pg_advisory_xact_lock', 2);
    const waiting = settled(racing);
    expect(waiting.done).toBe(false);
    await release();
    // The holder's four calls were committed before either racer counted: one more fits, not two.
    expect((await racing).filter((g) => g.granted)).toHaveLength(1);
  });

  it('publishing counts reads, yet with the budget nearly spent publishing still goes first', async () => {
    const a = await account();
    // Publishing has used 3 of the 10 calls: reads may take only 2 more before their cap of 5.
    await due(a, 3);
    expect((await publish()).sent).toBe(3);
    expect((await Promise.all([read(a), read(a), read(a)])).filter((g) => g.granted)).toHaveLength(2);
    // 3 attempts + 2 reads: reads are spent, but the reserved calls remain for publishing.
    expect((await read(a)).granted).toBe(false);
    const ids = await due(a, 6);
    const summary = await publish();
    expect(summary.sent).toBe(5);
    expect(summary.deferred).toBe(1);
    const states = [...(await deliveryStates(db, ids)).values()];
    expect(states.filter((s) => s.status === 'sent')).toHaveLength(5);
    expect(await sandbox.copies(onPlatform.get(a.id)!)).toBe(8);
    // The window is full: a read is refused, with the time the oldest use leaves the window.
    const last = await read(a);
    expect(last.granted).toBe(false);
  });

  it('a publisher racing a crowd of readers always gets its reserved share', async () => {
    const a = await account();
    const ids = await due(a, 5);
    const [summary, ...grants] = await Promise.all([publish(), ...Array.from({ length: 12 }, () => read(a))]);
    expect(summary.sent).toBe(5);
    expect(grants.filter((g) => g.granted).length).toBeLessThanOrEqual(5);
    expect([...(await deliveryStates(db, ids)).values()].every((s) => s.status === 'sent')).toBe(true);
  });

  it('a read larger than the readable part is refused whole; an account without a limit reads freely, uncounted', async () => {
    const a = await account();
    expect((await read(a, 6)).granted).toBe(false);
    expect((await read(a, 5)).granted).toBe(true);
    const free = await read(a, 50, { rateLimits: {}, reservedShare: 0.5 });
    expect(free).toEqual({ granted: true, unlimited: true, readsLeft: null });
    const rows = await db.select().from(platformReads).where(eq(platformReads.accountId, a.id));
    expect(rows.map((r) => r.calls)).toEqual([5]);
  });

  it('reads older than every window are pruned', async () => {
    const a = await account();
    await read(a, 2);
    await db.execute(sql`update platform_reads set taken_at = now() - interval '2 days' where account_id = ${a.id}`);
    await read(a, 1);
    const pruned = await pruneOldPlatformReads(db, { rateLimits: LIMITS.rateLimits });
    expect(pruned).toBeGreaterThanOrEqual(1);
    const left = await db.select().from(platformReads).where(eq(platformReads.accountId, a.id));
    expect(left.map((r) => r.calls)).toEqual([1]);
  });
});
