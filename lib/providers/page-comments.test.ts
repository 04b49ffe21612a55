import { describe, expect, it } from 'vitest';
import { attemptKeepingState } from '@/testing/attempt';
import { startMemoryTestSandbox, startTestSandbox } from '@/testing/sandbox';
import { startServer } from '@/testing/wire/servers';
import type { SandboxAccount } from '@/sandbox/store/types';
import { createFacebookClient } from './facebook/client';
import { createLinkedinClient } from './linkedin/client';
import type { ProviderClient, PublishInput, ReadBackInput } from './types';

// First comments on LinkedIn and Facebook, the client against the sandbox (standalone server, Postgres store, real
// sockets): a reply is one comment of the account's own on its post (LinkedIn's Comments API, Facebook's
// /{page-post-id}/comments), never repeated; a lost answer is ambiguous and read back from that post's comments,
// which list everyone's — ours told by their author, a listing that cannot prove absence thrown as unreadable.

const sandbox = await startTestSandbox({ hangMs: 2_000 });
const TIMEOUT = 5_000;
const SHORT = 400;
type Account = { sandboxAccount: SandboxAccount; client: ProviderClient };

const NETWORKS = [
  {
    name: 'linkedin' as const,
    label: 'LinkedIn',
    /** Comments the client reads a page at a time. */
    pageSize: 50,
    tooLong: 'x'.repeat(1_251),
    /** The sandbox post a published post's platform id names. */
    postIdOf: (externalId: string) => /^urn:li:share:(\d+)$/.exec(externalId)![1]!,
    commentId: /^urn:li:comment:\(urn:li:activity:\d+,\d+\)$/,
    /** A comment's platform id of the sandbox comment `id` (its last number). */
    sandboxIdOf: (externalId: string) => /,(\d+)\)$/.exec(externalId)![1]!,
  },
  {
    name: 'facebook' as const,
    label: 'Facebook',
    pageSize: 100,
    tooLong: 'x'.repeat(8_001),
    postIdOf: (externalId: string) => externalId.split('_')[1]!,
    commentId: /^\d+_\d+$/,
    sandboxIdOf: (externalId: string) => externalId.split('_')[1]!,
  },
];

const attempt = (account: Account, input: Partial<PublishInput> & { text: string }, timeoutMs = TIMEOUT) =>
  attemptKeepingState(account.client, input, {}, timeoutMs);
const since = () => new Date(Date.now() - 60_000);
const readBackInput = (text: string, inReplyTo: string): ReadBackInput => ({
  idempotencyKey: 'd',
  text,
  kind: 'reply',
  inReplyTo,
  state: {},
  evidence: [],
  since: since(),
  until: new Date(),
});

describe.each(NETWORKS)('$label client: a first comment, once', (network) => {
  /** A published post of the account's: its platform id. */
  async function published(account: Account) {
    const { result } = await attempt(account, { text: sandbox.uniqueText(`${network.name} post`) });
    expect(result.outcome).toBe('sent');
    return result.externalId!;
  }
  const commentsOn = async (account: Account, postId: string) =>
    (await sandbox.allPosts(account.sandboxAccount.id)).filter(
      (p) => p.inReplyToId === network.postIdOf(postId) && !p.deletedAt,
    );

  it('a reply is one comment on the post: its id returned, nothing kept, the post listing unchanged', async () => {
    const account = await sandbox.connectAccount(network.name);
    const postId = await published(account);
    const text = sandbox.uniqueText('first comment');
    const { result, saved } = await attempt(account, { text, kind: 'reply', inReplyTo: postId });
    expect(result).toMatchObject({ outcome: 'sent', evidence: { comment: true, on: postId } });
    expect(result.externalId).toMatch(network.commentId);
    expect(saved).toEqual([]);
    const comments = await commentsOn(account, postId);
    expect(comments.map((c) => [c.id, c.text, c.kind])).toEqual([
      [network.sandboxIdOf(result.externalId!), text, 'reply'],
    ]);
    // The account's post listing shows posts only: a comment is no post.
    const listed = await account.client.listRecent({ since: since() });
    expect(listed.map((p) => p.id)).toEqual([postId]);
  });

  it("listRecent with a parent lists the account's own comments on that post, never a stranger's with our words", async () => {
    const account = await sandbox.connectAccount(network.name);
    const stranger = await sandbox.connectAccount(network.name);
    const [postId, other] = [await published(account), await published(account)];
    const text = sandbox.uniqueText('listed comment');
    // Someone else comments first, with the same words (the listing shows everyone's comments on the post).
    await sandbox.store.insertPost({
      account: stranger.sandboxAccount,
      kind: 'reply',
      text,
      inReplyToId: network.postIdOf(postId),
    });
    expect(await account.client.listRecent({ since: since(), inReplyTo: postId })).toEqual([]);
    const { result } = await attempt(account, { text, kind: 'reply', inReplyTo: postId });
    await attempt(account, { text: sandbox.uniqueText('elsewhere'), kind: 'reply', inReplyTo: other });
    const listed = await account.client.listRecent({ since: since(), inReplyTo: postId });
    expect(listed.map((p) => [p.id, p.text, p.inReplyTo])).toEqual([[result.externalId, text, postId]]);
  });

  it('refused: too long by the platform (failed, nothing stored); an image, or no post to comment on, before any request', async () => {
    const account = await sandbox.connectAccount(network.name);
    const postId = await published(account);
    const long = await attempt(account, { text: network.tooLong, kind: 'reply', inReplyTo: postId });
    expect(long.result.outcome).toBe('failed');
    expect(long.result.raw.type).toBe('response');
    const image = {
      id: 'm',
      sha256: '',
      mimeType: 'image/jpeg',
      altText: '',
      sizeBytes: 1,
      read: async () => new Uint8Array(1),
      stream: async () => {
        throw new Error('not read');
      },
    };
    for (const input of [
      { text: 'with a file', kind: 'reply' as const, inReplyTo: postId, media: [image] },
      { text: 'on nothing', kind: 'reply' as const },
      { text: 'on a comment', kind: 'reply' as const, inReplyTo: 'not-a-post' },
    ]) {
      const { result } = await attempt(account, input);
      expect(result, input.text).toMatchObject({ outcome: 'failed', rule: 'invalid-input' });
    }
    expect(await commentsOn(account, postId)).toEqual([]);
  });

  it('a lost answer is ambiguous and the comment is there once; the read-back lists the post’s comments', async () => {
    const account = await sandbox.connectAccount(network.name);
    const postId = await published(account);
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutAfterCommit: 1 });
    const text = sandbox.uniqueText('lost comment');
    const lost = await attempt(account, { text, kind: 'reply', inReplyTo: postId }, SHORT);
    expect(lost.result).toMatchObject({ outcome: 'ambiguous', rule: 'timeout-without-response' });
    await sandbox.setFaults(account.sandboxAccount.id, {});
    expect(await commentsOn(account, postId)).toHaveLength(1);
    expect(await account.client.readBack!(readBackInput(text, postId))).toMatchObject({ verdict: 'list' });
    const listed = await account.client.listRecent({ since: since(), inReplyTo: postId });
    expect(listed.map((p) => p.text)).toEqual([text]);
  });

  it('more comments than the pages it may read: unreadable (thrown), never an absence; enough pages find ours', async () => {
    const account = await sandbox.connectAccount(network.name);
    const fan = await sandbox.connectAccount(network.name);
    const postId = await published(account);
    const text = sandbox.uniqueText('buried comment');
    await attempt(account, { text, kind: 'reply', inReplyTo: postId });
    for (let i = 0; i < network.pageSize + 10; i++)
      await sandbox.store.insertPost({
        account: fan.sandboxAccount,
        kind: 'reply',
        text: `fan ${i}`,
        inReplyToId: network.postIdOf(postId),
      });
    // Newest first: ours (the oldest) is on the second page.
    await expect(account.client.listRecent({ since: since(), inReplyTo: postId, maxPages: 1 })).rejects.toMatchObject({
      classification: { rule: `${network.name}-comments-truncated`, outcome: 'ambiguous' },
    });
    const all = await account.client.listRecent({ since: since(), inReplyTo: postId, maxPages: 2 });
    expect(all.map((p) => p.text)).toEqual([text]);
  });

  it('an extra comment is deleted on the platform; deleting it again finds it gone', async () => {
    const account = await sandbox.connectAccount(network.name);
    const postId = await published(account);
    const { result } = await attempt(account, { text: sandbox.uniqueText('extra'), kind: 'reply', inReplyTo: postId });
    expect(await account.client.deletePost(result.externalId!)).toEqual({ ok: true, alreadyGone: false });
    expect(await commentsOn(account, postId)).toEqual([]);
    expect(await account.client.deletePost(result.externalId!)).toEqual({ ok: true, alreadyGone: true });
    // The post itself is untouched.
    expect((await account.client.listRecent({ since: since() })).map((p) => p.id)).toEqual([postId]);
  });
});

describe.each(NETWORKS)('$label client: the in-memory sandbox lists comments with their authors too', (network) => {
  it('a comment made and listed on the memory store, a stranger’s set aside', async () => {
    const memory = await startMemoryTestSandbox();
    const account = await memory.connectAccount(network.name);
    const stranger = await memory.connectAccount(network.name);
    const { result: post } = await attemptKeepingState(
      account.client,
      { text: memory.uniqueText('post') },
      {},
      TIMEOUT,
    );
    const text = memory.uniqueText('comment');
    await memory.store.insertPost({
      account: stranger.sandboxAccount,
      kind: 'reply',
      text,
      inReplyToId: network.postIdOf(post.externalId!),
    });
    const { result } = await attemptKeepingState(
      account.client,
      { text, kind: 'reply', inReplyTo: post.externalId! },
      {},
      TIMEOUT,
    );
    expect(result.outcome).toBe('sent');
    const listed = await account.client.listRecent({ since: since(), inReplyTo: post.externalId! });
    expect(listed.map((p) => p.id)).toEqual([result.externalId]);
  });
});

describe('LinkedIn client: a member’s first comment', () => {
  it('is made as the member; its comments cannot be listed (r_member_social), so a lost one goes to review', async () => {
    const account = await sandbox.connectAccount('linkedin', undefined, { linkedinAuthor: 'person' });
    const { result: post } = await attempt(account, { text: sandbox.uniqueText('member post') });
    const text = sandbox.uniqueText('member comment');
    const { result } = await attempt(account, { text, kind: 'reply', inReplyTo: post.externalId! });
    expect(result).toMatchObject({ outcome: 'sent', rule: 'linkedin-comment-created' });
    const [comment] = (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => p.kind === 'reply');
    expect(comment).toMatchObject({ text, inReplyToId: NETWORKS[0]!.postIdOf(post.externalId!) });
    await expect(account.client.listRecent({ since: since(), inReplyTo: post.externalId! })).rejects.toMatchObject({
      classification: { rule: 'linkedin-member-comments-not-listable' },
    });
    expect(await account.client.readBack!(readBackInput(text, post.externalId!))).toMatchObject({
      verdict: 'review',
      reason: expect.stringMatching(/member comments cannot be listed/),
    });
  });
});

describe('a comment listing without its authors is unreadable, never an absence (the wire as a stub platform)', () => {
  /** A platform answering every request with this JSON. */
  async function answering(body: unknown) {
    const json = JSON.stringify(body);
    const server = await startServer('tcp', (connection, completed) => {
      if (completed)
        connection.socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
        );
    });
    return { server, origin: server.url('').replace(/\/$/, '') };
  }

  it('LinkedIn: a comment without its actor', async () => {
    const { server, origin } = await answering({
      paging: { start: 0, count: 50, total: 1 },
      elements: [
        {
          $URN: 'urn:li:comment:(urn:li:activity:1,2)',
          message: { text: 'ours?' },
          created: { time: Date.now() },
        },
      ],
    });
    const client = createLinkedinClient({
      baseUrl: origin,
      platformUserId: 'urn:li:organization:42',
      accessToken: 't',
      outbound: { trustedOrigin: origin },
    });
    await expect(client.listRecent({ since: since(), inReplyTo: 'urn:li:share:1' })).rejects.toMatchObject({
      classification: { rule: 'linkedin-comment-unnamed', outcome: 'ambiguous' },
    });
    await server.close();
  });

  it('Facebook: a comment without `from`', async () => {
    const { server, origin } = await answering({
      data: [{ id: '1_2', message: 'ours?', created_time: '2026-01-01T00:00:00+0000' }],
      paging: { cursors: { before: 'a', after: 'a' } },
    });
    const client = createFacebookClient({
      baseUrl: origin,
      platformUserId: '42',
      accessToken: 't',
      outbound: { trustedOrigin: origin },
    });
    await expect(
      client.listRecent({ since: new Date('2025-12-31T00:00:00Z'), inReplyTo: '42_1' }),
    ).rejects.toMatchObject({ classification: { rule: 'facebook-comment-unnamed', outcome: 'ambiguous' } });
    await server.close();
  });
});
