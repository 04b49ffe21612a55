import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@/lib/media/media-storage';
import { makeImage } from '@/testing/images';
import { makeTestVideo } from '@/testing/video';
import { attemptKeepingState } from '@/testing/attempt';
import { startTestSandbox } from '@/testing/sandbox';
import { VIDEO_PROCESSING_MS } from '@/sandbox/dialects/instagram/api';
import type { ProviderState, PublishInput, PublishMedia } from '../types';

// The real Instagram client against the sandbox (standalone server, Postgres store, real sockets): an image, a
// carousel of images and a video, a Reel and a Story, each one container kept before it is published; a lost
// answer to media_publish settled by the container; an expired container replaced only after the account's media
// prove no copy; a spent publishing limit that defers. The sandbox fetches each file by URL and checks its bytes.

const dir = mkdtempSync(path.join(tmpdir(), 'semel-instagram-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Files the sandbox "fetches" by URL: the test serves them (no network here). */
const files = new Map<string, Uint8Array>();
const sandbox = await startTestSandbox({ hangMs: 2_000, fetchImage: async (url) => files.get(url) ?? null });
const { db } = sandbox;
const TIMEOUT = 3_000;
const SHORT = 400;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

let jpeg: Uint8Array;
let mp4: Uint8Array;
beforeAll(async () => {
  jpeg = await makeImage('jpeg', { width: 64, height: 80 });
  await makeTestVideo(path.join(dir, 'reel.mp4'), { seconds: 1, width: 180, height: 320 });
  mp4 = new Uint8Array(readFileSync(path.join(dir, 'reel.mp4')));
});

/** A medium served at its own URL, as the app's signed media URLs are. */
function served(bytes: Uint8Array, mimeType: string): PublishMedia {
  const url = `https://media.example/${randomUUID()}`;
  files.set(url, bytes);
  return {
    id: randomUUID(),
    sha256: sha256Hex(bytes),
    mimeType,
    altText: 'alt',
    sizeBytes: bytes.length,
    read: async () => bytes,
    stream: async () => Readable.from([Buffer.from(bytes)]),
    publicUrl: () => url,
  };
}
const image = () => served(jpeg, 'image/jpeg');
const video = () => served(mp4, 'video/mp4');

const containers = async (account: Account) =>
  db.execute<{ id: string; post_id: string | null; media_type: string }>(
    sql`select id::text, post_id::text, media_type from sandbox.threads_containers where account_id = ${account.sandboxAccount.id} order by created_at, id`,
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A publish that keeps its state the way the publisher does (deliveries.provider_state). */
const attempt = (account: Account, input: Partial<PublishInput> & { text: string }, state: ProviderState = {}) =>
  attemptKeepingState(account.client, input, state, TIMEOUT);

describe('Instagram client: one container, published once', () => {
  it('an image: one container kept before publishing, then one post with its media id and permalink', async () => {
    const account = await sandbox.connectAccount('instagram');
    const text = sandbox.uniqueText('hello instagram');
    const { result, saved } = await attempt(account, { text, media: [image()] });
    expect(result).toMatchObject({ outcome: 'sent', rule: 'instagram-id-returned', httpStatus: 200 });
    expect(result.url).toContain(`/api/sandbox/instagram/v23.0/${result.externalId}`);
    const [container] = await containers(account);
    expect(saved).toEqual([{ containerId: container!.id, containerCreatedAt: expect.any(String) }]);
    expect(container).toMatchObject({ post_id: result.externalId, media_type: 'IMAGE' });
    const [post] = await sandbox.allPosts(account.sandboxAccount.id);
    expect(post!.media).toEqual([{ type: 'image/jpeg', altText: 'alt', sha256: sha256Hex(jpeg) }]);
  });

  it('a carousel of three images: three item containers and one carousel, one post with all three', async () => {
    const account = await sandbox.connectAccount('instagram');
    const text = sandbox.uniqueText('carousel');
    const { result, saved } = await attempt(account, { text, media: [image(), image(), image()] });
    expect(result).toMatchObject({ outcome: 'sent' });
    expect(saved.map((s) => Object.keys(s).sort())).toEqual([['items'], ['containerCreatedAt', 'containerId']]);
    expect((await containers(account)).map((c) => c.media_type)).toEqual(['IMAGE', 'IMAGE', 'IMAGE', 'CAROUSEL']);
    const posts = await sandbox.allPosts(account.sandboxAccount.id);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.media.map((m) => m.type)).toEqual(['image/jpeg', 'image/jpeg', 'image/jpeg']);
  });

  it('a carousel of images still processing (slow): the items are kept and waited for, never failed', async () => {
    const account = await sandbox.connectAccount('instagram');
    await sandbox.setFaults(account.sandboxAccount.id, { processingMs: 800 });
    const text = sandbox.uniqueText('slow carousel');
    const media = [image(), image()];
    const first = await attempt(account, { text, media });
    expect(first.result).toMatchObject({ outcome: 'not_sent', rule: 'instagram-container-in-progress' });
    await sleep(1_000);
    await sandbox.setFaults(account.sandboxAccount.id, {});
    const second = await attempt(account, { text, media }, first.state);
    expect(second.result).toMatchObject({ outcome: 'sent' });
    expect((await containers(account)).map((c) => c.media_type)).toEqual(['IMAGE', 'IMAGE', 'CAROUSEL']);
  });

  it('a carousel with a video: its items are kept while the video is processed, then one carousel, one post', async () => {
    const account = await sandbox.connectAccount('instagram');
    const text = sandbox.uniqueText('mixed carousel');
    const media = [image(), video(), image()];
    const first = await attempt(account, { text, media });
    expect(first.result).toMatchObject({ outcome: 'not_sent', rule: 'instagram-container-in-progress' });
    const items = (await containers(account)).map((c) => c.id);
    expect(first.saved).toEqual([{ items: items.join(',') }]);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
    await sleep(VIDEO_PROCESSING_MS + 200);
    const second = await attempt(account, { text, media }, first.state);
    expect(second.result).toMatchObject({ outcome: 'sent' });
    // The kept items, not new ones: three items and one carousel in all.
    expect((await containers(account)).map((c) => c.media_type)).toEqual(['IMAGE', 'VIDEO', 'IMAGE', 'CAROUSEL']);
    const posts = await sandbox.allPosts(account.sandboxAccount.id);
    expect(posts.map((p) => p.media.map((m) => m.type))).toEqual([['image/jpeg', 'video/mp4', 'image/jpeg']]);
  });

  it('a Reel: the video is processed first (IN_PROGRESS, nothing published), then the same container goes out once', async () => {
    const account = await sandbox.connectAccount('instagram');
    const text = sandbox.uniqueText('reel');
    const media = [video()];
    const first = await attempt(account, { text, media });
    expect(first.result).toMatchObject({ outcome: 'not_sent', rule: 'instagram-container-in-progress' });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
    await sleep(VIDEO_PROCESSING_MS + 200);
    const second = await attempt(account, { text, media }, first.state);
    expect(second.result).toMatchObject({ outcome: 'sent', rule: 'instagram-id-returned' });
    expect(second.saved).toEqual([]); // the kept container, not a new one
    expect((await containers(account)).map((c) => c.media_type)).toEqual(['REELS']);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('a Story: no caption, kept as a Story, and not in the media listing', async () => {
    const account = await sandbox.connectAccount('instagram');
    const text = sandbox.uniqueText('story');
    const { result, saved } = await attempt(account, { text, format: 'story', media: [image()] });
    expect(result).toMatchObject({ outcome: 'sent' });
    expect(saved[0]).toMatchObject({ format: 'story' });
    expect((await containers(account)).map((c) => c.media_type)).toEqual(['STORIES']);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
    const listed = await account.client.listRecent({ since: new Date(Date.now() - 60_000), timeoutMs: TIMEOUT });
    expect(listed).toEqual([]);
  });

  it('refuses what Instagram cannot publish, calling nothing: text only, a comment with an image, a Story of two, a GIF', async () => {
    const account = await sandbox.connectAccount('instagram');
    for (const input of [
      { text: 'no media' },
      { text: 'comment', kind: 'reply' as const, inReplyTo: '1', media: [image()] },
      { text: 'dm', kind: 'dm' as const, recipient: '1' },
      { text: 'story', format: 'story', media: [image(), image()] },
    ]) {
      const { result } = await attempt(account, input);
      expect(result).toMatchObject({ outcome: 'failed', rule: 'invalid-input' });
    }
    expect(await containers(account)).toHaveLength(0);
    // A file that is not what it says (here a GIF served as an image) leaves the container in ERROR.
    const gif = served(await makeImage('gif'), 'image/jpeg');
    const { result } = await attempt(account, { text: 'gif', media: [gif] });
    expect(result).toMatchObject({ outcome: 'failed', rule: 'instagram-container-error' });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });
});

describe('Instagram client: unknown outcomes settled by the container', () => {
  it('I1 — a lost answer to media_publish: the container reads PUBLISHED, the next attempt publishes nothing', async () => {
    const account = await sandbox.connectAccount('instagram');
    const text = sandbox.uniqueText('lost publish');
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutAfterCommit: 1 });
    const lost = await account.client.publish({
      kind: 'post',
      text,
      media: [image()],
      idempotencyKey: randomUUID(),
      timeoutMs: SHORT * 3,
      saveState: async () => true,
    });
    expect(lost.outcome).toBe('ambiguous');
    const containerId = String(lost.evidence?.containerId);
    await sandbox.setFaults(account.sandboxAccount.id, {});
    const read = await account.client.readBack!({
      idempotencyKey: randomUUID(),
      text,
      kind: 'post',
      inReplyTo: null,
      state: { containerId },
      evidence: [lost.evidence ?? {}],
      since: new Date(Date.now() - 60_000),
      until: new Date(),
      timeoutMs: TIMEOUT,
    });
    expect(read).toMatchObject({ verdict: 'found', evidence: { status: 'PUBLISHED' } });
    const again = await attempt(account, { text, media: [image()] }, { containerId });
    expect(again.result).toMatchObject({ outcome: 'sent', rule: 'instagram-container-published' });
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('I1 — a kept container that expired is never replaced by the client: ambiguous, and nothing is made (the reconciler decides)', async () => {
    const account = await sandbox.connectAccount('instagram');
    // A recurring caption: yesterday's post with the same text is on the account, and is another delivery's.
    const text = sandbox.uniqueText('good morning');
    expect((await attempt(account, { text, media: [image()] })).result.outcome).toBe('sent');
    const expired = await expiredContainer(account, text);
    const held = await attempt(account, { text, media: [image()] }, expired);
    expect(held.result).toMatchObject({ outcome: 'ambiguous', rule: 'instagram-expired-container-unproven' });
    expect(held.result.externalId).toBeUndefined(); // never "sent" with the other post's id
    expect(held.saved).toEqual([]);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('a Story whose kept container reads PUBLISHED is never matched to a feed post with the same text', async () => {
    const account = await sandbox.connectAccount('instagram');
    const text = sandbox.uniqueText('story and post');
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutAfterCommit: 1 });
    const lost = await attempt(account, { text, format: 'story', media: [image()], timeoutMs: SHORT * 3 });
    expect(lost.result.outcome).toBe('ambiguous');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    expect((await attempt(account, { text, media: [image()] })).result.outcome).toBe('sent'); // a feed post, same text
    const again = await attempt(account, { text, format: 'story', media: [image()] }, lost.state);
    expect(again.result).toMatchObject({ outcome: 'ambiguous', rule: 'instagram-container-published-unlisted' });
    expect(again.result.externalId).toBeUndefined();
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(2);
  });

  it('a spent publishing limit defers (not_sent with a time), never fails, and publishes nothing', async () => {
    const account = await sandbox.connectAccount('instagram');
    await db.execute(
      sql`insert into sandbox.posts (id, account_id, kind, text, media, created_at)
          select (1e15 + g)::bigint + floor(random() * 1e12)::bigint, ${account.sandboxAccount.id}, 'post', 'filler ' || g, '[]', now()
          from generate_series(1, 100) g`,
    );
    const { result } = await attempt(account, { text: sandbox.uniqueText('over the limit'), media: [image()] });
    expect(result).toMatchObject({
      outcome: 'not_sent',
      rule: 'instagram-publishing-limit-read',
      evidence: { quotaUsage: 100, quotaTotal: 100 },
    });
    expect(result.retryAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(100);
  });
});

/** A container made 25 hours ago and never published (EXPIRED), kept as a delivery would keep it. */
async function expiredContainer(account: Account, caption: string): Promise<ProviderState> {
  const [row] = await db.execute<{ id: string }>(
    sql`insert into sandbox.threads_containers (id, account_id, kind, media_type, text, image_url, media, created_at, ready_at)
        values ((2e15 + floor(random() * 1e12))::bigint, ${account.sandboxAccount.id}, 'post', 'IMAGE', ${caption},
                'https://media.example/old', '[]', now() - interval '25 hours', now() - interval '25 hours')
        returning id::text`,
  );
  return { containerId: row!.id, containerCreatedAt: new Date(Date.now() - 25 * 3_600_000).toISOString() };
}

describe('Instagram client: a first comment, once', () => {
  /** A published post of the account's, and its media id. */
  async function published(account: Account) {
    const { result } = await attempt(account, { text: sandbox.uniqueText('commented'), media: [image()] });
    expect(result.outcome).toBe('sent');
    return result.externalId!;
  }

  it('a reply is one comment on the media: its id returned, nothing kept, the media count unchanged', async () => {
    const account = await sandbox.connectAccount('instagram');
    const mediaId = await published(account);
    const text = sandbox.uniqueText('first comment');
    const { result, saved } = await attempt(account, { text, kind: 'reply', inReplyTo: mediaId });
    expect(result).toMatchObject({ outcome: 'sent', rule: 'instagram-id-returned', evidence: { comment: true } });
    expect(saved).toEqual([]);
    const comments = (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => p.inReplyToId === mediaId);
    expect(comments.map((c) => [c.id, c.text, c.kind])).toEqual([[result.externalId, text, 'reply']]);
    // The media listing shows posts only, and a comment does not count against the 100 posts a day.
    const listed = await account.client.listRecent({ since: new Date(Date.now() - 60_000) });
    expect(listed.map((p) => p.id)).toEqual([mediaId]);
  });

  it("listRecent with a parent lists the account's own comments on that media, replying to it", async () => {
    const account = await sandbox.connectAccount('instagram');
    const mediaId = await published(account);
    const other = await published(account);
    const text = sandbox.uniqueText('listed comment');
    const { result } = await attempt(account, { text, kind: 'reply', inReplyTo: mediaId });
    await attempt(account, { text: sandbox.uniqueText('elsewhere'), kind: 'reply', inReplyTo: other });
    const listed = await account.client.listRecent({ since: new Date(Date.now() - 60_000), inReplyTo: mediaId });
    expect(listed.map((p) => [p.id, p.text, p.inReplyTo])).toEqual([[result.externalId, text, mediaId]]);
  });

  it('the platform refuses what its comment rules refuse (31 hashtags, 2,201 characters): failed, nothing stored', async () => {
    const account = await sandbox.connectAccount('instagram');
    const mediaId = await published(account);
    const tags = Array.from({ length: 31 }, (_, i) => `#tag${i}`).join(' ');
    for (const text of [tags, 'x'.repeat(2_201)]) {
      const { result } = await attempt(account, { text, kind: 'reply', inReplyTo: mediaId });
      expect(result.outcome, text.slice(0, 20)).toBe('failed');
    }
    expect((await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => p.inReplyToId === mediaId)).toEqual([]);
  });

  it('a comment with media is refused before any request; a lost answer is ambiguous, read back by listing', async () => {
    const account = await sandbox.connectAccount('instagram');
    const mediaId = await published(account);
    const refused = await attempt(account, {
      text: 'with a file',
      kind: 'reply',
      inReplyTo: mediaId,
      media: [image()],
    });
    expect(refused.result).toMatchObject({ outcome: 'failed', rule: 'invalid-input' });
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutAfterCommit: 1 });
    const text = sandbox.uniqueText('lost comment');
    const lost = await attemptKeepingState(account.client, { text, kind: 'reply', inReplyTo: mediaId }, {}, SHORT);
    expect(lost.result.outcome).toBe('ambiguous');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    const read = await account.client.readBack!({
      idempotencyKey: 'd',
      text,
      kind: 'reply',
      inReplyTo: mediaId,
      state: {},
      evidence: [lost.result.evidence ?? {}],
      since: new Date(Date.now() - 60_000),
      until: new Date(),
    });
    expect(read).toMatchObject({ verdict: 'list' });
    const listed = await account.client.listRecent({ since: new Date(Date.now() - 60_000), inReplyTo: mediaId });
    expect(listed.map((p) => p.text)).toEqual([text]);
  });
});

describe("Instagram client: reading a media's comments, never another's for ours", () => {
  async function published(account: Account) {
    const { result } = await attempt(account, { text: sandbox.uniqueText('read comments'), media: [image()] });
    return result.externalId!;
  }

  it("a stranger's comment with our very words is not ours: only the account's own are listed", async () => {
    const account = await sandbox.connectAccount('instagram');
    const stranger = await sandbox.connectAccount('instagram');
    const mediaId = await published(account);
    const text = sandbox.uniqueText('first comment words');
    // Someone else comments first, with the same words (Instagram lists everyone's comments on the media).
    await sandbox.store.insertPost({ account: stranger.sandboxAccount, kind: 'reply', text, inReplyToId: mediaId });
    const since = new Date(Date.now() - 60_000);
    expect(await account.client.listRecent({ since, inReplyTo: mediaId })).toEqual([]);
    const { result } = await attempt(account, { text, kind: 'reply', inReplyTo: mediaId });
    const listed = await account.client.listRecent({ since, inReplyTo: mediaId });
    expect(listed.map((p) => p.id)).toEqual([result.externalId]);
  });

  it('more comments than the pages it may read: unreadable (thrown), never an absence', async () => {
    const account = await sandbox.connectAccount('instagram');
    const fan = await sandbox.connectAccount('instagram');
    const mediaId = await published(account);
    const text = sandbox.uniqueText('buried comment');
    await attempt(account, { text, kind: 'reply', inReplyTo: mediaId });
    for (let i = 0; i < 60; i++)
      await sandbox.store.insertPost({
        account: fan.sandboxAccount,
        kind: 'reply',
        text: `fan ${i}`,
        inReplyToId: mediaId,
      });
    const since = new Date(Date.now() - 60_000);
    // 50 a page: our comment (the oldest) is on the second page.
    await expect(account.client.listRecent({ since, inReplyTo: mediaId, maxPages: 1 })).rejects.toMatchObject({
      classification: { rule: 'instagram-comments-truncated' },
    });
    const all = await account.client.listRecent({ since, inReplyTo: mediaId, maxPages: 2 });
    expect(all.map((p) => p.text)).toEqual([text]);
  });
});
