import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, platformEvents } from '@/db/schema';
import { makeAccount, makeDelivery, makePost, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { receivePlatformWebhook, verifySubscription } from './receive';
import { hubSignature, sandboxWebhookSecret } from './signature';

// Meta's webhooks for Facebook Pages at /api/webhooks/facebook (docs/networks.md#platform-webhooks): `feed` changes —
// a post published on the page, a comment on it — signed with the app secret (FACEBOOK_APP_SECRET), each stored once,
// matched to the page and to the delivery whose post it names (`{page-id}_{post-id}`), never turned into a post and
// never moving a delivery.

const LIVE_SECRET = 'facebook-app-secret';
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
process.env.FACEBOOK_APP_SECRET = LIVE_SECRET;
process.env.FACEBOOK_WEBHOOK_VERIFY_TOKEN = 'fb-verify';
process.env.SANDBOX_ENABLED = 'true';

const { db } = await createTestDatabase();
const SANDBOX_SECRET = sandboxWebhookSecret('facebook', TEST_ENCRYPTION_KEY);

/** A sent delivery on a Facebook page: the page's id and its post's id as Graph names it. */
async function sentDelivery(sandbox = true) {
  const workspace = await makeWorkspace(db);
  const account = await makeAccount(db, workspace.id, { provider: 'facebook', sandbox, handle: 'Brand Page' });
  const post = await makePost(db, workspace.id);
  const delivery = await makeDelivery(db, { workspaceId: workspace.id, postId: post.id, accountId: account.id });
  const postId = `${account.platformUserId}_${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  await db.update(deliveries).set({ externalId: postId }).where(eq(deliveries.id, delivery.id));
  return { workspace, account, delivery, postId };
}

/** A page's feed change (developers.facebook.com/docs/graph-api/webhooks/reference/page/#feed). */
const feed = (pageId: string, value: Record<string, unknown>) => ({
  object: 'page',
  entry: [{ id: pageId, time: 1_765_000_000, changes: [{ field: 'feed', value }] }],
});
const published = (pageId: string, postId: string) =>
  feed(pageId, { item: 'status', verb: 'add', post_id: postId, message: 'Hello', created_time: 1_765_000_000 });
const commented = (pageId: string, postId: string, commentId = `${postId}_${randomUUID().slice(0, 8)}`) =>
  feed(pageId, { item: 'comment', verb: 'add', post_id: postId, comment_id: commentId, message: 'Nice!' });

function deliver(body: unknown, secret: string | null) {
  const raw = JSON.stringify(body);
  return receivePlatformWebhook(
    db,
    'facebook',
    new Request('http://app.test/api/webhooks/facebook', {
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
    await db.execute<{ posts: number; deliveries: number; events: number }>(
      sql`select (select count(*)::int from posts) as posts, (select count(*)::int from deliveries) as deliveries,
        (select count(*)::int from delivery_events) as events`,
    )
  )[0]!;

describe('POST /api/webhooks/facebook', () => {
  it('a publish event and a comment on a delivered post: each stored once, matched; a redelivery changes nothing', async () => {
    const { account, delivery, postId, workspace } = await sentDelivery();
    for (const body of [published(account.platformUserId, postId), commented(account.platformUserId, postId)]) {
      const first = await deliver(body, SANDBOX_SECRET);
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ received: 1, stored: 1 });
      const before = await counts();
      expect(await (await deliver(body, SANDBOX_SECRET)).json()).toEqual({ received: 1, stored: 0 });
      expect(await counts()).toEqual(before);
    }
    const rows = await db.select().from(platformEvents).where(eq(platformEvents.deliveryId, delivery.id));
    expect(rows).toHaveLength(2);
    for (const row of rows)
      expect(row).toMatchObject({
        provider: 'facebook',
        sandbox: true,
        kind: 'feed',
        objectId: postId,
        workspaceId: workspace.id,
        accountId: account.id,
        outcome: 'kept',
      });
    // Reported, never applied backwards: the delivery keeps its status, its post and its history.
    const [after] = await db.select().from(deliveries).where(eq(deliveries.id, delivery.id));
    expect(after).toMatchObject({ status: delivery.status, externalId: postId });
  });

  it('an event for a page or post nobody knows is kept as unmatched and creates nothing', async () => {
    const before = await counts();
    const res = await deliver(published('1029384756', '1029384756_42'), SANDBOX_SECRET);
    expect(await res.json()).toEqual({ received: 1, stored: 1 });
    const [row] = await db.select().from(platformEvents).where(eq(platformEvents.objectId, '1029384756_42'));
    expect(row).toMatchObject({ outcome: 'unmatched', workspaceId: null, accountId: null, deliveryId: null });
    expect(await counts()).toEqual(before);
  });

  it('a bad, missing or another network’s signature is a 401 problem and stores nothing', async () => {
    const { account, postId } = await sentDelivery();
    const before = await stored();
    for (const secret of ['not-the-secret', null, sandboxWebhookSecret('instagram', TEST_ENCRYPTION_KEY)]) {
      const res = await deliver(published(account.platformUserId, postId), secret);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    expect(await stored()).toBe(before);
  });

  it('signed with FACEBOOK_APP_SECRET: matched to the real page only, never to a sandbox page with the same id', async () => {
    const real = await sentDelivery(false);
    await deliver(published(real.account.platformUserId, real.postId), LIVE_SECRET);
    const [matched] = await db.select().from(platformEvents).where(eq(platformEvents.objectId, real.postId));
    expect(matched).toMatchObject({ sandbox: false, outcome: 'kept', deliveryId: real.delivery.id });
    const sandboxed = await sentDelivery(true);
    await deliver(published(sandboxed.account.platformUserId, sandboxed.postId), LIVE_SECRET);
    const [other] = await db.select().from(platformEvents).where(eq(platformEvents.objectId, sandboxed.postId));
    expect(other).toMatchObject({ sandbox: false, outcome: 'unmatched', accountId: null });
  });
});

describe('GET /api/webhooks/facebook (the subscription check)', () => {
  it('answers the challenge for FACEBOOK_WEBHOOK_VERIFY_TOKEN, else 403', async () => {
    const check = (token: string) =>
      verifySubscription(
        'facebook',
        new URL(`http://app.test/api/webhooks/facebook?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=77`),
      );
    const ok = check('fb-verify');
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('77');
    expect(check('verify-me').status).toBe(403);
  });
});
