import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@/lib/media/media-storage';
import { encodeMultipart, sendOnce } from '@/lib/net/send';
import { createProviderClient } from '@/lib/providers';
import type { ProviderTransport } from '@/lib/providers/transport';
import { attemptKeepingState } from '@/testing/attempt';
import { makeImage } from '@/testing/images';
import { startTestSandbox } from '@/testing/sandbox';
import { testVideoBytes, videoMedia } from '@/testing/videos';
import { FACEBOOK_VIDEO_PROCESSING_MS } from '@/sandbox/dialects/facebook/video';
import type { ProviderState, PublishInput, PublishMedia } from '../types';

// The real Facebook client against the sandbox's Facebook dialect (standalone server, Postgres store, real sockets):
// text, link, one photo, several photos (unpublished, then attached to one feed post) and a video through the
// resumable upload, each going out once; the video's kept session and status settle every later attempt.

const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db } = sandbox;
const TIMEOUT = 3_000;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

let jpeg: Uint8Array;
let png: Uint8Array;
let mp4: Uint8Array;
beforeAll(async () => {
  jpeg = await makeImage('jpeg', { width: 64, height: 80 });
  png = await makeImage('png', { width: 40, height: 40 });
  mp4 = await testVideoBytes(1);
});

const image = (bytes: Uint8Array, mimeType = 'image/jpeg', altText = ''): PublishMedia => ({
  id: randomUUID(),
  sha256: sha256Hex(bytes),
  mimeType,
  altText,
  sizeBytes: bytes.length,
  read: async () => bytes,
  stream: async () => Readable.from([Buffer.from(bytes)]),
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const attempt = (account: Account, input: Partial<PublishInput> & { text: string }, state: ProviderState = {}) =>
  attemptKeepingState(account.client, input, state, TIMEOUT);
/** Every upload session the sandbox opened for the page (a video each: Facebook has no dedupe). */
const sessions = async (account: Account) =>
  (
    await db.execute<{ n: number }>(
      sql`select count(*)::int as n from sandbox.tiktok_publishes where account_id = ${account.sandboxAccount.id}`,
    )
  )[0]!.n;
/** A client whose transport loses the answer to every request that matches: the request ran, its answer never came. */
function losing(account: Account, matches: (form: string) => boolean): ReturnType<typeof createProviderClient> {
  const transport: ProviderTransport = async (request) => {
    const raw = await sendOnce(request);
    const body = JSON.stringify(request.form ?? request.multipart?.fields ?? {});
    if (!matches(body)) return raw;
    return {
      type: 'error',
      code: 'ETIMEDOUT',
      name: 'TimeoutError',
      message: 'the answer was lost',
      timedOut: true,
      connection: {
        socketAssigned: true,
        reused: false,
        tls: false,
        connected: true,
        secured: false,
        bytesWritten: 300,
      },
    };
  };
  return createProviderClient(
    {
      provider: 'facebook',
      baseUrl: '/api/sandbox/facebook',
      platformUserId: account.platformUserId,
      accessToken: account.token,
    },
    { origin: sandbox.url, transport },
  );
}

describe('Facebook client: posts to a page, each once', () => {
  it('a text post: one feed post, its id `{page}_{post}` and its permalink; listed in published_posts', async () => {
    const account = await sandbox.connectAccount('facebook');
    const text = sandbox.uniqueText('hello facebook');
    const { result, saved } = await attempt(account, { text });
    expect(result).toMatchObject({ outcome: 'sent', rule: 'facebook-id-returned', httpStatus: 200 });
    expect(result.externalId).toMatch(new RegExp(`^${account.platformUserId}_\\d+$`));
    expect(result.url).toContain(`/api/sandbox/facebook/v23.0/${result.externalId}`);
    expect(saved).toEqual([]);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    const listed = await account.client.listRecent({ since: new Date(Date.now() - 60_000), timeoutMs: TIMEOUT });
    expect(listed.map((p) => [p.id, p.text])).toEqual([[result.externalId, text]]);
  });

  it('a link post: the first address in the text goes as `link` (its preview), the message as written', async () => {
    const account = await sandbox.connectAccount('facebook');
    const text = sandbox.uniqueText('read https://example.com/launch?x=1 today');
    const { result } = await attempt(account, { text });
    expect(result.outcome).toBe('sent');
    const [post] = await sandbox.allPosts(account.sandboxAccount.id);
    expect(post).toMatchObject({ text, record: { facebook: { link: 'https://example.com/launch?x=1' } } });
  });

  it('one photo: a photo post with the caption, named by its post_id; the bytes are what arrived', async () => {
    const account = await sandbox.connectAccount('facebook');
    const text = sandbox.uniqueText('one photo');
    const { result } = await attempt(account, { text, media: [image(jpeg)] });
    expect(result).toMatchObject({ outcome: 'sent' });
    expect(result.externalId).toMatch(new RegExp(`^${account.platformUserId}_\\d+$`));
    const posts = await sandbox.allPosts(account.sandboxAccount.id);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.media).toEqual([{ type: 'image/jpeg', altText: '', sha256: sha256Hex(jpeg) }]);
  });

  it('three photos: uploaded unpublished (no post), then one feed post attaching all three', async () => {
    const account = await sandbox.connectAccount('facebook');
    const text = sandbox.uniqueText('album');
    const { result } = await attempt(account, {
      text,
      media: [image(jpeg), image(png, 'image/png', 'a square'), image(jpeg)],
    });
    expect(result).toMatchObject({ outcome: 'sent', evidence: { step: 'feed' } });
    const posts = await sandbox.allPosts(account.sandboxAccount.id);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.media.map((m) => [m.type, m.altText])).toEqual([
      ['image/jpeg', ''],
      ['image/png', 'a square'],
      ['image/jpeg', ''],
    ]);
  });

  it('a feed post naming another page’s photo is refused, and a photo that is not an image is refused; nothing posted', async () => {
    const account = await sandbox.connectAccount('facebook');
    const other = await sandbox.connectAccount('facebook');
    const { data, contentType } = encodeMultipart({
      fields: { published: 'false' },
      files: [{ name: 'source', filename: 'p.jpg', contentType: 'image/jpeg', data: jpeg }],
    });
    const upload = await fetch(`${sandbox.url}/api/sandbox/facebook/v23.0/${other.platformUserId}/photos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.token}`, 'content-type': contentType },
      body: new Uint8Array(data),
    });
    expect(upload.status).toBe(200);
    const { id } = (await upload.json()) as { id: string };
    expect(id).toMatch(/^\d+$/);
    const theirs = await fetch(`${sandbox.url}/api/sandbox/facebook/v23.0/${account.platformUserId}/feed`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ message: 'theirs', 'attached_media[0]': JSON.stringify({ media_fbid: id }) }),
    });
    expect(theirs.status).toBe(400);
    const { result } = await attempt(account, {
      text: 'not an image',
      media: [image(new Uint8Array(64), 'image/jpeg')],
    });
    expect(result).toMatchObject({ outcome: 'failed', rule: 'facebook-photo-refused' });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
    expect(await sandbox.copies(other.sandboxAccount.id)).toBe(0);
  });

  it('a video: one session kept before any byte, chunks, finish; processing, then the next attempt reads it published', async () => {
    const account = await sandbox.connectAccount('facebook');
    const text = sandbox.uniqueText('video');
    const first = await attempt(account, { text, media: [videoMedia(mp4)] });
    expect(first.result).toMatchObject({ outcome: 'ambiguous', rule: 'facebook-video-processing' });
    expect(first.saved).toEqual([
      { videoId: expect.any(String), uploadSessionId: expect.any(String), videoCreatedAt: expect.any(String) },
    ]);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1); // stored, shown only once processed
    await sleep(FACEBOOK_VIDEO_PROCESSING_MS + 200);
    const second = await attempt(account, { text, media: [videoMedia(mp4)] }, first.state);
    expect(second.result).toMatchObject({ outcome: 'sent', rule: 'facebook-video-published' });
    expect(second.result.externalId).toMatch(new RegExp(`^${account.platformUserId}_\\d+$`));
    expect(second.saved).toEqual([]);
    const [post] = await sandbox.allPosts(account.sandboxAccount.id);
    expect(post).toMatchObject({ text, media: [{ type: 'video/mp4' }] });
    expect(await sessions(account)).toBe(1);
    const listed = await account.client.listRecent({ since: new Date(Date.now() - 60_000), timeoutMs: TIMEOUT });
    expect(listed.map((p) => p.id)).toEqual([second.result.externalId]);
  });

  it('a file that is not a video: the bytes are checked, processing fails, the next attempt fails with the reason', async () => {
    const account = await sandbox.connectAccount('facebook');
    const fake = videoMedia(new Uint8Array(4096).fill(7));
    const first = await attempt(account, { text: 'fake video', media: [fake] });
    expect(first.result.outcome).toBe('ambiguous');
    const second = await attempt(account, { text: 'fake video', media: [fake] }, first.state);
    expect(second.result).toMatchObject({ outcome: 'failed', rule: 'facebook-video-error' });
    expect(second.result.reason).toContain('not a supported format');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('I1 — a lost answer to finish: ambiguous with the session; the status settles it, never a second start', async () => {
    const account = await sandbox.connectAccount('facebook');
    const text = sandbox.uniqueText('lost finish');
    const client = losing(account, (form) => form.includes('"upload_phase":"finish"'));
    const saved: ProviderState[] = [];
    const lost = await client.publish({
      kind: 'post',
      text,
      media: [videoMedia(mp4)],
      idempotencyKey: randomUUID(),
      timeoutMs: TIMEOUT,
      saveState: async (s) => (saved.push(s), true),
    });
    expect(lost).toMatchObject({ outcome: 'ambiguous', rule: 'facebook-video-finish-unknown' });
    expect(lost.evidence).toMatchObject({ videoId: saved[0]!.videoId, step: 'finish' });
    const readBack = (state: ProviderState) =>
      account.client.readBack!({
        idempotencyKey: randomUUID(),
        text,
        kind: 'post',
        inReplyTo: null,
        state,
        evidence: [lost.evidence ?? {}],
        since: new Date(Date.now() - 60_000),
        until: new Date(),
        timeoutMs: TIMEOUT,
      });
    expect(await readBack(saved[0]!)).toMatchObject({ verdict: 'pending' });
    await sleep(FACEBOOK_VIDEO_PROCESSING_MS + 200);
    // No kept state (the save was lost too): the ambiguous attempt's evidence names the video.
    const found = await readBack({});
    expect(found).toMatchObject({ verdict: 'found', evidence: { stage: 'published' } });
    const again = await attempt(account, { text, media: [videoMedia(mp4)] }, saved[0]!);
    expect(again.result).toMatchObject({ outcome: 'sent', rule: 'facebook-video-published' });
    if (found.verdict === 'found') expect(again.result.externalId).toBe(found.post.id);
    expect(await sessions(account)).toBe(1);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('a lost answer to a chunk: not_sent (a chunk is no post); the next attempt reads the bytes Facebook has (here all: it only finishes), same session', async () => {
    const account = await sandbox.connectAccount('facebook');
    const text = sandbox.uniqueText('resumed');
    const client = losing(account, (form) => form.includes('"upload_phase":"transfer"'));
    const saved: ProviderState[] = [];
    const lost = await client.publish({
      kind: 'post',
      text,
      media: [videoMedia(mp4)],
      idempotencyKey: randomUUID(),
      timeoutMs: TIMEOUT,
      saveState: async (s) => (saved.push(s), true),
    });
    expect(lost).toMatchObject({ outcome: 'not_sent', rule: 'facebook-video-transfer-incomplete' });
    const resumed = await attempt(account, { text, media: [videoMedia(mp4)] }, saved[0]!);
    expect(resumed.result.outcome).toBe('ambiguous'); // finished, processing
    expect(await sessions(account)).toBe(1);
    await sleep(FACEBOOK_VIDEO_PROCESSING_MS + 200);
    const last = await attempt(account, { text, media: [videoMedia(mp4)] }, saved[0]!);
    expect(last.result.outcome).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('refuses what a page post cannot be, calling nothing: a reply, a video with a photo', async () => {
    const account = await sandbox.connectAccount('facebook');
    for (const input of [
      { text: 'reply', kind: 'reply' as const, inReplyTo: '1' },
      { text: 'mixed', media: [videoMedia(mp4), image(jpeg)] },
    ]) {
      const { result } = await attempt(account, input);
      expect(result).toMatchObject({ outcome: 'failed', rule: 'invalid-input' });
    }
    expect(await sessions(account)).toBe(0);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('whoAmI names the page; deletePost removes an extra copy, and a copy already gone counts as deleted', async () => {
    const account = await sandbox.connectAccount('facebook');
    expect(await account.client.whoAmI({ timeoutMs: TIMEOUT })).toMatchObject({
      ok: true,
      id: account.platformUserId,
    });
    const { result } = await attempt(account, { text: sandbox.uniqueText('to delete') });
    expect(await account.client.deletePost(result.externalId!, { timeoutMs: TIMEOUT })).toEqual({
      ok: true,
      alreadyGone: false,
    });
    expect(await account.client.deletePost(result.externalId!, { timeoutMs: TIMEOUT })).toEqual({
      ok: true,
      alreadyGone: true,
    });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('a revoked page token: the publish fails as token rejected (Graph 190), nothing posted', async () => {
    const account = await sandbox.connectAccount('facebook');
    await sandbox.store.oauth.revokeAccount(account.sandboxAccount.id);
    const { result } = await attempt(account, { text: 'after revoke' });
    expect(result).toMatchObject({ outcome: 'failed', rule: 'facebook-token-rejected', tokenRejected: true });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });
});
