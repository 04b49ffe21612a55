import { describe, expect, it } from 'vitest';
import { encodeMultipart } from '@/lib/net/send';
import { startMemoryTestSandbox, startTestSandbox } from '@/testing/sandbox';

// The Facebook dialect on the wire (raw HTTP, as any client would call it), on both stores: never more forgiving
// than Facebook — no dedupe (the same message twice is two posts), a video session takes its chunks in order within
// the declared size, is finished once and only when whole, and the bytes must be a video; a page's edges need that
// page's token; published_posts honours since/until.

const backends = [
  { name: 'Postgres store', start: () => startTestSandbox({ hangMs: 2_000 }) },
  { name: 'memory store', start: () => startMemoryTestSandbox({ hangMs: 2_000 }) },
];
/** The start of an MP4 (an `ftyp` box), then filler: enough for the sniffer, as Facebook reads the container. */
const mp4 = (size: number) => {
  const bytes = new Uint8Array(size);
  bytes.set([0, 0, 0, 0x18, ...new TextEncoder().encode('ftypisom')]);
  return bytes;
};
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.each(backends)('Facebook sandbox dialect ($name)', async ({ start }) => {
  const sandbox = await start();
  const api = `${sandbox.url}/api/sandbox/facebook/v23.0`;
  const call = async (
    token: string,
    method: string,
    path: string,
    body?: URLSearchParams | ReturnType<typeof encodeMultipart>,
  ) => {
    const multipart = body && 'contentType' in body;
    const res = await fetch(`${api}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-type': multipart ? body.contentType : 'application/x-www-form-urlencoded' } : {}),
      },
      body: body ? (multipart ? new Uint8Array(body.data) : body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const form = (fields: Record<string, string>) => new URLSearchParams(fields);
  const chunk = (fields: Record<string, string>, data: Uint8Array) =>
    encodeMultipart({
      fields: { upload_phase: 'transfer', ...fields },
      files: [{ name: 'video_file_chunk', filename: 'chunk', contentType: 'application/octet-stream', data }],
    });

  it('no dedupe: the same message twice makes two posts, both listed in published_posts', async () => {
    const page = await sandbox.connectAccount('facebook');
    const message = `same twice ${Date.now()}`;
    const first = await call(page.token, 'POST', `/${page.platformUserId}/feed`, form({ message }));
    const second = await call(page.token, 'POST', `/${page.platformUserId}/feed`, form({ message }));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.body.id).not.toBe(second.body.id);
    const listed = await call(
      page.token,
      'GET',
      `/${page.platformUserId}/published_posts?fields=id,message,created_time`,
    );
    expect(listed.body.data.map((p: Json) => p.id).sort()).toEqual([first.body.id, second.body.id].sort());
    const future = Math.floor(Date.now() / 1000) + 3_600;
    expect((await call(page.token, 'GET', `/${page.platformUserId}/published_posts?until=${future}`)).status).toBe(400);
  });

  it('a page’s edges need that page’s token: another page’s token is refused (#200), nothing is posted', async () => {
    const page = await sandbox.connectAccount('facebook');
    const other = await sandbox.connectAccount('facebook');
    const refused = await call(other.token, 'POST', `/${page.platformUserId}/feed`, form({ message: 'not yours' }));
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 200 } } });
    expect((await sandbox.store.countPosts([page.sandboxAccount.id])).get(page.sandboxAccount.id) ?? 0).toBe(0);
  });

  it('a video session: chunks in order within the declared size, finished once and only when whole', async () => {
    const page = await sandbox.connectAccount('facebook');
    const bytes = mp4(3_000);
    const started = await call(
      page.token,
      'POST',
      `/${page.platformUserId}/videos`,
      form({ upload_phase: 'start', file_size: '3000' }),
    );
    expect(started.body).toMatchObject({ start_offset: '0', end_offset: '3000' });
    const session = started.body.upload_session_id as string;
    const videos = `/${page.platformUserId}/videos`;
    const early = await call(page.token, 'POST', videos, form({ upload_phase: 'finish', upload_session_id: session }));
    expect(early).toMatchObject({ status: 400, body: { error: { code: 6000 } } });
    const first = await call(
      page.token,
      'POST',
      videos,
      chunk({ upload_session_id: session, start_offset: '0' }, bytes.subarray(0, 1_000)),
    );
    expect(first.body).toMatchObject({ start_offset: '1000' });
    // A chunk that does not follow the bytes received (a resend of the first, a gap) is refused.
    for (const offset of ['0', '2000']) {
      const wrong = await call(
        page.token,
        'POST',
        videos,
        chunk({ upload_session_id: session, start_offset: offset }, bytes.subarray(0, 1_000)),
      );
      expect(wrong).toMatchObject({ status: 400, body: { error: { code: 6001 } } });
    }
    const past = await call(
      page.token,
      'POST',
      videos,
      chunk({ upload_session_id: session, start_offset: '1000' }, new Uint8Array(2_500)),
    );
    expect(past.status).toBe(400);
    const rest = await call(
      page.token,
      'POST',
      videos,
      chunk({ upload_session_id: session, start_offset: '1000' }, bytes.subarray(1_000)),
    );
    expect(rest.body).toMatchObject({ start_offset: '3000', end_offset: '3000' });
    const status = async () =>
      (await call(page.token, 'GET', `/${encodeURIComponent(started.body.video_id)}?fields=status`)).body.status;
    expect(await status()).toMatchObject({
      uploading_phase: { status: 'complete' },
      processing_phase: { status: 'not_started' },
    });
    const finished = await call(
      page.token,
      'POST',
      videos,
      form({ upload_phase: 'finish', upload_session_id: session, description: 'once' }),
    );
    expect(finished).toMatchObject({ status: 200, body: { success: true } });
    const again = await call(
      page.token,
      'POST',
      videos,
      form({ upload_phase: 'finish', upload_session_id: session, description: 'twice' }),
    );
    expect(again.status).toBe(400);
    expect(await status()).toMatchObject({ processing_phase: { status: 'in_progress' } });
    const posts = await sandbox.store.listAllPosts(page.sandboxAccount.id);
    expect(posts.map((p) => [p.text, p.media.map((m) => m.type)])).toEqual([['once', ['video/mp4']]]);
  });

  it('comments: no dedupe (the same comment twice is two), everyone listed with `from`, the page’s own deleted once', async () => {
    const page = await sandbox.connectAccount('facebook');
    const visitor = await sandbox.connectAccount('facebook');
    const post = await call(page.token, 'POST', `/${page.platformUserId}/feed`, form({ message: 'commented' }));
    const comments = `/${post.body.id}/comments`;
    const first = await call(page.token, 'POST', comments, form({ message: 'same words' }));
    const second = await call(page.token, 'POST', comments, form({ message: 'same words' }));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.body.id).toMatch(/^\d+_\d+$/);
    expect(first.body.id).not.toBe(second.body.id);
    const postId = String(post.body.id).split('_')[1]!;
    await sandbox.store.insertPost({ account: visitor.sandboxAccount, kind: 'reply', text: 'hi', inReplyToId: postId });
    // Two a page, newest first: the second page holds the rest, and no third.
    const read = (after?: string) =>
      call(
        page.token,
        'GET',
        `${comments}?fields=id,message,created_time,from&order=reverse_chronological&summary=true&limit=2${after ? `&after=${after}` : ''}`,
      );
    const one = await read();
    expect(one.status).toBe(200);
    expect(one.body.summary).toMatchObject({ total_count: 3 });
    const two = await read(one.body.paging.cursors.after);
    expect(two.body.paging.next).toBeUndefined();
    const all = [...one.body.data, ...two.body.data] as Json[];
    const ids = all.map((c) => c.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids).toEqual(expect.arrayContaining([first.body.id, second.body.id]));
    expect(all.map((c) => [c.message, c.from.id]).sort()).toEqual(
      [
        ['hi', visitor.platformUserId],
        ['same words', page.platformUserId],
        ['same words', page.platformUserId],
      ].sort(),
    );
    expect((await call(page.token, 'DELETE', `/${first.body.id}`)).body).toEqual({ success: true });
    expect((await call(page.token, 'DELETE', `/${first.body.id}`)).body.error).toMatchObject({
      code: 100,
      error_subcode: 33,
    });
  });

  it('comments refused as Facebook refuses: another page’s post, no message, too long, an attachment', async () => {
    const page = await sandbox.connectAccount('facebook');
    const other = await sandbox.connectAccount('facebook');
    const post = await call(page.token, 'POST', `/${page.platformUserId}/feed`, form({ message: 'mine' }));
    const comments = `/${post.body.id}/comments`;
    for (const [token, fields] of [
      [other.token, { message: 'not your page' }],
      [page.token, { message: ' ' }],
      [page.token, { message: 'x'.repeat(8_001) }],
      [page.token, { message: 'with a picture', attachment_url: 'https://example.com/a.jpg' }],
    ] as const) {
      const refused = await call(token, 'POST', comments, form(fields));
      expect(refused.status, JSON.stringify(fields).slice(0, 40)).toBe(400);
      expect(refused.body.error.code).toBe(100);
    }
    expect((await sandbox.store.listAllPosts(page.sandboxAccount.id)).filter((p) => p.kind === 'reply')).toEqual([]);
  });

  it('bytes that are not a video: the finish is taken, processing fails, no post', async () => {
    const page = await sandbox.connectAccount('facebook');
    const videos = `/${page.platformUserId}/videos`;
    const started = await call(page.token, 'POST', videos, form({ upload_phase: 'start', file_size: '500' }));
    const session = started.body.upload_session_id as string;
    await call(
      page.token,
      'POST',
      videos,
      chunk({ upload_session_id: session, start_offset: '0' }, new Uint8Array(500).fill(1)),
    );
    await call(page.token, 'POST', videos, form({ upload_phase: 'finish', upload_session_id: session }));
    const read = await call(page.token, 'GET', `/${encodeURIComponent(started.body.video_id)}?fields=status,post_id`);
    expect(read.body.status).toMatchObject({ video_status: 'error', processing_phase: { status: 'error' } });
    expect(read.body.post_id).toBeUndefined();
    expect(await sandbox.store.listAllPosts(page.sandboxAccount.id)).toEqual([]);
  });
});
