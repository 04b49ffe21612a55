import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendOnce } from '@/lib/net/send';
import type { ProviderTransport } from '@/lib/providers/transport';
import type { ProviderState, PublishInput, RawOutcome } from '@/lib/providers/types';
import { SANDBOX_PROJECT, YOUTUBE_DAILY_QUOTA } from '@/sandbox/dialects/youtube/api';
import { pacificDay } from '@/sandbox/dialects/youtube/uploads';
import { startTestSandbox } from '@/testing/sandbox';
import { makeTestVideo } from '@/testing/video';
import { testVideoBytes, videoMedia } from '@/testing/videos';
import { createYoutubeClient } from './client';
import { CHUNK_MULTIPLE } from './upload';

// The real YouTube client against the sandbox's YouTube dialect (Postgres store, real sockets): one resumable session
// per delivery, its URI kept before the first byte, interruptions resumed from the session's own offset, and the
// sandbox's records counting sessions and videos.

const dir = mkdtempSync(path.join(os.tmpdir(), 'semel-youtube-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let small: Uint8Array;
let large: Uint8Array; // several 256 KiB chunks
beforeAll(async () => {
  small = await testVideoBytes();
  large = new Uint8Array(
    readFileSync(await makeTestVideo(path.join(dir, 'large.mp4'), { seconds: 2, bitRate: '6M', seed: 3 })),
  );
  expect(large.length).toBeGreaterThan(3 * CHUNK_MULTIPLE);
}, 120_000);
const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;
// Every account of the sandbox shares one project's quota (six uploads a day), as on Google: each test starts a day.
beforeEach(async () => {
  await db.execute(sql`delete from sandbox.youtube_quota`);
});

const sessions = (account: Account) => sandbox.store.listYoutubeUploads(account.sandboxAccount.id);
const videos = async (account: Account) =>
  (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => !p.deletedAt);

function clientOf(account: Account, transport?: ProviderTransport, chunkBytes = CHUNK_MULTIPLE) {
  return createYoutubeClient(
    {
      baseUrl: `${sandbox.url}/api/sandbox/youtube`,
      platformUserId: account.platformUserId,
      accessToken: account.token,
      outbound: { trustedOrigin: sandbox.url },
    },
    transport,
    { chunkBytes },
  );
}

function input(bytes: Uint8Array, overrides: Partial<PublishInput> = {}) {
  const saved: ProviderState[] = [];
  const post: PublishInput = {
    text: sandbox.uniqueText('youtube clip\nwith a description'),
    kind: 'post',
    idempotencyKey: randomUUID(),
    timeoutMs: 8_000,
    media: [videoMedia(bytes)],
    saveState: async (state) => (saved.push(state), true),
    ...overrides,
  };
  return { post, saved };
}

/** Records every request the client sends: method, path (and whether it is a status query). */
function recording(wrap: ProviderTransport = sendOnce) {
  const calls: string[] = [];
  const transport: ProviderTransport = (request) => {
    const range = request.headers?.['content-range'] ?? '';
    calls.push(
      `${request.method} ${new URL(request.url).pathname.replace(/^\/api\/sandbox\/youtube/, '')} ${range}`.trim(),
    );
    return wrap(request);
  };
  return { calls, transport };
}

const lost = (message: string): RawOutcome => ({
  type: 'error',
  code: 'ECONNRESET',
  name: 'Error',
  message,
  timedOut: false,
  connection: { socketAssigned: true, reused: false, tls: false, connected: true, secured: false, bytesWritten: 1000 },
});

describe('YouTube client: resumable upload', () => {
  it('I1 — one session, its URI kept before the first byte; chunks of 256 KiB; the video is the description', async () => {
    const account = await sandbox.connectAccount('youtube');
    const { calls, transport } = recording();
    const { post, saved } = input(large);
    const result = await clientOf(account, transport).publish(post);
    expect(result, result.reason).toMatchObject({ outcome: 'sent', rule: 'youtube-video-uploaded' });
    expect(calls[0]).toMatch(/^POST \/upload\/youtube\/v3\/videos/);
    expect(saved[0]).toMatchObject({ sessionUri: expect.stringContaining('upload_id='), sizeBytes: large.length });
    const puts = calls.filter((c) => c.startsWith('PUT'));
    expect(puts.length).toBe(Math.ceil(large.length / CHUNK_MULTIPLE));
    expect(puts[0]).toContain(`bytes 0-${CHUNK_MULTIPLE - 1}/${large.length}`);
    const [session] = await sessions(account);
    expect(await sessions(account)).toHaveLength(1);
    expect(session).toMatchObject({ uploadedBytes: large.length, title: 'youtube clip', privacyStatus: 'public' });
    const [video] = await videos(account);
    expect(result.externalId).toBe(video!.id);
    expect(video!.text).toBe(post.text);
    expect(video!.media[0]!.type).toBe('video/mp4');
  });

  it('I1 — a reset mid-upload: the session is asked for its offset (308 + Range) and the upload goes on; one session', async () => {
    const account = await sandbox.connectAccount('youtube');
    let puts = 0;
    const { calls, transport } = recording(async (request) => {
      const raw = await sendOnce(request);
      // The second chunk reaches YouTube, its answer is lost.
      if (request.method === 'PUT' && !request.headers?.['content-range']?.includes('*') && ++puts === 2)
        return lost('reset after the second chunk');
      return raw;
    });
    const { post } = input(large);
    const result = await clientOf(account, transport).publish(post);
    expect(result, result.reason).toMatchObject({ outcome: 'sent' });
    expect(calls.filter((c) => c.includes(`bytes */${large.length}`))).toHaveLength(1);
    // The chunk after the query starts where the session says it got: the lost chunk is not sent again.
    const after = calls[calls.findIndex((c) => c.includes('*/')) + 1]!;
    expect(after).toContain(`bytes ${2 * CHUNK_MULTIPLE}-`);
    expect(await sessions(account)).toHaveLength(1);
    expect(await videos(account)).toHaveLength(1);
  });

  it('I1 — an interrupted attempt is not_sent with the session kept; the next attempt resumes it (no second videos.insert)', async () => {
    const account = await sandbox.connectAccount('youtube');
    let puts = 0;
    const dropping: ProviderTransport = async (request) => {
      if (request.method === 'PUT' && ++puts >= 2) return lost('the network is gone');
      return sendOnce(request);
    };
    const { post, saved } = input(large);
    const first = await clientOf(account, dropping).publish(post);
    expect(first, first.reason).toMatchObject({ outcome: 'not_sent', rule: 'youtube-upload-interrupted' });
    expect(first.evidence).toMatchObject({ received: CHUNK_MULTIPLE });
    const { calls, transport } = recording();
    const second = await clientOf(account, transport).publish({ ...post, state: saved.at(-1) });
    expect(second, second.reason).toMatchObject({ outcome: 'sent' });
    expect(calls[0]).toBe(`PUT /upload/youtube/v3/videos bytes */${large.length}`);
    expect(calls.some((c) => c.startsWith('POST'))).toBe(false);
    expect(await sessions(account)).toHaveLength(1);
    expect(await videos(account)).toHaveLength(1);
  });

  it('I1 — the last chunk’s answer is lost: the session says the video exists → sent, one video', async () => {
    const account = await sandbox.connectAccount('youtube');
    const { transport } = recording(async (request) => {
      const raw = await sendOnce(request);
      const range = request.headers?.['content-range'] ?? '';
      return request.method === 'PUT' && range.endsWith(`-${small.length - 1}/${small.length}`) ? lost('lost') : raw;
    });
    const { post } = input(small);
    const result = await clientOf(account, transport).publish(post);
    expect(result, result.reason).toMatchObject({ outcome: 'sent', rule: 'youtube-video-uploaded' });
    expect(await sessions(account)).toHaveLength(1);
    expect(await videos(account)).toHaveLength(1);
  });

  it('a lost answer to the session start: not_sent (no byte can follow), and that session never becomes a video', async () => {
    const account = await sandbox.connectAccount('youtube');
    const starting: ProviderTransport = async (request) => {
      const raw = await sendOnce(request);
      return request.method === 'POST' ? lost('answer to the session start lost') : raw;
    };
    const { post, saved } = input(small);
    const result = await clientOf(account, starting).publish(post);
    expect(result, result.reason).toMatchObject({ outcome: 'not_sent', rule: 'youtube-session-not-started' });
    expect(saved).toEqual([]);
    const [orphan] = await sessions(account);
    expect(orphan).toMatchObject({ uploadedBytes: 0, postId: null });
    expect(await videos(account)).toHaveLength(0);
  });

  it('the sandbox checks the bytes: a file that is no MP4/MOV is a failed upload, no video', async () => {
    const account = await sandbox.connectAccount('youtube');
    const junk = new Uint8Array(4096).fill(7);
    const { post } = input(junk);
    const result = await clientOf(account).publish(post);
    expect(result, result.reason).toMatchObject({ outcome: 'failed', rule: 'youtube-upload-failed' });
    expect(result.reason).toContain('invalidFile');
    expect(await videos(account)).toHaveLength(0);
  });

  it('a title with < and > goes without them; the first line is the title, cut at 100 characters', async () => {
    const account = await sandbox.connectAccount('youtube');
    const text = `${'a <b> '.repeat(30)}\nsecond line`;
    const result = await clientOf(account).publish(input(small, { text }).post);
    expect(result, result.reason).toMatchObject({ outcome: 'sent' });
    const [session] = await sessions(account);
    expect(session!.title).not.toMatch(/[<>]/);
    expect([...session!.title].length).toBeLessThanOrEqual(100);
    expect(session!.description).toBe(text.replace(/[<>]/g, '').trim());
  });

  it("the account's options go with the upload: its title, tags and privacy; a release time makes it private until then", async () => {
    const account = await sandbox.connectAccount('youtube');
    const options = { title: 'Chosen title', tags: ['launch', 'behind the scenes'], privacy_status: 'unlisted' };
    const result = await clientOf(account).publish(input(small, { options }).post);
    expect(result, result.reason).toMatchObject({ outcome: 'sent' });
    const publishAt = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await clientOf(account).publish(input(small, { options: { publish_at: publishAt } }).post);
    expect(scheduled, scheduled.reason).toMatchObject({ outcome: 'sent' });
    const [first, second] = await sessions(account);
    expect(first).toMatchObject({ title: 'Chosen title', tags: options.tags, privacyStatus: 'unlisted' });
    expect(second).toMatchObject({ privacyStatus: 'private', publishAt: new Date(publishAt) });
  });

  it('a spent quota: 403 quotaExceeded → not_sent until midnight Pacific, nothing started', async () => {
    const account = await sandbox.connectAccount('youtube');
    const day = pacificDay(new Date());
    const used = await sandbox.store.youtubeQuotaUsed({ project: SANDBOX_PROJECT, day });
    await sandbox.store.spendYoutubeQuota({
      project: SANDBOX_PROJECT,
      day,
      units: YOUTUBE_DAILY_QUOTA - used - 1_000,
      limit: YOUTUBE_DAILY_QUOTA,
    });
    const result = await clientOf(account).publish(input(small).post);
    expect(result, result.reason).toMatchObject({
      outcome: 'not_sent',
      rule: 'youtube-quota-exceeded',
      httpStatus: 403,
    });
    expect(result.retryAt!.getTime()).toBeGreaterThan(Date.now());
    expect(result.retryAt!.getTime()).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000 + 60_000);
    expect(await sessions(account)).toHaveLength(0);
  });

  it('whoAmI names the channel by its id and @handle; readBack settles by the session', async () => {
    const account = await sandbox.connectAccount('youtube');
    const who = await clientOf(account).whoAmI({ timeoutMs: 3_000 });
    expect(who).toMatchObject({ ok: true, id: account.platformUserId });
    const { post, saved } = input(small);
    await clientOf(account).publish(post);
    const read = await clientOf(account).readBack!({
      idempotencyKey: post.idempotencyKey,
      text: post.text,
      kind: 'post',
      inReplyTo: null,
      state: saved.at(-1)!,
      evidence: [],
      since: new Date(Date.now() - 60_000),
      until: new Date(),
    });
    expect(read.verdict).toBe('found');
  });
});
