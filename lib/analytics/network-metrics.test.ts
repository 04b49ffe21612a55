import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { MetricName } from '@/db/metric-names';
import { sendOnce } from '@/lib/net/send';
import { createProviderClient } from '@/lib/providers';
import type { ProviderTransport } from '@/lib/providers/transport';
import type { PostMetricsRead, ProviderName, RawOutcome } from '@/lib/providers/types';
import { engagementOf, followersOf, servedMetrics } from '@/sandbox/behaviour/engagement';
import { tidOf } from '@/sandbox/dialects/bluesky/tid';
import type { SandboxAccount, SandboxPost } from '@/sandbox/store/types';
import { startTestSandbox } from '@/testing/sandbox';

// Integration per network (docs/analytics.md#networks): a sandbox post, aged a few days, read back by the real
// provider client through the dialect's real wire format. Each network's own fields (X public_metrics, Mastodon
// favourites_count, TikTok video/query…) are checked on the wire, and what the client parsed must equal the sandbox's
// numbers; a metric the network does not give is absent, never 0. A deleted post reads `gone` where the network says
// so (`missing` where it cannot tell deleted from not indexed yet: Bluesky); every account's follower count comes
// through its network's field. The sandbox is no more forgiving than the networks: no insights for an Instagram comment,
// and Bluesky's getPosts lags like the AppView.

const sandbox = await startTestSandbox();
const { db, store } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

/** The client with a transport that keeps every answer's raw body (the wire format the dialect served). */
function recordingClient(provider: ProviderName, a: Account) {
  const answers: unknown[] = [];
  const transport: ProviderTransport = async (request) => {
    const raw: RawOutcome = await sendOnce(request);
    if (raw.type === 'response') answers.push(raw.body);
    return raw;
  };
  const client = createProviderClient(
    {
      provider,
      baseUrl: `/api/sandbox/${provider}`,
      platformUserId: a.platformUserId,
      accessToken: a.credentials.accessToken,
      credentials: a.credentials,
    },
    { origin: sandbox.url, transport },
  );
  return { client, answers };
}

/** Moves a sandbox post `days` into the past (the sandbox's numbers grow with a post's age). */
async function aged(post: SandboxPost, days: number): Promise<SandboxPost> {
  await db.execute(
    sql`update sandbox.posts set created_at = now() - make_interval(days => ${days}) where id = ${post.id}::bigint`,
  );
  return (await store.getPost(post.id))!;
}

async function textPost(account: SandboxAccount, extra: Partial<Parameters<typeof store.insertPost>[0]> = {}) {
  const post = await store.insertPost({ account, kind: 'post', text: sandbox.uniqueText('metrics'), ...extra });
  if (!post) throw new Error('not created');
  return post;
}

/** A public TikTok video made through the store's own publish steps (one chunk, then processed). */
async function tiktokVideo(account: SandboxAccount) {
  const publish = await store.createTiktokPublish({
    accountId: account.id,
    mode: 'direct',
    source: 'FILE_UPLOAD',
    title: sandbox.uniqueText('tiktok'),
    privacyLevel: 'PUBLIC_TO_EVERYONE',
    videoUrl: null,
    videoSize: 10,
    chunkSize: 10,
    totalChunkCount: 1,
  });
  const media = [{ type: 'video/mp4', altText: '', sha256: 'a'.repeat(64) }];
  await store.takeTiktokChunk({ id: publish.id, first: 0, length: 10, media });
  const done = await store.finishTiktokPublish({
    id: publish.id,
    account,
    readyAt: new Date(),
    media,
    failReason: null,
  });
  return (await store.getPost(done!.postId!))!;
}

/** A YouTube video made through a resumable session's store steps (every byte, then complete). */
async function youtubeVideo(account: SandboxAccount) {
  const upload = await store.createYoutubeUpload({
    accountId: account.id,
    title: 'A video',
    description: sandbox.uniqueText('youtube'),
    tags: [],
    privacyStatus: 'public',
    publishAt: null,
    contentType: 'video/mp4',
    declaredBytes: 10,
  });
  await store.takeYoutubeChunk({ id: upload.id, first: 0, length: 10, media: [] });
  const done = await store.completeYoutubeUpload({ id: upload.id, account, readyAt: new Date(), failReason: null });
  return (await store.getPost(done!.postId!))!;
}

type Case = {
  /** Makes the post on the platform: its sandbox record and the id the product keeps as external_id. */
  make(a: Account): Promise<{ post: SandboxPost; externalId: string }>;
  /** The network's own field names, checked on the raw answer. */
  wire(body: unknown): void;
  /**
   * What a deleted post reads: `gone`; `missing` where the network also leaves out what it has not indexed yet
   * (Bluesky's AppView: deleted once a later read misses it too); `unanswered` (LinkedIn's statistics just leave it out).
   */
  deleted: 'gone' | 'missing' | 'unanswered';
};

const at = (value: unknown, path: string) =>
  path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], value);
const expectFields = (value: unknown, fields: string[]) => {
  for (const field of fields) expect(at(value, field), field).toEqual(expect.any(Number));
};

const CASES: Record<ProviderName, Case> = {
  x: {
    make: async (a) => {
      const post = await textPost(a.sandboxAccount);
      return { post, externalId: post.id };
    },
    wire: (body) =>
      expectFields(at(body, 'data.0'), [
        'public_metrics.like_count',
        'public_metrics.retweet_count',
        'public_metrics.reply_count',
        'public_metrics.quote_count',
        'public_metrics.bookmark_count',
        'public_metrics.impression_count',
      ]),
    deleted: 'gone',
  },
  mastodon: {
    make: async (a) => {
      const post = await textPost(a.sandboxAccount);
      return { post, externalId: post.id };
    },
    wire: (body) => expectFields(body, ['favourites_count', 'reblogs_count', 'replies_count']),
    deleted: 'gone',
  },
  bluesky: {
    make: async (a) => {
      const rkey = tidOf(BigInt(Date.now()) * 1000n, Math.floor(Math.random() * 1000));
      const text = sandbox.uniqueText('bluesky');
      const record = { $type: 'app.bsky.feed.post', text, createdAt: new Date().toISOString() };
      const post = await textPost(a.sandboxAccount, { text, recordKey: rkey, record });
      return { post, externalId: `at://${a.platformUserId}/app.bsky.feed.post/${rkey}` };
    },
    wire: (body) => expectFields(at(body, 'posts.0'), ['likeCount', 'repostCount', 'replyCount', 'quoteCount']),
    deleted: 'missing',
  },
  linkedin: {
    make: async (a) => {
      const post = await textPost(a.sandboxAccount);
      return { post, externalId: `urn:li:share:${post.id}` };
    },
    wire: (body) =>
      expectFields(at(body, 'elements.0.totalShareStatistics'), [
        'likeCount',
        'commentCount',
        'shareCount',
        'impressionCount',
        'clickCount',
      ]),
    deleted: 'unanswered',
  },
  threads: {
    make: async (a) => {
      const post = await textPost(a.sandboxAccount);
      return { post, externalId: post.id };
    },
    wire: (body) => {
      expect((at(body, 'data') as { name: string }[]).map((d) => d.name)).toEqual([
        'views',
        'likes',
        'replies',
        'reposts',
        'quotes',
      ]);
      expectFields(body, ['data.0.values.0.value']);
    },
    deleted: 'gone',
  },
  instagram: {
    make: async (a) => {
      const post = await textPost(a.sandboxAccount);
      return { post, externalId: post.id };
    },
    wire: (body) =>
      expect((at(body, 'data') as { name: string }[]).map((d) => d.name)).toEqual([
        'views',
        'likes',
        'comments',
        'shares',
        'saved',
      ]),
    deleted: 'gone',
  },
  facebook: {
    make: async (a) => {
      const post = await textPost(a.sandboxAccount);
      return { post, externalId: `${a.platformUserId}_${post.id}` };
    },
    wire: (body) => expectFields(body, ['reactions.summary.total_count', 'comments.summary.total_count']),
    deleted: 'gone',
  },
  tiktok: {
    make: async (a) => {
      const post = await tiktokVideo(a.sandboxAccount);
      return { post, externalId: post.id };
    },
    wire: (body) =>
      expectFields(at(body, 'data.videos.0'), ['like_count', 'comment_count', 'share_count', 'view_count']),
    deleted: 'gone',
  },
  youtube: {
    make: async (a) => {
      const post = await youtubeVideo(a.sandboxAccount);
      return { post, externalId: post.id };
    },
    wire: (body) => {
      const stats = at(body, 'items.0.statistics') as Record<string, unknown>;
      // Google writes int64 counts as strings.
      for (const field of ['viewCount', 'likeCount', 'commentCount']) expect(stats[field]).toMatch(/^\d+$/);
    },
    deleted: 'gone',
  },
};

describe('metrics read back from every network, through its own fields', () => {
  for (const [provider, c] of Object.entries(CASES) as [ProviderName, Case][]) {
    it(`${provider}: the client parses the dialect's real metric fields; absent ones stay absent; deletion and followers`, async () => {
      const a = await sandbox.connectAccount(provider);
      const made = await c.make(a);
      const post = await aged(made.post, 3);
      const { client, answers } = recordingClient(provider, a);
      const reader = client.postMetrics!;
      expect(reader.calls(reader.batchSize)).toBeGreaterThanOrEqual(1);

      const wanted = servedMetrics(post, provider, new Date());
      const read = await reader.read({ ids: [made.externalId], timeoutMs: 5_000 });
      const wantedLater = servedMetrics(post, provider, new Date());
      c.wire(answers.at(-1));
      const found = read.get(made.externalId) as Extract<PostMetricsRead, { status: 'found' }>;
      expect(found?.status).toBe('found');
      // Exactly the metrics the network gives: no zero stands in for one it does not.
      expect(Object.keys(found.metrics).sort()).toEqual(Object.keys(wanted).sort());
      for (const [metric, value] of Object.entries(found.metrics)) {
        expect(value).toBeGreaterThanOrEqual(wanted[metric as MetricName]!);
        expect(value).toBeLessThanOrEqual(wantedLater[metric as MetricName]!);
      }
      expect(engagementOf(post, provider).likes).toBeGreaterThan(0); // three days in, every post has been liked

      const followersBefore = followersOf(a.sandboxAccount, provider);
      const followers = await client.readFollowers!({ timeoutMs: 5_000 });
      expect(followers).toBeGreaterThanOrEqual(followersBefore);
      expect(followers).toBeLessThanOrEqual(followersOf(a.sandboxAccount, provider));

      await store.deletePost(a.sandboxAccount.id, post.id);
      const afterDelete = await reader.read({ ids: [made.externalId], timeoutMs: 5_000 });
      if (c.deleted === 'unanswered') expect(afterDelete.has(made.externalId)).toBe(false);
      else expect(afterDelete.get(made.externalId)).toEqual({ status: c.deleted });
    });
  }

  it('a batch reads several posts in one call, each by its own id', async () => {
    const a = await sandbox.connectAccount('x');
    const posts = await Promise.all([1, 2, 3].map(async () => aged(await textPost(a.sandboxAccount), 2)));
    const { client, answers } = recordingClient('x', a);
    const read = await client.postMetrics!.read({ ids: posts.map((p) => p.id) });
    expect(answers).toHaveLength(1);
    expect([...read.values()].map((r) => r.status)).toEqual(['found', 'found', 'found']);
  });

  it('TikTok: a publish_id (a private post) has no metrics TikTok gives: unsupported, no call made', async () => {
    const a = await sandbox.connectAccount('tiktok');
    const { client, answers } = recordingClient('tiktok', a);
    const read = await client.postMetrics!.read({ ids: ['v_pub~v2-1.123456789'] });
    expect(read.get('v_pub~v2-1.123456789')?.status).toBe('unsupported');
    expect(answers).toHaveLength(0);
  });

  it('LinkedIn: a member account (not a page) is not read; its followers are not given', async () => {
    const a = await sandbox.connectAccount('linkedin', undefined, { linkedinAuthor: 'person' });
    const { client, answers } = recordingClient('linkedin', a);
    expect(client.postMetrics).toBeUndefined();
    expect(await client.readFollowers!()).toBeNull();
    expect(answers).toHaveLength(0);
  });

  it('Instagram: a comment (a first comment) has no insights — refused as Graph refuses an IG Comment', async () => {
    const a = await sandbox.connectAccount('instagram');
    const media = await textPost(a.sandboxAccount);
    const comment = (await store.insertPost({
      account: a.sandboxAccount,
      kind: 'reply',
      text: sandbox.uniqueText('comment'),
      inReplyToId: media.id,
    }))!;
    const { client, answers } = recordingClient('instagram', a);
    await expect(client.postMetrics!.read({ ids: [comment.id], timeoutMs: 5_000 })).rejects.toThrow(/metrics/);
    expect(answers.at(-1)).toMatchObject({
      error: { code: 100, message: '(#100) Tried accessing nonexisting field (insights) on node type (IGComment)' },
    });
    expect((await client.postMetrics!.read({ ids: [media.id], timeoutMs: 5_000 })).get(media.id)?.status).toBe('found');
  });

  it('Bluesky: getPosts lags like the AppView — a post not indexed yet is missing (not gone), then found', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const made = await CASES.bluesky.make(a);
    const { client } = recordingClient('bluesky', a);
    await sandbox.setFaults(a.sandboxAccount.id, { readLagMs: 60_000 });
    expect((await client.postMetrics!.read({ ids: [made.externalId] })).get(made.externalId)).toEqual({
      status: 'missing',
    });
    await sandbox.setFaults(a.sandboxAccount.id, { readLagMs: 0 });
    expect((await client.postMetrics!.read({ ids: [made.externalId] })).get(made.externalId)?.status).toBe('found');
  });
});
