import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, platformEvents } from '@/db/schema';
import { makeAccount, makeDelivery, makePost, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { receivePlatformWebhook, verifySubscription } from './receive';
import { hubSignature, sandboxWebhookSecret, websubSecret } from './signature';

// YouTube's push notifications (WebSub / PubSubHubbub) at /api/webhooks/youtube: the hub's Atom feed, signed with
// X-Hub-Signature (sha1) under this install's hub.secret, each event stored once and matched to the channel and the
// delivery of the video it names; never a post. The hub's subscription check answers its challenge for a channel feed.

process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
process.env.SANDBOX_ENABLED = 'true';
const { db } = await createTestDatabase();
const HUB_SECRET = websubSecret('youtube', TEST_ENCRYPTION_KEY);
const SANDBOX_SECRET = sandboxWebhookSecret('youtube', TEST_ENCRYPTION_KEY);

const channelId = () => `UC${Math.random().toString(36).slice(2, 13).padEnd(22, 'x')}`;

async function sentVideo(sandbox = false) {
  const workspace = await makeWorkspace(db);
  const account = await makeAccount(db, workspace.id, { provider: 'youtube', sandbox, handle: '@brand' });
  const post = await makePost(db, workspace.id);
  const delivery = await makeDelivery(db, { workspaceId: workspace.id, postId: post.id, accountId: account.id });
  const videoId = Math.random().toString(36).slice(2, 13);
  await db.update(deliveries).set({ externalId: videoId }).where(eq(deliveries.id, delivery.id));
  return { account, delivery, videoId };
}

const uploaded = (
  channel: string,
  videoId: string,
  updated = '2026-12-04T10:00:01.000Z',
) => `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom">
  <link rel="hub" href="https://pubsubhubbub.appspot.com"/>
  <title>YouTube video feed</title>
  <entry>
    <id>yt:video:${videoId}</id>
    <yt:videoId>${videoId}</yt:videoId>
    <yt:channelId>${channel}</yt:channelId>
    <title>Launch &amp; more</title>
    <link rel="alternate" href="https://www.youtube.com/watch?v=${videoId}"/>
    <published>2026-12-04T10:00:00+00:00</published>
    <updated>${updated}</updated>
  </entry>
</feed>`;
const deleted = (channel: string, videoId: string) => `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:at="http://purl.org/atompub/tombstones/1.0" xmlns="http://www.w3.org/2005/Atom">
  <at:deleted-entry ref="yt:video:${videoId}" when="2026-12-04T11:00:00.000+00:00">
    <link href="https://www.youtube.com/watch?v=${videoId}"/>
    <at:by><name>Brand</name><uri>https://www.youtube.com/channel/${channel}</uri></at:by>
  </at:deleted-entry>
</feed>`;

function deliver(xml: string, signature: string | null) {
  return receivePlatformWebhook(
    db,
    'youtube',
    new Request('http://app.test/api/webhooks/youtube', {
      method: 'POST',
      headers: { 'content-type': 'application/atom+xml', ...(signature ? { 'x-hub-signature': signature } : {}) },
      body: xml,
    }),
  );
}

describe('POST /api/webhooks/youtube', () => {
  it('an upload notification: stored once, matched to the channel and the delivery; a redelivery changes nothing', async () => {
    const { account, delivery, videoId } = await sentVideo();
    const xml = uploaded(account.platformUserId, videoId);
    const first = await deliver(xml, hubSignature(xml, HUB_SECRET, 'sha1'));
    expect(await first.json()).toEqual({ received: 1, stored: 1 });
    expect(await (await deliver(xml, hubSignature(xml, HUB_SECRET, 'sha1'))).json()).toEqual({
      received: 1,
      stored: 0,
    });
    const rows = await db.select().from(platformEvents).where(eq(platformEvents.deliveryId, delivery.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      provider: 'youtube',
      kind: 'video',
      objectId: videoId,
      accountId: account.id,
      outcome: 'kept',
      payload: { title: 'Launch & more', channelId: account.platformUserId },
    });
    // A later change of the same video is another event; the deletion too.
    const changed = uploaded(account.platformUserId, videoId, '2026-12-04T12:00:00.000Z');
    expect((await (await deliver(changed, hubSignature(changed, HUB_SECRET))).json()).stored).toBe(1);
    const gone = deleted(account.platformUserId, videoId);
    expect((await (await deliver(gone, hubSignature(gone, HUB_SECRET, 'sha1'))).json()).stored).toBe(1);
    const kinds = await db
      .select({ kind: platformEvents.kind })
      .from(platformEvents)
      .where(eq(platformEvents.deliveryId, delivery.id));
    expect(kinds.map((k) => k.kind).sort()).toEqual(['deleted', 'video', 'video']);
    // A webhook reports, never creates: the delivery is as it was.
    const [after] = await db
      .select({ status: deliveries.status })
      .from(deliveries)
      .where(eq(deliveries.id, delivery.id));
    expect(after!.status).toBe('scheduled');
  });

  it('a bad, missing or Meta-style signature is 401 and stores nothing; the sandbox secret matches sandbox channels only', async () => {
    const { account, videoId } = await sentVideo(true);
    const xml = uploaded(account.platformUserId, videoId);
    const before = (await db.execute<{ n: number }>(sql`select count(*)::int as n from platform_events`))[0]!.n;
    for (const signature of [
      null,
      hubSignature(xml, 'another-secret', 'sha1'),
      'md5=abc',
      hubSignature('other', HUB_SECRET),
    ])
      expect((await deliver(xml, signature)).status).toBe(401);
    expect((await db.execute<{ n: number }>(sql`select count(*)::int as n from platform_events`))[0]!.n).toBe(before);
    const signed = await deliver(xml, hubSignature(xml, SANDBOX_SECRET, 'sha1'));
    expect(await signed.json()).toEqual({ received: 1, stored: 1 });
    const [row] = await db.select().from(platformEvents).where(eq(platformEvents.objectId, videoId));
    expect(row).toMatchObject({ sandbox: true, accountId: account.id, outcome: 'kept' });
  });

  it('not an Atom feed is 400; a feed without entries is 422', async () => {
    expect((await deliver('{"not":"xml"}', hubSignature('{"not":"xml"}', HUB_SECRET, 'sha1'))).status).toBe(400);
    const empty = '<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title></feed>';
    expect((await deliver(empty, hubSignature(empty, HUB_SECRET, 'sha1'))).status).toBe(422);
  });
});

describe('GET /api/webhooks/youtube (the hub’s subscription check)', () => {
  it('answers the challenge for a subscription of a channel feed; an unsubscription (we never ask for one), another topic or mode: 403', async () => {
    const topic = encodeURIComponent(`https://www.youtube.com/xml/feeds/videos.xml?channel_id=${channelId()}`);
    const check = (query: string) =>
      verifySubscription('youtube', new URL(`http://app.test/api/webhooks/youtube?${query}`));
    const ok = check(`hub.mode=subscribe&hub.topic=${topic}&hub.challenge=abc123&hub.lease_seconds=432000`);
    expect([ok.status, await ok.text()]).toEqual([200, 'abc123']);
    expect(check(`hub.mode=unsubscribe&hub.topic=${topic}&hub.challenge=x`).status).toBe(403);
    expect(
      check(`hub.mode=subscribe&hub.topic=${encodeURIComponent('https://evil.example/feed')}&hub.challenge=x`).status,
    ).toBe(403);
    expect(check(`hub.mode=denied&hub.topic=${topic}&hub.challenge=x`).status).toBe(403);
  });
});
