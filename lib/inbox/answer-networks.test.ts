import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, posts } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { sendInbound } from '@/sandbox/behaviour/inbound';
import { recordUri } from '@/sandbox/dialects/bluesky/records';
import { tidOf } from '@/sandbox/dialects/bluesky/tid';
import type { FaultSettings, SandboxPost } from '@/sandbox/store/types';
import { storeInboxItem } from '@/testing/inbox';
import { testPublisherOptions } from '@/testing/publisher';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import { answerInboxItem } from './answer';

// Answering under faults, per network Semel answers on (docs/inbox.md#answering): a reply to one of the sandbox's
// people, sent through the real publisher and settled by the real reconciler while the platform times out or fails
// after storing it. Each ends as exactly one reply on the platform's own records (sent), or in review — never two.

const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db, store } = sandbox;
const CALL_TIMEOUT_MS = 400;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;
type Network = 'x' | 'mastodon' | 'bluesky' | 'threads';

/** Our post a day old, and a person's reply under it; the reply's id as the inbox knows it. */
async function repliedTo(network: Network, a: Account): Promise<{ reply: SandboxPost; platformId: string }> {
  const text = sandbox.uniqueText('ours');
  const at = new Date(Date.now() - 86_400_000);
  const recordKey = network === 'bluesky' ? tidOf(BigInt(at.getTime()) * 1000n, 3) : null;
  const post = await store.insertPost({
    account: a.sandboxAccount,
    kind: 'post',
    text,
    ...(recordKey ? { recordKey, record: { $type: 'app.bsky.feed.post', text, createdAt: at.toISOString() } } : {}),
  });
  const reply = await sendInbound(store, a.sandboxAccount, { kind: 'reply', text: 'Is it out yet?', replyTo: post! });
  const person = (await store.getAccountById(reply.accountId))!;
  return { reply, platformId: network === 'bluesky' ? recordUri(person, reply.recordKey!) : reply.id };
}

const FAULTS: [string, Partial<FaultSettings>][] = [
  ['timeout after commit', { timeoutAfterCommit: 1 }],
  ['502 after commit', { errorAfterCommit: 1 }],
  ['reset after commit', { resetAfterCommit: 1 }],
  ['timeout before commit', { timeoutBeforeCommit: 1 }],
];

describe.each(['x', 'mastodon', 'bluesky', 'threads'] as Network[])('answering on %s under faults', (network) => {
  it.each(FAULTS)('%s: exactly one reply on the platform, or review; never two', async (_name, faults) => {
    const a = await sandbox.connectAccount(network);
    const { platformId } = await repliedTo(network, a);
    const item = await storeInboxItem(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      provider: network,
      stream: 'replies',
      item: { platformId, kind: 'reply' },
    });
    const text = `Thanks, out on Monday ${randomUUID().slice(0, 6)}`;
    await sandbox.setFaults(a.sandboxAccount.id, faults);
    const answered = await answerInboxItem(
      db,
      item.id,
      { text, after: 0 },
      {
        workspaceId: a.workspaceId,
        idempotencyKey: randomUUID(),
        actorName: 'Ana',
        actor: 'user:ana',
        source: 'form',
      },
    );
    expect(answered.kind).toBe('ok');
    const [reply] = await db
      .select({ id: deliveries.id })
      .from(deliveries)
      .innerJoin(posts, eq(posts.id, deliveries.postId))
      .where(eq(posts.inReplyTo, platformId));
    await publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: CALL_TIMEOUT_MS }));
    // The platform answers again; the reconciler and the publisher take turns until the answer settles.
    await sandbox.setFaults(a.sandboxAccount.id, {});
    let status = '';
    for (let round = 0; round < 8; round++) {
      await db.execute(
        sql`update deliveries set due_at = now() where id = ${reply!.id} and status in ('ambiguous', 'scheduled')`,
      );
      await reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url));
      await publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: CALL_TIMEOUT_MS }));
      [{ status }] = (await db
        .select({ status: deliveries.status })
        .from(deliveries)
        .where(eq(deliveries.id, reply!.id))) as [{ status: string }];
      if (status === 'sent' || status === 'needs_review' || status === 'failed') break;
    }
    const copies = (await sandbox.allPosts(a.sandboxAccount.id)).filter((p) => p.text === text && !p.deletedAt);
    expect(['sent', 'needs_review']).toContain(status);
    if (status === 'sent') expect(copies).toHaveLength(1);
    else expect(copies.length).toBeLessThanOrEqual(1);
  });
});
