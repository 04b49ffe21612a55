import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claimDueDeliveries, startAttempts } from '@/db/queries/deliveries';
import { attempts, deliveries, reconciliations } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { attemptCount, deliveryStates, schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import { newSandboxIdentity } from '@/sandbox/oauth/tokens';
import type { FaultSettings, NewSandboxPost } from '@/sandbox/store/types';
import { sendOnce, type HttpRequest } from '@/lib/net/send';
import type { ProviderTransport } from '../transport';
import { recordKeyFor } from './tid';

// The exactly-once proof on Bluesky, end to end: the real publisher and reconciler, the real client, the
// sandbox's PDS dialect on Postgres, and its faults. Copies are counted on the platform's own records.

const CALL_TIMEOUT_MS = 300;
const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db, store } = sandbox;
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: CALL_TIMEOUT_MS }));
const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!;
const checks = (id: string) =>
  db.select().from(reconciliations).where(eq(reconciliations.deliveryId, id)).orderBy(reconciliations.checkedAt);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dueNow = (id: string) => db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id));

/** The reconciler's calls to one account's PDS (other tests' deliveries may be checked in the same pass). */
function reconcileCounting(did: string) {
  const calls: HttpRequest[] = [];
  const transport: ProviderTransport = (request) => {
    if (decodeURIComponent(request.url).includes(did)) calls.push(request);
    return sendOnce(request);
  };
  return { calls, run: () => reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url, { transport })) };
}

/** What the sandbox's store did under one record key, in order: reads by the key and inserts. */
function watchKey(recordKey: () => string | undefined) {
  const events: string[] = [];
  const { insertPost, getPostByRecordKey } = store;
  store.insertPost = async (input: NewSandboxPost & { refuseDuplicateSince?: Date }) => {
    const post = await insertPost(input);
    if (input.recordKey && input.recordKey === recordKey()) events.push(post ? 'insert:stored' : 'insert:refused');
    return post;
  };
  store.getPostByRecordKey = async (accountId: string, key: string) => {
    const post = await getPostByRecordKey(accountId, key);
    if (key === recordKey()) events.push(post ? 'read:present' : 'read:absent');
    return post;
  };
  return {
    events,
    stop: () => Object.assign(store, { insertPost, getPostByRecordKey }),
  };
}

async function ambiguousDelivery(faults: Partial<FaultSettings>, label = sandbox.uniqueText('bluesky once')) {
  const account = await sandbox.connectAccount('bluesky');
  await sandbox.setFaults(account.sandboxAccount.id, faults);
  const [id] = await schedulePosts(db, {
    workspaceId: account.workspaceId,
    accountId: account.productAccountId,
    count: 1,
    label,
  });
  await publish();
  expect((await status(id!)).status).toBe('ambiguous');
  // The PDS answers normally again for the reads (a slow write already under way still lands).
  await sandbox.setFaults(account.sandboxAccount.id, {});
  const [first] = await db.select().from(attempts).where(eq(attempts.deliveryId, id!));
  const rkey = recordKeyFor(id!, first!.startedAt);
  return { id: id!, account, rkey, uri: `at://${account.platformUserId}/app.bsky.feed.post/${rkey}` };
}

describe('Bluesky: an unknown outcome is settled by one read of the record key', () => {
  const cases = [
    ['a timeout after the PDS committed', { timeoutAfterCommit: 1 }, 0],
    ['a connection reset after the PDS committed', { resetAfterCommit: 1 }, 0],
    ['slow processing (the record lands after our timeout)', { processingMs: 1_000 }, 1_100],
  ] as const;
  for (const [name, faults, landsAfterMs] of cases) {
    it(`I1 — ${name}: ambiguous, then ONE getRecord finds it → sent; one record, one attempt`, async () => {
      const { id, account, uri } = await ambiguousDelivery(faults);
      await sleep(landsAfterMs);
      await dueNow(id); // the publisher set the first check after the call timeout; a reset answers sooner
      const reconciler = reconcileCounting(account.platformUserId);
      await reconciler.run();
      expect(await status(id)).toMatchObject({ status: 'sent', externalId: uri });
      expect(reconciler.calls.map((c) => `${c.method} ${new URL(c.url).pathname.split('/').pop()}`)).toEqual([
        'GET com.atproto.repo.getRecord',
      ]);
      expect((await checks(id)).map((c) => [c.decision, c.strategy])).toEqual([['found', 'bluesky-record-key']]);
      expect(await attemptCount(db, id)).toBe(1);
      expect(await store.listAllPosts(account.sandboxAccount.id)).toHaveLength(1);
    });
  }

  it('I1 — not created yet: absent by its key → released at once → republished under the same key; the slow first write meets it: exactly one record', async () => {
    let key: string | undefined;
    const watch = watchKey(() => key);
    try {
      const { id, account, rkey, uri } = await ambiguousDelivery({ processingMs: 1_500 });
      key = rkey;
      await dueNow(id);
      const reconciler = reconcileCounting(account.platformUserId);
      await reconciler.run(); // the first write is still sleeping on the PDS: the key is empty
      expect((await checks(id)).map((c) => c.decision)).toEqual(['released']);
      expect(reconciler.calls).toHaveLength(1);
      expect((await status(id)).status).toBe('scheduled');
      await publish();
      expect(await status(id)).toMatchObject({ status: 'sent', externalId: uri });
      await sleep(1_600); // the first attempt's write now reaches the store
      // Both sides of the race happened: the reconciler's read and the republish found the key empty, the
      // republish stored the record, and the first attempt's late write found it there (nothing stored).
      expect(watch.events).toEqual(['read:absent', 'read:absent', 'insert:stored', 'read:present']);
      const all = await store.listAllPosts(account.sandboxAccount.id);
      expect(all).toHaveLength(1);
      expect(all[0]!.recordKey).toBe(rkey);
      expect(await attemptCount(db, id)).toBe(2);
    } finally {
      watch.stop();
    }
  });

  it('I2 — a worker that died after its attempt started: no attempt evidence, the key alone settles it (released, published once)', async () => {
    const account = await sandbox.connectAccount('bluesky');
    const [id] = await schedulePosts(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      count: 1,
      label: sandbox.uniqueText('crash after attempt'),
    });
    const claimed = (await claimDueDeliveries(db, { workerId: 'doomed', limit: 50, leaseMs: 30_000 })).filter(
      (c) => c.deliveryId === id,
    );
    expect(await startAttempts(db, { claims: claimed, minLeaseMs: 0 })).toHaveLength(1);
    await db.execute(sql`update claims set lease_expires_at = now() - interval '1 second' where delivery_id = ${id}`);
    await publish(); // sweeps the lapsed claim: the call may have started, so ambiguous
    expect((await status(id!)).status).toBe('ambiguous');
    await dueNow(id!);
    const reconciler = reconcileCounting(account.platformUserId);
    await reconciler.run();
    expect((await checks(id!)).map((c) => c.decision)).toEqual(['released']);
    await publish();
    expect((await status(id!)).status).toBe('sent');
    expect(await store.listAllPosts(account.sandboxAccount.id)).toHaveLength(1);
  });

  it('I1 — a resend that meets a different record (InvalidSwap) is ambiguous, never failed, and one getRecord settles it', async () => {
    // A mention that does not resolve at the first attempt resolves at the second: the two records differ.
    const handle = `later-${randomUUID().slice(0, 8)}.bsky.sandbox`;
    // The first write is slow: the read by key finds nothing yet → released; the write then lands.
    const { id, account, uri } = await ambiguousDelivery({ processingMs: 3_000 }, `hello @${handle}`);
    await dueNow(id);
    await reconcileCounting(account.platformUserId).run();
    expect((await checks(id)).map((c) => c.decision)).toEqual(['released']);
    await sleep(3_100);
    const friend = newSandboxIdentity('bluesky');
    await store.registerAccount({
      platform: 'bluesky',
      platformUserId: friend.platformUserId,
      handle,
      token: friend.token,
    });
    await publish();
    const [, second] = await db.select().from(attempts).where(eq(attempts.deliveryId, id)).orderBy(attempts.startedAt);
    expect(second).toMatchObject({ outcome: 'ambiguous', httpStatus: 400 });
    expect((await status(id)).status).toBe('ambiguous');
    await dueNow(id);
    const reconciler = reconcileCounting(account.platformUserId);
    await reconciler.run();
    expect(await status(id)).toMatchObject({ status: 'sent', externalId: uri });
    expect(reconciler.calls).toHaveLength(1);
    const all = await store.listAllPosts(account.sandboxAccount.id);
    expect(all).toHaveLength(1);
    expect(all[0]!.record!.facets).toBeUndefined(); // the first record, never overwritten
    expect(await attemptCount(db, id)).toBe(2);
  });
});
