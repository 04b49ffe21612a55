import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendOnce } from '@/lib/net/send';
import { createProviderClient } from '@/lib/providers';
import type { ProviderTransport } from '@/lib/providers/transport';
import type { PublishInput } from '@/lib/providers/types';
import { startTestSandbox } from '@/testing/sandbox';
import { testVideoBytes, videoMedia } from '@/testing/videos';
import { UNAUDITED_REASON } from './classifier';

// The real TikTok client against the sandbox's TikTok dialect (Postgres store, real sockets): creator_info first, one
// init, the publish_id kept, the status as the evidence; the sandbox's own records count the posts.

const VIDEO_URL = 'https://semel.example/api/media/clip?sig=test';
let video: Uint8Array;
beforeAll(async () => {
  video = await testVideoBytes();
});
// The platform pulls the video from "this app's" signed URL; any other URL cannot be fetched.
const pulled: string[] = [];
const sandbox = await startTestSandbox({
  hangMs: 2_000,
  fetchImage: async (url) => {
    pulled.push(url);
    return url === VIDEO_URL ? video : url.endsWith('not-a-video') ? new TextEncoder().encode('<html>') : null;
  },
});
const { db } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

const publishes = (account: Account) =>
  db.execute<{ id: string; mode: string; source: string; post_id: string | null; uploaded_bytes: number }>(
    sql`select id, mode, source, post_id::text, uploaded_bytes::int from sandbox.tiktok_publishes
        where account_id = ${account.sandboxAccount.id} order by created_at`,
  );

function input(overrides: Partial<PublishInput> = {}): PublishInput {
  return {
    text: sandbox.uniqueText('tiktok #demo'),
    kind: 'post',
    idempotencyKey: randomUUID(),
    timeoutMs: 5_000,
    media: [videoMedia(video, { publicUrl: VIDEO_URL })],
    options: { privacy_level: 'PUBLIC_TO_EVERYONE' },
    ...overrides,
  };
}

/** Records every request the client sends, by path. */
function recording() {
  const paths: string[] = [];
  const transport: ProviderTransport = (request) => {
    paths.push(`${request.method} ${new URL(request.url).pathname.replace(/^.*\/tiktok/, '')}`);
    return sendOnce(request);
  };
  return { paths, transport };
}

function clientOf(account: Account, transport?: ProviderTransport) {
  return createProviderClient(
    {
      provider: 'tiktok',
      baseUrl: '/api/sandbox/tiktok',
      platformUserId: account.platformUserId,
      accessToken: account.token,
    },
    { origin: sandbox.url, transport },
  );
}

describe('TikTok client: direct post, inbox, file upload', () => {
  it('I1 — a direct post by PULL_FROM_URL: creator_info first, one init, the publish_id kept, then PUBLISH_COMPLETE', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const { paths, transport } = recording();
    const saved: unknown[] = [];
    const post = input({ saveState: async (state) => (saved.push(state), true) });
    const result = await clientOf(account, transport).publish(post);
    expect(result, result.reason).toMatchObject({ outcome: 'sent', rule: 'tiktok-publish-complete' });
    const [publish] = await publishes(account);
    expect(result.externalId).toBe(publish!.post_id);
    expect(result.url).toMatch(new RegExp(`/video/${publish!.post_id}$`));
    expect(paths.slice(0, 2)).toEqual([
      'POST /v2/post/publish/creator_info/query/',
      'POST /v2/post/publish/video/init/',
    ]);
    expect(paths.slice(2).every((p) => p === 'POST /v2/post/publish/status/fetch/')).toBe(true);
    expect(saved).toEqual([
      {
        publishId: publish!.id,
        mode: 'direct',
        source: 'PULL_FROM_URL',
        privacyLevel: 'PUBLIC_TO_EVERYONE',
        listed: true,
        initAt: expect.any(String),
      },
    ]);
    const copies = await sandbox.allPosts(account.sandboxAccount.id);
    expect(copies.map((p) => [p.text, p.media.map((m) => m.type)])).toEqual([[post.text, ['video/mp4']]]);
    expect(pulled).toContain(VIDEO_URL);
  });

  it('I1 — sent to the inbox once: SEND_TO_USER_INBOX is that mode’s success, never listed', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const { paths, transport } = recording();
    const client = clientOf(account, transport);
    const result = await client.publish(input({ options: { post_mode: 'inbox' } }));
    expect(result, result.reason).toMatchObject({ outcome: 'sent', rule: 'tiktok-sent-to-inbox' });
    const [publish] = await publishes(account);
    expect(publish).toMatchObject({ mode: 'inbox', id: result.externalId });
    expect(paths).toContain('POST /v2/post/publish/inbox/video/init/');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
    expect(await client.listRecent({ since: new Date(Date.now() - 60_000) })).toEqual([]);
  });

  it('I1 — a FILE_UPLOAD: one chunk with Content-Range, the declared size checked, one post', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const { paths, transport } = recording();
    const result = await clientOf(account, transport).publish(input({ media: [videoMedia(video)] }));
    expect(result, result.reason).toMatchObject({ outcome: 'sent', rule: 'tiktok-publish-complete' });
    expect(paths).toContain('PUT /upload/');
    const [publish] = await publishes(account);
    expect(publish).toMatchObject({ source: 'FILE_UPLOAD', uploaded_bytes: video.length });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('a pulled URL that is no video: FAILED with TikTok’s reason, nothing posted', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const result = await clientOf(account).publish(
      input({ media: [videoMedia(video, { publicUrl: 'https://semel.example/not-a-video' })] }),
    );
    expect(result).toMatchObject({ outcome: 'failed', rule: 'tiktok-publish-failed' });
    expect(result.reason).toContain('file_format_check_failed');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });
});

describe('TikTok client: only what the creator allows', () => {
  it('no privacy level chosen, or one the creator does not have: refused clearly, no init', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const { paths, transport } = recording();
    const client = clientOf(account, transport);
    const missing = await client.publish(input({ options: {} }));
    expect(missing).toMatchObject({ outcome: 'failed', rule: 'tiktok-privacy-level-missing' });
    expect(missing.reason).toContain('PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY');
    const wrong = await client.publish(input({ options: { privacy_level: 'EVERYONE_ON_EARTH' } }));
    expect(wrong).toMatchObject({ outcome: 'failed', rule: 'tiktok-privacy-level-not-allowed' });
    const long = await client.publish(
      input({ media: [videoMedia(video, { publicUrl: VIDEO_URL, durationMs: 601_000 })] }),
    );
    expect(long).toMatchObject({ outcome: 'failed', rule: 'tiktok-video-too-long' });
    expect(paths.filter((p) => p.includes('init'))).toEqual([]);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('an unaudited app: a public post is refused with the unaudited sentence; SELF_ONLY goes out, never listed', async () => {
    const account = await sandbox.connectAccount('tiktok');
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'tiktok-unaudited' });
    const client = clientOf(account);
    const refused = await client.publish(input());
    expect(refused).toMatchObject({ outcome: 'failed', rule: 'tiktok-unaudited-client', httpStatus: 403 });
    expect(refused.reason).toContain(UNAUDITED_REASON);
    const text = sandbox.uniqueText('private');
    const sent = await client.publish(input({ text, options: { privacy_level: 'SELF_ONLY' } }));
    // A private post gets no public post id: the publish_id stands for it.
    expect(sent).toMatchObject({
      outcome: 'sent',
      rule: 'tiktok-publish-complete',
      externalId: expect.stringMatching(/^v_pub/),
    });
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await client.listRecent({ since: new Date(Date.now() - 60_000) })).toEqual([]);
  });

  it('a text post without a video, a reply: refused before any request', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const client = clientOf(account);
    expect((await client.publish(input({ media: [] }))).rule).toBe('invalid-input');
    expect((await client.publish(input({ kind: 'reply', inReplyTo: '1' }))).rule).toBe('invalid-input');
  });
});

describe('TikTok sandbox: as weak as the real thing', () => {
  it('no idempotency: two inits of the same video and caption make two posts', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const client = clientOf(account);
    const same = input();
    expect((await client.publish(same)).outcome).toBe('sent');
    expect((await client.publish(same)).outcome).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, same.text)).toBe(2);
  });

  it('the video list shows public videos only, captions cut at 150 characters, after processing', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const client = clientOf(account);
    const text = `${sandbox.uniqueText('long caption')} ${'word '.repeat(60)}`.trim();
    const sent = await client.publish(input({ text }));
    const listed = await client.listRecent({ since: new Date(Date.now() - 60_000) });
    expect(listed).toEqual([
      expect.objectContaining({ id: sent.externalId, text: text.slice(0, 150), inReplyTo: null }),
    ]);
  });

  it('whoAmI reads user/info', async () => {
    const account = await sandbox.connectAccount('tiktok');
    expect(await clientOf(account).whoAmI()).toMatchObject({
      ok: true,
      id: account.platformUserId,
      handle: account.sandboxAccount.handle,
    });
  });
});
