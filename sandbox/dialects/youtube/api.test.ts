import { describe, expect, it } from 'vitest';
import { makeImage } from '@/testing/images';
import { startMemoryTestSandbox, startTestSandbox } from '@/testing/sandbox';
import { SANDBOX_PROJECT, YOUTUBE_DAILY_QUOTA } from './api';
import { pacificDay } from './uploads';

// The YouTube dialect on the wire (raw HTTP, as any client would call it), on both stores: a session per
// videos.insert, chunks in order in multiples of 256 KiB, 308 + Range until the last byte, the session asked with
// `bytes */N`, only MP4/MOV made into videos, the video resource's rules, and the project's daily quota.

const backends = [
  { name: 'Postgres store', start: () => startTestSandbox({ hangMs: 2_000 }) },
  { name: 'memory store', start: () => startMemoryTestSandbox({ hangMs: 2_000 }) },
];
const KIB256 = 256 * 1024;
/** The start of an MP4 (an `ftyp` box), then filler: what the sniffer reads. */
const mp4 = (size: number) => {
  const bytes = new Uint8Array(size);
  bytes.set([0, 0, 0, 0x18, ...new TextEncoder().encode('ftypisom')]);
  return bytes;
};

describe.each(backends)('YouTube sandbox dialect ($name)', async ({ start }) => {
  const sandbox = await start();
  const api = `${sandbox.url}/api/sandbox/youtube`;
  const begin = (token: string, size: number, video: Record<string, unknown> = {}) =>
    fetch(`${api}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-length': String(size),
        'x-upload-content-type': 'video/mp4',
      },
      body: JSON.stringify({ snippet: { title: 'A title', description: 'words' }, status: {}, ...video }),
    });
  const put = (url: string, range: string, bytes = new Uint8Array(0)) =>
    fetch(url, { method: 'PUT', headers: { 'content-range': range }, body: Buffer.from(bytes) });
  const reason = async (res: Response) =>
    ((await res.json()) as { error: { errors: { reason: string }[] } }).error.errors[0]!.reason;

  it('a session, 308 with Range per chunk, the query, then the video resource; a chunk out of order is refused', async () => {
    const account = await sandbox.connectAccount('youtube');
    const size = 2 * KIB256 + 100;
    const bytes = mp4(size);
    const started = await begin(account.token, size);
    expect(started.status).toBe(200);
    const session = started.headers.get('location')!;
    const before = await put(session, `bytes */${size}`);
    expect([before.status, before.headers.get('range')]).toEqual([308, null]);
    const first = await put(session, `bytes 0-${KIB256 - 1}/${size}`, bytes.subarray(0, KIB256));
    expect([first.status, first.headers.get('range')]).toEqual([308, `bytes=0-${KIB256 - 1}`]);
    // Not where the received bytes end, and not a multiple of 256 KiB short of the last byte: both refused.
    expect((await put(session, `bytes ${2 * KIB256}-${size - 1}/${size}`, bytes.subarray(2 * KIB256))).status).toBe(
      400,
    );
    const odd = await put(session, `bytes ${KIB256}-${KIB256 + 999}/${size}`, bytes.subarray(KIB256, KIB256 + 1000));
    expect(await reason(odd)).toBe('invalidChunkSize');
    const asked = await put(session, `bytes */${size}`);
    expect([asked.status, asked.headers.get('range')]).toEqual([308, `bytes=0-${KIB256 - 1}`]);
    expect((await put(session, `bytes ${KIB256}-${size - 1}/${size}`, bytes.subarray(KIB256))).status).toBe(200);
    const done = await put(session, `bytes */${size}`);
    const video = (await done.json()) as { id: string; status: { uploadStatus: string } };
    expect(done.status).toBe(200);
    expect(video.status.uploadStatus).toBe('uploaded');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
    // thumbnails.set: a JPEG or PNG on the account's own video, nothing else.
    const thumbnail = (videoId: string, body: Uint8Array, token = account.token) =>
      fetch(`${api}/upload/youtube/v3/thumbnails/set?videoId=${videoId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
        body: Buffer.from(body),
      });
    const png = await makeImage('png');
    expect((await thumbnail(video.id, png)).status).toBe(200);
    expect(await reason(await thumbnail(video.id, mp4(100)))).toBe('invalidImage');
    const other = await sandbox.connectAccount('youtube');
    expect((await thumbnail(video.id, png, other.token)).status).toBe(404);
  });

  it('no idempotency: the same video twice is two sessions and two videos', async () => {
    const account = await sandbox.connectAccount('youtube');
    for (let i = 0; i < 2; i++) {
      const session = (await begin(account.token, 1000)).headers.get('location')!;
      expect((await put(session, 'bytes 0-999/1000', mp4(1000))).status).toBe(200);
    }
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(2);
  });

  it('the video resource as YouTube checks it: title, description, publishAt; no token; an unknown session', async () => {
    const account = await sandbox.connectAccount('youtube');
    const refused = async (video: Record<string, unknown>) => reason(await begin(account.token, 1000, video));
    expect(await refused({ snippet: { title: 'x'.repeat(101) } })).toBe('invalidTitle');
    expect(await refused({ snippet: { title: 'a <b>' } })).toBe('invalidTitle');
    expect(await refused({ snippet: { title: 'ok', description: 'é'.repeat(2_501) } })).toBe('invalidDescription');
    expect(await refused({ snippet: { title: 'ok', description: '1 > 0' } })).toBe('invalidDescription');
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    expect(await refused({ status: { privacyStatus: 'public', publishAt: soon } })).toBe('invalidPublishAt');
    expect((await begin(account.token, 1000, { status: { privacyStatus: 'private', publishAt: soon } })).status).toBe(
      200,
    );
    expect((await begin('not-a-token', 1000)).status).toBe(401);
    expect((await put(`${api}/upload/youtube/v3/videos?uploadType=resumable&upload_id=nope`, 'bytes */1')).status).toBe(
      404,
    );
  });

  it('bytes that are no MP4/MOV: the upload completes as a failed video (invalidFile), no video on the channel', async () => {
    const account = await sandbox.connectAccount('youtube');
    const session = (await begin(account.token, 1000)).headers.get('location')!;
    const answer = await put(session, 'bytes 0-999/1000', new Uint8Array(1000).fill(1));
    expect(await answer.json()).toMatchObject({ status: { uploadStatus: 'failed', failureReason: 'invalidFile' } });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('the quota: 10,000 units a day for the project, 1,600 per insert — the seventh insert of a day is refused', async () => {
    const account = await sandbox.connectAccount('youtube');
    const day = pacificDay(new Date());
    const used = await sandbox.store.youtubeQuotaUsed({ project: SANDBOX_PROJECT, day });
    const room = Math.floor((YOUTUBE_DAILY_QUOTA - used) / 1_600);
    for (let i = 0; i < room; i++) expect((await begin(account.token, 1000)).status).toBe(200);
    const refused = await begin(account.token, 1000);
    expect([refused.status, await reason(refused)]).toEqual([403, 'quotaExceeded']);
  });
});
