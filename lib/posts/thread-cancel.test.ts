import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claims } from '@/db/schema';
import { holdLock, settled, untilBlocked } from '@/testing/race';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { deliveryStates, scheduleThread, testPublisherOptions } from '@/testing/publisher';
import { startTestSandbox } from '@/testing/sandbox';
import { cancelPost } from './cancel';

// I1, I2 for a thread canceled while the publisher runs: it is canceled whole (nothing published) or published
// whole (the cancel refused) — never its first part published and the rest canceled. Both sides are forced.

const sandbox = await startTestSandbox();
const { db } = sandbox;
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: 5_000 }));

async function newThread() {
  const account = await sandbox.connectAccount('x');
  const texts = [1, 2, 3].map((k) => `${sandbox.uniqueText('cancel race')} ${k}/3`);
  const { postId, byAccount } = await scheduleThread(db, {
    workspaceId: account.workspaceId,
    accountIds: [account.productAccountId],
    parts: texts,
  });
  const ids = byAccount.get(account.productAccountId)!;
  const statuses = async () => {
    const states = await deliveryStates(db, ids);
    return ids.map((id) => states.get(id)!.status);
  };
  const copies = async () =>
    (await Promise.all(texts.map((t) => sandbox.copiesOfText(account.sandboxAccount.id, t)))).reduce((a, b) => a + b);
  const cancel = () => cancelPost(db, { workspaceId: account.workspaceId, postId, actor: 'test' });
  return { ids, statuses, copies, cancel };
}

describe('canceling a thread races the publisher', () => {
  it('I2 — the cancel first: the whole thread is canceled and the publisher, running meanwhile, claims none of it', async () => {
    const thread = await newThread();
    // The cancel has locked the first part and waits on the last (held here) while a whole publisher pass runs.
    const release = await holdLock(db, sql`select 1 from deliveries where id = ${thread.ids[2]} for update`);
    const canceling = thread.cancel();
    const cancelState = settled(canceling);
    await untilBlocked(db, '%with heads as');
    await publish();
    expect(cancelState.done).toBe(false); // the pass ran while the cancel was in flight
    expect(await db.select().from(claims).where(inArray(claims.deliveryId, thread.ids))).toHaveLength(0);
    await release();
    const canceled = await canceling;
    expect(canceled).toMatchObject({ kind: 'ok', canceledDeliveryIds: expect.arrayContaining(thread.ids) });
    await publish();
    expect(await thread.statuses()).toEqual(['canceled', 'canceled', 'canceled']);
    expect(await thread.copies()).toBe(0);
  });

  it('I1 — the publisher first: the cancel, made while part 1 is on its way, is refused; the whole thread goes out once', async () => {
    const thread = await newThread();
    // The publisher has claimed part 1 and is inside the platform call (the sandbox's insert is held).
    const release = await holdLock(db, sql`lock table sandbox.posts in share mode`);
    const publishing = publish();
    const publisherState = settled(publishing);
    await untilBlocked(db, 'insert into "sandbox"."posts"');
    const refused = await thread.cancel();
    expect(publisherState.done).toBe(false); // the cancel ran while the publisher was in flight
    expect(refused).toMatchObject({ kind: 'conflict', reason: 'not_cancelable' });
    expect(await thread.statuses()).toEqual(['publishing', 'scheduled', 'scheduled']); // nothing canceled
    await release();
    await publishing;
    expect(await thread.statuses()).toEqual(['sent', 'sent', 'sent']);
    expect(await thread.copies()).toBe(3);
  });
});
