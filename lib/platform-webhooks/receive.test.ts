import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, platformEvents } from '@/db/schema';
import { makeAccount, makeDelivery, makePost, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { receivePlatformWebhook, verifySubscription } from './receive';
import { hubSignature, sandboxWebhookSecret } from './signature';

// Platform webhooks in (docs/networks.md#platform-webhooks): Meta's signed events for Instagram, each stored once
// by what identifies it, matched to the account and the delivery it names, never turned into a post; a bad
// signature is a 401 and stores nothing.

const LIVE_SECRET = 'live-app-secret';
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
process.env.INSTAGRAM_APP_SECRET = LIVE_SECRET;
process.env.INSTAGRAM_WEBHOOK_VERIFY_TOKEN = 'verify-me';
process.env.SANDBOX_ENABLED = 'true';

const { db } = await createTestDatabase();
const SANDBOX_SECRET = sandboxWebhookSecret('instagram', TEST_ENCRYPTION_KEY);

/** A sent Instagram delivery: its account's id on the platform and its post's media id. */
async function sentDelivery(sandbox = true) {
  const workspace = await makeWorkspace(db);
  const account = await makeAccount(db, workspace.id, { provider: 'instagram', sandbox, handle: '@brand' });
  const post = await makePost(db, workspace.id);
  const delivery = await makeDelivery(db, { workspaceId: workspace.id, postId: post.id, accountId: account.id });
  const mediaId = String(Date.now()) + Math.floor(Math.random() * 1e6);
  await db.update(deliveries).set({ externalId: mediaId }).where(eq(deliveries.id, delivery.id));
  return { workspace, account, delivery, mediaId };
}

const comment = (igUserId: string, mediaId: string, commentId = randomUUID()) => ({
  object: 'instagram',
  entry: [
    {
      id: igUserId,
      time: 1_765_000_000,
      changes: [{ field: 'comments', value: { id: commentId, text: 'Nice!', media: { id: mediaId } } }],
    },
  ],
});

function deliver(body: unknown, secret: string | null, network = 'instagram') {
  const raw = JSON.stringify(body);
  return receivePlatformWebhook(
    db,
    network,
    new Request(`http://app.test/api/webhooks/${network}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(secret ? { 'x-hub-signature-256': hubSignature(raw, secret) } : {}),
      },
      body: raw,
    }),
  );
}
const stored = async () => (await db.execute<{ n: number }>(sql`select count(*)::int as n from platform_events`))[0]!.n;
const counts = async () =>
  (
    await db.execute<{ posts: number; deliveries: number }>(
      sql`select (select count(*)::int from posts) as posts, (select count(*)::int from deliveries) as deliveries`,
    )
  )[0]!;

describe('POST /api/webhooks/instagram', () => {
  it('a comment on a delivered post: stored once, matched to its account and delivery; a redelivery changes nothing', async () => {
    const { account, delivery, mediaId, workspace } = await sentDelivery();
    const body = comment(account.platformUserId, mediaId);
    const first = await deliver(body, SANDBOX_SECRET);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: 1, stored: 1 });
    const again = await deliver(body, SANDBOX_SECRET);
    expect(await again.json()).toEqual({ received: 1, stored: 0 });
    const rows = await db.select().from(platformEvents).where(eq(platformEvents.deliveryId, delivery.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      provider: 'instagram',
      sandbox: true,
      kind: 'comments',
      objectId: mediaId,
      workspaceId: workspace.id,
      accountId: account.id,
      outcome: 'kept',
    });
  });

  it('an event for an id nobody knows is kept as unmatched and creates nothing', async () => {
    const before = await counts();
    const res = await deliver(comment('17841400000000000', '999999999'), SANDBOX_SECRET);
    expect(await res.json()).toEqual({ received: 1, stored: 1 });
    const [row] = await db.select().from(platformEvents).where(eq(platformEvents.objectId, '999999999'));
    expect(row).toMatchObject({ outcome: 'unmatched', workspaceId: null, accountId: null, deliveryId: null });
    expect(await counts()).toEqual(before);
  });

  it('a bad, missing or other network’s signature is 401 and stores nothing', async () => {
    const { account, mediaId } = await sentDelivery();
    const before = await stored();
    for (const secret of ['not-the-secret', null, sandboxWebhookSecret('threads', TEST_ENCRYPTION_KEY)]) {
      const res = await deliver(comment(account.platformUserId, mediaId), secret);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    expect(await stored()).toBe(before);
  });

  it('signed with the real app secret: matched only to real accounts, never to a sandbox one with the same id', async () => {
    const sandboxed = await sentDelivery(true);
    const res = await deliver(comment(sandboxed.account.platformUserId, sandboxed.mediaId), LIVE_SECRET);
    expect(res.status).toBe(200);
    const [row] = await db
      .select()
      .from(platformEvents)
      .where(sql`${platformEvents.objectId} = ${sandboxed.mediaId} and ${platformEvents.sandbox} = false`);
    expect(row).toMatchObject({ outcome: 'unmatched', accountId: null });
    const real = await sentDelivery(false);
    await deliver(comment(real.account.platformUserId, real.mediaId), LIVE_SECRET);
    const [matched] = await db.select().from(platformEvents).where(eq(platformEvents.objectId, real.mediaId));
    expect(matched).toMatchObject({ sandbox: false, outcome: 'kept', deliveryId: real.delivery.id });
  });

  it('signed by the sandbox: never matched to a real account with the same id; one platform account connected in two workspaces gets a row in each, a disconnected one none', async () => {
    const real = await sentDelivery(false);
    await deliver(comment(real.account.platformUserId, real.mediaId), SANDBOX_SECRET);
    const [fromSandbox] = await db
      .select()
      .from(platformEvents)
      .where(sql`${platformEvents.objectId} = ${real.mediaId} and ${platformEvents.sandbox} = true`);
    expect(fromSandbox).toMatchObject({ outcome: 'unmatched', accountId: null });

    const first = await sentDelivery(true);
    const otherWorkspace = await makeWorkspace(db);
    const second = await makeAccount(db, otherWorkspace.id, { provider: 'instagram', sandbox: true, handle: '@brand' });
    await db.execute(
      sql`update social_accounts set platform_user_id = ${first.account.platformUserId} where id = ${second.id}`,
    );
    const gone = await makeAccount(db, (await makeWorkspace(db)).id, {
      provider: 'instagram',
      sandbox: true,
      handle: '@old',
    });
    await db.execute(
      sql`update social_accounts set platform_user_id = ${first.account.platformUserId}, disconnected_at = now() where id = ${gone.id}`,
    );
    const body = comment(first.account.platformUserId, first.mediaId);
    expect(await (await deliver(body, SANDBOX_SECRET)).json()).toEqual({ received: 1, stored: 2 });
    expect(await (await deliver(body, SANDBOX_SECRET)).json()).toEqual({ received: 1, stored: 0 });
    const rows = await db.select().from(platformEvents).where(eq(platformEvents.objectId, first.mediaId));
    expect(new Map(rows.map((r) => [r.accountId, [r.workspaceId, r.outcome]]))).toEqual(
      new Map([
        [first.account.id, [first.workspace.id, 'kept']],
        [second.id, [otherWorkspace.id, 'unmatched']],
      ]),
    );
  });

  it('a body over 1 MB sent without a Content-Length is cut off and refused (413), storing nothing', async () => {
    const before = await stored();
    const big = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(64 * 1024).fill(32));
        controller.close();
      },
    });
    const res = await receivePlatformWebhook(
      db,
      'instagram',
      new Request('http://app.test/api/webhooks/instagram', {
        method: 'POST',
        body: big,
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(await stored()).toBe(before);
  });

  it('refuses what is not a webhook: not JSON (400), no entries (422), a network without webhooks (404)', async () => {
    const raw = 'not json';
    const res = await receivePlatformWebhook(
      db,
      'instagram',
      new Request('http://app.test/api/webhooks/instagram', {
        method: 'POST',
        headers: { 'x-hub-signature-256': hubSignature(raw, SANDBOX_SECRET) },
        body: raw,
      }),
    );
    expect(res.status).toBe(400);
    expect((await deliver({ object: 'instagram' }, SANDBOX_SECRET)).status).toBe(422);
    expect((await deliver(comment('1', '2'), SANDBOX_SECRET, 'mastodon')).status).toBe(404);
  });
});

describe('GET /api/webhooks/instagram (the subscription check)', () => {
  it('answers the challenge for the configured verify token, else 403', async () => {
    const check = (token: string) =>
      verifySubscription(
        'instagram',
        new URL(
          `http://app.test/api/webhooks/instagram?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=4242`,
        ),
      );
    const ok = check('verify-me');
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('4242');
    expect(check('wrong').status).toBe(403);
  });
});
