import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sandboxCredentials } from '@/lib/sandbox/connect';
import { startTestSandbox } from '@/testing/sandbox';
import { createProviderClient, ProviderReadError, type PublishInput } from '..';
import type { BlueskyClient } from './client';
import { recordKeyFor } from './tid';

// The real Bluesky client against the sandbox's PDS dialect (standalone server, Postgres store, real
// sockets): what each call answers AND what the platform's records hold.

const sandbox = await startTestSandbox({ hangMs: 2_000 });
const TIMEOUT = 400;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

const input = (overrides: Partial<PublishInput> = {}): PublishInput => ({
  text: sandbox.uniqueText('hello bluesky'),
  kind: 'post',
  idempotencyKey: randomUUID(),
  createdAt: new Date(),
  timeoutMs: 2_000,
  ...overrides,
});
/** The account's live records, read from the sandbox's own store. */
const records = async (a: Account) => (await sandbox.allPosts(a.sandboxAccount.id)).filter((p) => !p.deletedAt);
/** A client of the same account with other credentials (an expired or forged session). */
const withAccessToken = (a: Account, accessToken: string) =>
  createProviderClient(
    { provider: 'bluesky', baseUrl: '/api/sandbox/bluesky', platformUserId: a.platformUserId, accessToken },
    { origin: sandbox.url },
  );

describe('Bluesky client: posts under the delivery’s record key', () => {
  it('a post is written under the key derived from the delivery, with its frozen createdAt; id = at:// URI', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const post = input();
    const result = await a.client.publish(post);
    const rkey = recordKeyFor(post.idempotencyKey, post.createdAt!);
    expect(result).toMatchObject({
      outcome: 'sent',
      rule: 'bluesky-record-written',
      externalId: `at://${a.platformUserId}/app.bsky.feed.post/${rkey}`,
    });
    expect(result.url).toBe(
      `${sandbox.url}/api/sandbox/bluesky/xrpc/com.atproto.repo.getRecord?repo=${encodeURIComponent(a.platformUserId)}&collection=app.bsky.feed.post&rkey=${rkey}`,
    );
    const [stored] = await records(a);
    expect(stored).toMatchObject({ recordKey: rkey, text: post.text });
    expect(stored!.record).toMatchObject({ $type: 'app.bsky.feed.post', createdAt: post.createdAt!.toISOString() });
    // The link the app shows opens the record itself.
    const opened = await fetch(result.url!, { headers: { authorization: `Bearer ${a.credentials.accessToken}` } });
    expect(await opened.json()).toMatchObject({ uri: result.externalId, value: { text: post.text } });
  });

  it('I1 — every resend of the delivery meets the first record: the same record is a no-op, another is refused (InvalidSwap), never a second post or an overwrite', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const post = input();
    const first = await a.client.publish(post);
    const again = await a.client.publish(post);
    expect(again).toMatchObject({ outcome: 'sent', rule: 'bluesky-record-unchanged', externalId: first.externalId });
    const edited = await a.client.publish({ ...post, text: `${post.text} (edited)` });
    expect(edited).toMatchObject({
      outcome: 'ambiguous',
      rule: 'bluesky-record-exists',
      httpStatus: 400,
      evidence: { recordExists: true, uri: first.externalId },
    });
    expect(edited.raw).toMatchObject({
      body: { error: 'InvalidSwap', message: expect.stringMatching(/^Record was at b/) },
    });
    const stored = await records(a);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.text).toBe(post.text);
  });

  it('I1 — ten attempts of one delivery racing: one record, every answer says so', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const post = input();
    const results = await Promise.all(Array.from({ length: 10 }, () => a.client.publish(post)));
    expect(results.every((r) => r.outcome === 'sent' && r.externalId === results[0]!.externalId)).toBe(true);
    expect(results.filter((r) => r.rule === 'bluesky-record-written')).toHaveLength(1);
    expect(results.filter((r) => r.rule === 'bluesky-record-unchanged')).toHaveLength(9);
    expect(await records(a)).toHaveLength(1);
  });

  it('no text dedupe: the same text in two deliveries is two posts', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const text = sandbox.uniqueText('same words');
    expect((await a.client.publish(input({ text }))).outcome).toBe('sent');
    expect((await a.client.publish(input({ text }))).outcome).toBe('sent');
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(2);
  });
});

describe('Bluesky replies and facets', () => {
  it('a reply carries root and parent (uri + cid) read from the parent; a reply to a reply keeps the thread root', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const root = await a.client.publish(input());
    const first = await a.client.publish(input({ kind: 'reply', inReplyTo: root.externalId }));
    expect(first).toMatchObject({ outcome: 'sent' });
    const appLink = `https://bsky.app/profile/${a.platformUserId}/post/${first.externalId!.split('/').pop()}`;
    const second = await a.client.publish(input({ kind: 'reply', inReplyTo: appLink }));
    expect(second.outcome).toBe('sent');
    const byUri = new Map(
      (await records(a)).map((p) => [`at://${a.platformUserId}/app.bsky.feed.post/${p.recordKey}`, p]),
    );
    const cidOf = async (uri: string) => {
      const res = await fetch(
        `${sandbox.url}/api/sandbox/bluesky/xrpc/com.atproto.repo.getRecord?${new URLSearchParams({ repo: a.platformUserId, collection: 'app.bsky.feed.post', rkey: uri.split('/').pop()! })}`,
        { headers: { authorization: `Bearer ${a.credentials.accessToken}` } },
      );
      return ((await res.json()) as { cid: string }).cid;
    };
    expect(byUri.get(first.externalId!)!.record!.reply).toEqual({
      root: { uri: root.externalId, cid: await cidOf(root.externalId!) },
      parent: { uri: root.externalId, cid: await cidOf(root.externalId!) },
    });
    expect(byUri.get(second.externalId!)!.record!.reply).toEqual({
      root: { uri: root.externalId, cid: await cidOf(root.externalId!) },
      parent: { uri: first.externalId, cid: await cidOf(first.externalId!) },
    });
    expect(byUri.get(second.externalId!)).toMatchObject({ kind: 'reply', inReplyToId: first.externalId });
  });

  it('a reply to a post that does not exist fails before any write', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const missing = `at://${a.platformUserId}/app.bsky.feed.post/${recordKeyFor(randomUUID(), new Date())}`;
    const result = await a.client.publish(input({ kind: 'reply', inReplyTo: missing }));
    expect(result).toMatchObject({ outcome: 'failed', rule: 'bluesky-reply-target-missing' });
    expect(await records(a)).toHaveLength(0);
  });

  it('links and resolvable mentions become facets with UTF-8 byte ranges; an unknown handle stays plain text', async () => {
    const [a, friend] = [await sandbox.connectAccount('bluesky'), await sandbox.connectAccount('bluesky')];
    const friendHandle = friend.sandboxAccount.handle.replace(/^@/, '');
    const text = `🎉 hi @${friendHandle} and @nobody.bsky.sandbox, see https://semel.example/x!`;
    expect((await a.client.publish(input({ text }))).outcome).toBe('sent');
    const facets = (await records(a))[0]!.record!.facets as {
      index: { byteStart: number; byteEnd: number };
      features: unknown[];
    }[];
    const covered = facets.map((f) => Buffer.from(text).subarray(f.index.byteStart, f.index.byteEnd).toString());
    expect(covered).toEqual([`@${friendHandle}`, 'https://semel.example/x']);
    expect(facets[0]!.features).toEqual([{ $type: 'app.bsky.richtext.facet#mention', did: friend.platformUserId }]);
  });
});

describe('Bluesky reads: readBack, listRecent, whoAmI, deletePost', () => {
  it('readBack: found by the key (id = URI, url, createdAt), absent for a delivery never written, review when other text holds the key', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const post = input();
    const sent = await a.client.publish(post);
    const read = (overrides: Record<string, unknown> = {}) =>
      a.client.readBack!({
        idempotencyKey: post.idempotencyKey,
        createdAt: post.createdAt,
        text: post.text,
        kind: 'post',
        inReplyTo: null,
        state: {},
        evidence: [],
        since: new Date(Date.now() - 60_000),
        until: new Date(),
        ...overrides,
      });
    expect(await read()).toMatchObject({
      verdict: 'found',
      post: { id: sent.externalId, url: sent.url, createdAt: post.createdAt, text: post.text },
    });
    expect(await read({ idempotencyKey: randomUUID() })).toMatchObject({ verdict: 'absent' });
    expect(await read({ text: 'something else' })).toMatchObject({ verdict: 'review' });
    // An attempt that reported another key: the derivation moved, a person looks.
    expect(await read({ evidence: [{ rkey: '2222222222222' }] })).toMatchObject({ verdict: 'review' });
  });

  it('readBack of an unreadable PDS (503) throws ProviderReadError', async () => {
    const a = await sandbox.connectAccount('bluesky');
    await sandbox.setFaults(a.sandboxAccount.id, { listingUnavailable: 1 });
    const read = a.client.readBack!({
      idempotencyKey: randomUUID(),
      createdAt: new Date(),
      text: 'x',
      kind: 'post',
      inReplyTo: null,
      state: {},
      evidence: [],
      since: new Date(),
      until: new Date(),
    });
    await expect(read).rejects.toBeInstanceOf(ProviderReadError);
  });

  it('listRecent pages through listRecords (cursor) newest first and keeps the window', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const base = Date.now();
    const posts = Array.from({ length: 105 }, (_, i) =>
      input({ createdAt: new Date(base - (105 - i) * 1_000), text: `n ${i}` }),
    );
    for (let i = 0; i < posts.length; i += 15)
      await Promise.all(posts.slice(i, i + 15).map((p) => a.client.publish(p)));
    const all = await a.client.listRecent({ since: new Date(base - 200_000) });
    expect(all).toHaveLength(105);
    expect(all[0]!.text).toBe('n 104');
    expect(all.at(-1)!.text).toBe('n 0');
    const recent = await a.client.listRecent({ since: new Date(base - 10_500), until: new Date(base - 2_500) });
    expect(recent.map((p) => p.text)).toEqual(['n 102', 'n 101', 'n 100', 'n 99', 'n 98', 'n 97', 'n 96', 'n 95']);
  });

  it('whoAmI names the session’s DID and handle', async () => {
    const a = await sandbox.connectAccount('bluesky');
    expect(await a.client.whoAmI()).toEqual({
      ok: true,
      id: a.platformUserId,
      handle: a.sandboxAccount.handle,
      displayName: null,
    });
  });

  it('deletePost by URI; deleting again counts as deleted; readBack then says absent', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const post = input();
    const sent = await a.client.publish(post);
    expect(await a.client.deletePost(sent.externalId!)).toEqual({ ok: true, alreadyGone: false });
    expect(await a.client.deletePost(sent.externalId!)).toEqual({ ok: true, alreadyGone: true });
    expect(await records(a)).toHaveLength(0);
    expect(await a.client.deletePost('at://did:plc:someoneelse/app.bsky.feed.post/2222222222222')).toMatchObject({
      ok: false,
    });
    const read = await a.client.readBack!({
      ...post,
      createdAt: post.createdAt,
      inReplyTo: null,
      state: {},
      evidence: [],
      since: new Date(),
      until: new Date(),
    });
    expect(read.verdict).toBe('absent');
  });
});

describe('Bluesky sessions and faults', () => {
  it('an expired access token: nothing written → not_sent (no retry inside the client); a forged one → failed', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const hoursAgo = new Date(Date.now() - 3 * 3_600_000);
    const expired = sandboxCredentials(
      'bluesky',
      { platformUserId: a.platformUserId, handle: a.sandboxAccount.handle, token: a.token },
      hoursAgo,
    );
    const late = await withAccessToken(a, expired.accessToken).publish(input());
    expect(late).toMatchObject({ outcome: 'not_sent', rule: 'bluesky-expired-token', httpStatus: 400 });
    const forged = sandboxCredentials('bluesky', {
      platformUserId: a.platformUserId,
      handle: a.sandboxAccount.handle,
      token: 'sbx_not-the-password',
    });
    const refused = await withAccessToken(a, forged.accessToken).publish(input());
    expect(refused).toMatchObject({ outcome: 'failed', rule: 'bluesky-invalid-token' });
    // The refresh token is not an access token.
    const wrongKind = await withAccessToken(a, a.credentials.refreshToken!).publish(input());
    expect(wrongKind).toMatchObject({ outcome: 'failed', rule: 'bluesky-invalid-token' });
    expect(await records(a)).toHaveLength(0);
  });

  const faults = [
    ['timeout after commit', { timeoutAfterCommit: 1 }, 'ambiguous', 'timeout-without-response', 1],
    ['502 after commit', { errorAfterCommit: 1 }, 'ambiguous', 'server-error', 1],
    ['reset after commit', { resetAfterCommit: 1 }, 'ambiguous', 'connection-reset', 1],
    ['timeout before commit', { timeoutBeforeCommit: 1 }, 'ambiguous', 'timeout-without-response', 0],
    ['429', { rateLimited: 1 }, 'not_sent', 'rate-limited', 0],
  ] as const;
  for (const [name, fault, outcome, rule, copies] of faults) {
    it(`${name} → ${outcome} (${rule}); the PDS holds ${copies} record(s)`, async () => {
      const a = await sandbox.connectAccount('bluesky');
      await sandbox.setFaults(a.sandboxAccount.id, fault);
      const result = await a.client.publish(input({ timeoutMs: TIMEOUT }));
      expect(result).toMatchObject({ outcome, rule });
      if (outcome === 'ambiguous') expect(result.evidence).toMatchObject({ rkey: expect.any(String) });
      if (outcome === 'not_sent') expect(result.retryAt!.getTime()).toBeGreaterThan(Date.now());
      expect(await records(a)).toHaveLength(copies);
    });
  }
});

describe('Bluesky images (uploadBlob, then an images embed with alt text)', () => {
  const png = (seed: number) => new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, seed, seed + 1]);
  const blueskyClient = (a: Account) => a.client as BlueskyClient;

  it('uploads the bytes (content-addressed: the same bytes, the same blob) and posts them with their alt text', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const first = await blueskyClient(a).uploadImage(png(1), 'image/png');
    const again = await blueskyClient(a).uploadImage(png(1), 'image/png');
    const other = await blueskyClient(a).uploadImage(png(2), 'image/png');
    expect(first).toMatchObject({ ok: true, blob: { $type: 'blob', mimeType: 'image/png', size: 10 } });
    if (!first.ok || !again.ok || !other.ok) return;
    expect(again.blob.ref.$link).toBe(first.blob.ref.$link);
    expect(other.blob.ref.$link).not.toBe(first.blob.ref.$link);
    const post = input();
    const media = [
      { blob: first.blob, altText: 'A red square' },
      { blob: other.blob, altText: 'A blue square' },
    ];
    const sent = await blueskyClient(a).publish({ ...post, images: media });
    expect(sent.outcome).toBe('sent');
    expect((await records(a))[0]!.record!.embed).toEqual({
      $type: 'app.bsky.embed.images',
      images: [
        { image: first.blob, alt: 'A red square' },
        { image: other.blob, alt: 'A blue square' },
      ],
    });
    // A resend of the delivery with the same images is the same record: a no-op.
    expect(await blueskyClient(a).publish({ ...post, images: media })).toMatchObject({
      rule: 'bluesky-record-unchanged',
    });
  });

  it('refused before any request: a type Bluesky does not take, over 1 MB, more than four images', async () => {
    const a = await sandbox.connectAccount('bluesky');
    expect(await blueskyClient(a).uploadImage(png(1), 'image/svg+xml')).toMatchObject({
      ok: false,
      classification: { outcome: 'failed', rule: 'invalid-input' },
    });
    expect(await blueskyClient(a).uploadImage(new Uint8Array(1_000_001), 'image/jpeg')).toMatchObject({ ok: false });
    const uploaded = await blueskyClient(a).uploadImage(png(3), 'image/png');
    if (!uploaded.ok) throw new Error('upload failed');
    const five = Array.from({ length: 5 }, () => ({ blob: uploaded.blob, altText: 'x' }));
    expect(await blueskyClient(a).publish({ ...input(), images: five })).toMatchObject({
      outcome: 'failed',
      rule: 'invalid-input',
    });
    expect(await records(a)).toHaveLength(0);
  });

  it('an upload that fails on the platform says why (429 → not_sent with its reset time)', async () => {
    const a = await sandbox.connectAccount('bluesky');
    await sandbox.setFaults(a.sandboxAccount.id, { rateLimited: 1 });
    const result = await blueskyClient(a).uploadImage(png(4), 'image/png');
    expect(result).toMatchObject({ ok: false, classification: { outcome: 'not_sent', rule: 'rate-limited' } });
  });
});
