import { describe, expect, it } from 'vitest';
import { startMemoryTestSandbox, startTestSandbox } from '@/testing/sandbox';

// The TikTok dialect on the wire (raw HTTP, as any client would call it), on both stores: TikTok's envelope, no
// idempotency, FILE_UPLOAD chunks taken in order within the declared size (a compare-and-set), only video bytes, a
// publish finished once, and the status endpoint as the evidence.

const backends = [
  { name: 'Postgres store', start: () => startTestSandbox({ hangMs: 2_000 }) },
  { name: 'memory store', start: () => startMemoryTestSandbox({ hangMs: 2_000 }) },
];
/** The start of an MP4 (an `ftyp` box), then filler: enough for the sniffer, as TikTok reads the container. */
const mp4 = (size: number) => {
  const bytes = new Uint8Array(size);
  bytes.set([0, 0, 0, 0x18, ...new TextEncoder().encode('ftypisom')]);
  return bytes;
};
type Envelope = { data: Record<string, any>; error: { code: string; message: string; log_id: string } }; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.each(backends)('TikTok sandbox dialect ($name)', async ({ start }) => {
  const sandbox = await start();
  const api = `${sandbox.url}/api/sandbox/tiktok`;
  const post = async (token: string, path: string, body: unknown) => {
    const res = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Envelope };
  };
  const init = (token: string, size: number, privacy = 'PUBLIC_TO_EVERYONE') =>
    post(token, '/v2/post/publish/video/init/', {
      post_info: { title: 'chunks #tiktok', privacy_level: privacy },
      source_info: { source: 'FILE_UPLOAD', video_size: size, chunk_size: size, total_chunk_count: 1 },
    });
  const put = (url: string, range: string, bytes: Uint8Array) =>
    fetch(url, { method: 'PUT', headers: { 'content-range': range }, body: Buffer.from(bytes) }).then((r) => r.status);
  const status = async (token: string, publishId: string) =>
    (await post(token, '/v2/post/publish/status/fetch/', { publish_id: publishId })).body;

  it('a private creator (tiktok-private): no public level offered, Duet and Stitch off; init refuses a public post', async () => {
    const account = await sandbox.connectAccount('tiktok');
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'tiktok-private' });
    const creator = await post(account.token, '/v2/post/publish/creator_info/query/', {});
    expect(creator.body.data).toMatchObject({
      privacy_level_options: ['MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
      duet_disabled: true,
      stitch_disabled: true,
    });
    const refused = await init(account.token, 1_000);
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'privacy_level_option_mismatch' } } });
    expect((await init(account.token, 1_000, 'SELF_ONLY')).body.error.code).toBe('ok');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('TikTok’s envelope: a bad token is 401 access_token_invalid; an unknown publish_id is invalid_publish_id', async () => {
    const account = await sandbox.connectAccount('tiktok');
    expect(await post('nope', '/v2/post/publish/creator_info/query/', {})).toMatchObject({
      status: 401,
      body: { error: { code: 'access_token_invalid', log_id: expect.any(String) } },
    });
    expect((await status(account.token, 'v_pub~v2-1.1')).error.code).toBe('invalid_publish_id');
    // `username` needs user.info.profile, which the app never asks for.
    const profile = await fetch(`${api}/v2/user/info/?fields=open_id,username`, {
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(profile.status).toBe(401);
    expect(((await profile.json()) as Envelope).error.code).toBe('scope_not_authorized');
    const creator = await post(account.token, '/v2/post/publish/creator_info/query/', {});
    expect(creator.body).toMatchObject({
      error: { code: 'ok' },
      data: { privacy_level_options: expect.arrayContaining(['SELF_ONLY']), max_video_post_duration_sec: 600 },
    });
  });

  it('chunks: in order, within the declared size, the last one completes it (201); then processing, then one post', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const { body } = await init(account.token, 100);
    const { publish_id: publishId, upload_url: uploadUrl } = body.data as { publish_id: string; upload_url: string };
    expect((await status(account.token, publishId)).data).toMatchObject({
      status: 'PROCESSING_UPLOAD',
      uploaded_bytes: 0,
    });
    expect(await put(uploadUrl, 'bytes 0-99/101', mp4(100))).toBe(416); // not the declared size
    expect(await put(uploadUrl, 'bytes 10-99/100', mp4(90))).toBe(416); // not where the received bytes end
    expect(await put(uploadUrl, 'bytes 0-99/100', mp4(100))).toBe(201);
    expect(await put(uploadUrl, 'bytes 0-99/100', mp4(100))).toBe(416); // taken once
    expect((await status(account.token, publishId)).data.status).toBe('PROCESSING_UPLOAD');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const done = await status(account.token, publishId);
    expect(done.data).toMatchObject({ status: 'PUBLISH_COMPLETE', uploaded_bytes: 100 });
    const [copy] = await sandbox.allPosts(account.sandboxAccount.id);
    // The post id as TikTok writes it, an int64 JSON number, digit for digit.
    expect(done.data.publicaly_available_post_id).toHaveLength(1);
    const text = await fetch(`${api}/v2/post/publish/status/fetch/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ publish_id: publishId }),
    }).then((r) => r.text());
    expect(text).toContain(`"publicaly_available_post_id":[${copy!.id}]`);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('bytes that are no video: FAILED file_format_check_failed, nothing posted', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const { body } = await init(account.token, 10, 'SELF_ONLY');
    expect(await put(body.data.upload_url, 'bytes 0-9/10', new Uint8Array(10))).toBe(201);
    expect((await status(account.token, body.data.publish_id)).data).toMatchObject({
      status: 'FAILED',
      fail_reason: 'file_format_check_failed',
    });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('no idempotency: the same init twice is two publishes, each its own post', async () => {
    const account = await sandbox.connectAccount('tiktok');
    for (let i = 0; i < 2; i++) {
      const { body } = await init(account.token, 64);
      expect(await put(body.data.upload_url, 'bytes 0-63/64', mp4(64))).toBe(201);
    }
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(2);
  });

  it('sizes as the Media Transfer Guide sets them; privacy among the creator’s options', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const bad = await post(account.token, '/v2/post/publish/video/init/', {
      post_info: { title: 'x', privacy_level: 'PUBLIC_TO_EVERYONE' },
      source_info: { source: 'FILE_UPLOAD', video_size: 100, chunk_size: 50, total_chunk_count: 2 },
    });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_params' } } });
    expect((await init(account.token, 10, 'EVERYONE')).body.error.code).toBe('privacy_level_option_mismatch');
  });

  it('the daily cap: the 16th direct post within 24 h is refused with spam_risk_too_many_posts', async () => {
    const account = await sandbox.connectAccount('tiktok');
    for (let i = 0; i < 15; i++) expect((await init(account.token, 10)).status).toBe(200);
    expect(await init(account.token, 10)).toMatchObject({
      status: 403,
      body: { error: { code: 'spam_risk_too_many_posts' } },
    });
  });

  it('429 rate_limit_exceeded under the rate-limit fault: nothing made', async () => {
    const account = await sandbox.connectAccount('tiktok');
    await sandbox.setFaults(account.sandboxAccount.id, { rateLimited: 1 });
    expect(await init(account.token, 10)).toMatchObject({
      status: 429,
      body: { error: { code: 'rate_limit_exceeded' } },
    });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });
});
