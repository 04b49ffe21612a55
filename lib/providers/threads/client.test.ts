import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { attemptKeepingState } from '@/testing/attempt';
import { startTestSandbox } from '@/testing/sandbox';
import { createProviderClient } from '..';
import { ProviderReadError, type ProviderState, type PublishInput } from '../types';

// The real Threads client against the sandbox (standalone server, Postgres store, real sockets): the two
// steps, the container kept across attempts, every status, every fault on threads_publish, and the copies
// the platform holds.

const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db } = sandbox;
/** Roomy for three steps on a busy machine; the hanging faults use SHORT so the test does not wait long. */
const TIMEOUT = 3_000;
const SHORT = 400;

type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

const containers = async (account: Account) =>
  (
    await db.execute<{ id: string; post_id: string | null }>(
      sql`select id::text, post_id::text from sandbox.threads_containers where account_id = ${account.sandboxAccount.id} order by created_at`,
    )
  ).map((r) => r);

/** A publish that keeps its state the way the publisher does (deliveries.provider_state). */
const attempt = (account: Account, input: Partial<PublishInput> & { text: string }, state: ProviderState = {}) =>
  attemptKeepingState(account.client, input, state, TIMEOUT);

describe('Threads client: two steps, exactly once', () => {
  it('a post: one container, kept before publishing, then one post with its media id and permalink', async () => {
    const account = await sandbox.connectAccount('threads');
    const text = sandbox.uniqueText('hello threads');
    const { result, saved } = await attempt(account, { text });
    expect(result).toMatchObject({ outcome: 'sent', rule: 'threads-id-returned', httpStatus: 200 });
    expect(result.externalId).toMatch(/^\d+$/);
    expect(result.url).toContain(`/api/sandbox/threads/v1.0/${result.externalId}`);
    const [container] = await containers(account);
    expect(saved).toEqual([{ containerId: container!.id, containerCreatedAt: expect.any(String) }]);
    expect(result.evidence).toMatchObject({ containerId: container!.id });
    expect(container!.post_id).toBe(result.externalId);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('a reply: reply_to_id on the container; the replies listing shows it with its parent', async () => {
    const account = await sandbox.connectAccount('threads');
    const since = new Date(Date.now() - 2_000);
    const root = await attempt(account, { text: sandbox.uniqueText('root') });
    const reply = await attempt(account, {
      text: sandbox.uniqueText('reply'),
      kind: 'reply',
      inReplyTo: root.result.externalId,
    });
    expect([root.result.outcome, reply.result.outcome]).toEqual(['sent', 'sent']);
    // Listings are to the second: order within one second is not known, so each is found by its id.
    const recent = await account.client.listRecent({ since });
    expect(recent.map((p) => p.id).sort()).toEqual([reply.result.externalId, root.result.externalId].sort());
    expect(recent.find((p) => p.id === reply.result.externalId)).toMatchObject({ inReplyTo: root.result.externalId });
    expect(recent.find((p) => p.id === root.result.externalId)).toMatchObject({
      inReplyTo: null,
      url: root.result.url,
    });
  });

  it('a lost claim: saveState answers false, so the container is never published (no post)', async () => {
    const account = await sandbox.connectAccount('threads');
    const text = sandbox.uniqueText('lost claim');
    const result = await account.client.publish({
      text,
      kind: 'post',
      idempotencyKey: randomUUID(),
      saveState: async () => false,
    });
    expect(result).toMatchObject({ outcome: 'not_sent', rule: 'threads-claim-lost' });
    const [container] = await containers(account);
    expect(container).toMatchObject({ post_id: null });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('a kept FINISHED container is reused: no second container, one post', async () => {
    const account = await sandbox.connectAccount('threads');
    const text = sandbox.uniqueText('reuse');
    await sandbox.setFaults(account.sandboxAccount.id, { rateLimited: 1 });
    const first = await attempt(account, { text });
    expect(first.result).toMatchObject({ outcome: 'not_sent', rule: 'threads-rate-limited' });
    await sandbox.setFaults(account.sandboxAccount.id, {});
    const second = await attempt(account, { text }, first.saved[0]);
    expect(second.result).toMatchObject({ outcome: 'sent', rule: 'threads-id-returned' });
    expect(second.saved).toEqual([]); // nothing new to keep
    expect(await containers(account)).toHaveLength(1);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('a kept PUBLISHED container: sent with the listed post’s id, never published again', async () => {
    const account = await sandbox.connectAccount('threads');
    const text = sandbox.uniqueText('already out');
    const first = await attempt(account, { text });
    const again = await attempt(account, { text }, first.saved[0]);
    expect(again.result).toMatchObject({
      outcome: 'sent',
      rule: 'threads-container-published',
      externalId: first.result.externalId,
      url: first.result.url,
      evidence: { listed: true },
    });
    expect(await containers(account)).toHaveLength(1);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('a kept container that expired: a new container is made and kept, then one post', async () => {
    const account = await sandbox.connectAccount('threads');
    const text = sandbox.uniqueText('expired');
    await sandbox.setFaults(account.sandboxAccount.id, { rateLimited: 1 });
    const first = await attempt(account, { text });
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await db.execute(
      sql`update sandbox.threads_containers set created_at = now() - interval '25 hours' where account_id = ${account.sandboxAccount.id}`,
    );
    const second = await attempt(account, { text }, first.saved[0]);
    expect(second.result).toMatchObject({ outcome: 'sent' });
    const [old, fresh] = await containers(account);
    expect(old).toMatchObject({ id: first.saved[0]!.containerId, post_id: null });
    expect(second.saved).toEqual([{ containerId: fresh!.id, containerCreatedAt: expect.any(String) }]);
    expect(fresh!.post_id).toBe(second.result.externalId);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('a container still processing: publishing it is refused (not found yet), then IN_PROGRESS waits', async () => {
    const account = await sandbox.connectAccount('threads');
    await sandbox.setFaults(account.sandboxAccount.id, { processingMs: 1_500 });
    const first = await attempt(account, { text: sandbox.uniqueText('processing'), timeoutMs: 2_500 });
    expect(first.result).toMatchObject({ outcome: 'not_sent', rule: 'threads-container-not-found', httpStatus: 400 });
    expect(first.result.retryAt!.getTime()).toBeGreaterThan(Date.now());
    const second = await attempt(account, { text: 'x' }, first.saved[0]);
    expect(second.result).toMatchObject({ outcome: 'not_sent', rule: 'threads-container-in-progress' });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('a kept container whose processing failed (ERROR): failed with its message, no post', async () => {
    const account = await sandbox.connectAccount('threads');
    const res = await fetch(
      `${sandbox.url}/api/sandbox/threads/v1.0/me/threads?media_type=IMAGE&image_url=${encodeURIComponent('https://img.example/cat.gif')}`,
      { method: 'POST', headers: { authorization: `Bearer ${account.token}` } },
    );
    const { id } = (await res.json()) as { id: string };
    const { result } = await attempt(account, { text: 'image' }, { containerId: id });
    expect(result).toMatchObject({
      outcome: 'failed',
      rule: 'threads-container-error',
      evidence: { errorMessage: 'UNKNOWN' },
    });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });
});

describe('Threads client: faults on threads_publish (the step that makes a post)', () => {
  const cases = [
    { fault: { timeoutAfterCommit: 1 }, outcome: 'ambiguous', rule: 'timeout-without-response', copies: 1 },
    { fault: { timeoutBeforeCommit: 1 }, outcome: 'ambiguous', rule: 'timeout-without-response', copies: 0 },
    { fault: { errorAfterCommit: 1 }, outcome: 'ambiguous', rule: 'threads-temporary-error', copies: 1 },
    { fault: { resetAfterCommit: 1 }, outcome: 'ambiguous', rule: 'connection-reset', copies: 1 },
    { fault: { rateLimited: 1 }, outcome: 'not_sent', rule: 'threads-rate-limited', copies: 0 },
    { fault: { processingMs: 1_000 }, outcome: 'not_sent', rule: 'threads-container-not-found', copies: 0 },
  ] as const;
  it.each(cases)('$fault → $outcome ($rule), $copies cop(ies)', async ({ fault, outcome, rule, copies }) => {
    const account = await sandbox.connectAccount('threads');
    await sandbox.setFaults(account.sandboxAccount.id, fault);
    const { result, saved } = await attempt(account, { text: sandbox.uniqueText('fault'), timeoutMs: SHORT });
    expect(result).toMatchObject({ outcome, rule });
    if (outcome === 'ambiguous') expect(result.evidence).toMatchObject({ containerId: saved[0]!.containerId });
    if (rule === 'threads-rate-limited') {
      expect(result.retryAt!.getTime()).toBeGreaterThan(Date.now() + 50_000);
      expect(result.retryAt!.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
    }
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(copies);
  });

  it('the 250-posts-per-24-h quota: the 251st publish is refused (code 4), nothing published', async () => {
    const account = await sandbox.connectAccount('threads');
    for (let i = 0; i < 250; i++)
      await sandbox.store.createPost({ account: account.sandboxAccount, kind: 'post', text: `earlier ${i}` });
    const { result } = await attempt(account, { text: sandbox.uniqueText('one too many') });
    expect(result).toMatchObject({ outcome: 'not_sent', rule: 'threads-rate-limited', httpStatus: 400 });
    expect(result.reason).toContain('250 posts per 24 hours');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(250);
    // Replies have their own quota (1,000 per 24 h).
    const reply = await attempt(account, {
      text: sandbox.uniqueText('reply'),
      kind: 'reply',
      inReplyTo: (await sandbox.allPosts(account.sandboxAccount.id))[0]!.id,
    });
    expect(reply.result.outcome).toBe('sent');
  });

  it('over 500 characters as Threads counts them (an emoji is its UTF-8 bytes) → failed (#100)', async () => {
    const account = await sandbox.connectAccount('threads');
    const { result } = await attempt(account, { text: `${'a'.repeat(497)}🙂` }); // 497 + 4 bytes
    expect(result).toMatchObject({ outcome: 'failed', rule: 'threads-invalid-parameter', httpStatus: 400 });
    expect(result.reason).toContain('at most 500');
    expect((await attempt(account, { text: `${'a'.repeat(496)}🙂` })).result.outcome).toBe('sent');
  });

  it('a rejected token (Graph 190, HTTP 400) → failed, reconnect; nothing made', async () => {
    const account = await sandbox.connectAccount('threads');
    const impostor = createProviderClient(
      {
        provider: 'threads',
        baseUrl: '/api/sandbox/threads',
        platformUserId: account.platformUserId,
        accessToken: 'sbx_no',
      },
      { origin: sandbox.url },
    );
    const result = await impostor.publish({ text: 'hi', kind: 'post', idempotencyKey: randomUUID() });
    expect(result).toMatchObject({ outcome: 'failed', rule: 'threads-token-rejected', httpStatus: 400 });
    expect(result.reason).toMatch(/reconnect/);
    expect(await containers(account)).toHaveLength(0);
  });

  it('direct messages do not exist on Threads; a reply needs its parent', async () => {
    const account = await sandbox.connectAccount('threads');
    expect((await attempt(account, { text: 'dm', kind: 'dm', recipient: '1' })).result.rule).toBe('invalid-input');
    expect((await attempt(account, { text: 'r', kind: 'reply' })).result.rule).toBe('invalid-input');
    const orphan = await attempt(account, { text: 'r', kind: 'reply', inReplyTo: '123' });
    expect(orphan.result).toMatchObject({ outcome: 'failed', rule: 'threads-invalid-parameter' });
  });
});

describe('Threads client: reads, identity, deletes, token refresh', () => {
  it('whoAmI names the token’s user; a wrong token is a failed check', async () => {
    const account = await sandbox.connectAccount('threads');
    expect(await account.client.whoAmI()).toEqual({
      ok: true,
      id: account.platformUserId,
      handle: account.sandboxAccount.handle,
      displayName: account.sandboxAccount.handle.slice(1),
    });
    const impostor = createProviderClient(
      { provider: 'threads', baseUrl: '/api/sandbox/threads', platformUserId: '1', accessToken: 'nope' },
      { origin: sandbox.url },
    );
    expect(await impostor.whoAmI()).toMatchObject({ ok: false, outcome: 'failed', rule: 'threads-token-rejected' });
  });

  it('listRecent follows the after cursor, both listings, within the window', async () => {
    const account = await sandbox.connectAccount('threads');
    for (let i = 0; i < 105; i++)
      await sandbox.store.createPost({ account: account.sandboxAccount, kind: 'post', text: `bulk ${i}` });
    const all = await account.client.listRecent({ since: new Date(Date.now() - 60_000) });
    expect(all).toHaveLength(105);
    expect(new Set(all.map((p) => p.id)).size).toBe(105);
    expect(await account.client.listRecent({ since: new Date(Date.now() + 60_000) })).toEqual([]);
  });

  it('deletePost: the post is gone; deleting it again counts as already gone', async () => {
    const account = await sandbox.connectAccount('threads');
    const { result } = await attempt(account, { text: sandbox.uniqueText('delete me') });
    expect(await account.client.deletePost(result.externalId!)).toEqual({ ok: true, alreadyGone: false });
    expect(await account.client.deletePost(result.externalId!)).toEqual({ ok: true, alreadyGone: true });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });
});

describe('Threads readBack: the container’s status settles an unknown outcome', () => {
  const readBack = (account: Account, text: string, state: ProviderState, evidence: Record<string, unknown>[] = []) =>
    account.client.readBack!({
      idempotencyKey: randomUUID(),
      text,
      kind: 'post',
      inReplyTo: null,
      state,
      evidence,
      since: new Date(Date.now() - 60_000),
      until: new Date(),
      timeoutMs: 2_000,
    });

  it('PUBLISHED → found, with the listed post’s id and permalink', async () => {
    const account = await sandbox.connectAccount('threads');
    const text = sandbox.uniqueText('rb published');
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutAfterCommit: 1 });
    const { result, saved } = await attempt(account, { text, timeoutMs: SHORT });
    expect(result.outcome).toBe('ambiguous');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    const [post] = await sandbox.allPosts(account.sandboxAccount.id);
    expect(await readBack(account, text, saved[0]!)).toMatchObject({
      verdict: 'found',
      post: { id: post!.id, url: expect.stringContaining(`/v1.0/${post!.id}`) },
      evidence: { containerId: saved[0]!.containerId, status: 'PUBLISHED', listed: true },
    });
  });

  it('PUBLISHED but not listed yet (read lag) → a read error (read again later), never absent nor the container as the post', async () => {
    const account = await sandbox.connectAccount('threads');
    const text = sandbox.uniqueText('rb lag');
    const { saved } = await attempt(account, { text });
    await sandbox.setFaults(account.sandboxAccount.id, { readLagMs: 60_000 });
    const error = await readBack(account, text, saved[0]!).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderReadError);
    expect((error as ProviderReadError).classification).toMatchObject({
      rule: 'threads-published-not-listed',
      evidence: { containerId: saved[0]!.containerId, status: 'PUBLISHED', listed: false },
    });
  });

  it('FINISHED → absent; EXPIRED → absent; IN_PROGRESS → absent', async () => {
    const account = await sandbox.connectAccount('threads');
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutBeforeCommit: 1 });
    const finished = await attempt(account, { text: sandbox.uniqueText('rb finished'), timeoutMs: SHORT });
    await sandbox.setFaults(account.sandboxAccount.id, {});
    expect(await readBack(account, 'x', finished.saved[0]!)).toMatchObject({
      verdict: 'absent',
      evidence: { status: 'FINISHED' },
    });
    await db.execute(
      sql`update sandbox.threads_containers set created_at = now() - interval '25 hours' where id = ${finished.saved[0]!.containerId}`,
    );
    expect(await readBack(account, 'x', finished.saved[0]!)).toMatchObject({
      verdict: 'absent',
      evidence: { status: 'EXPIRED' },
    });
    await sandbox.setFaults(account.sandboxAccount.id, { processingMs: 5_000 });
    const processing = await attempt(account, { text: sandbox.uniqueText('rb processing') });
    await sandbox.setFaults(account.sandboxAccount.id, {});
    expect(await readBack(account, 'x', processing.saved[0]!)).toMatchObject({
      verdict: 'absent',
      evidence: { status: 'IN_PROGRESS' },
    });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('ERROR → review; no container kept → list (the evidence of an attempt is used when the state has none)', async () => {
    const account = await sandbox.connectAccount('threads');
    const res = await fetch(
      `${sandbox.url}/api/sandbox/threads/v1.0/${account.platformUserId}/threads?media_type=IMAGE&image_url=https://img.example/a.webp`,
      { method: 'POST', headers: { authorization: `Bearer ${account.token}` } },
    );
    const { id } = (await res.json()) as { id: string };
    expect(await readBack(account, 'x', {}, [{}, { containerId: id }])).toMatchObject({
      verdict: 'review',
      evidence: { containerId: id, status: 'ERROR', errorMessage: 'UNKNOWN' },
    });
    expect(await readBack(account, 'x', {})).toEqual({ verdict: 'list', evidence: { containerId: null } });
  });

  it('an unreadable status (503) throws a read error: the reconciler checks again later', async () => {
    const account = await sandbox.connectAccount('threads');
    const { saved } = await attempt(account, { text: sandbox.uniqueText('rb 503') });
    await sandbox.setFaults(account.sandboxAccount.id, { listingUnavailable: 1 });
    await expect(readBack(account, 'x', saved[0]!)).rejects.toMatchObject({
      name: 'ProviderReadError',
      classification: { outcome: 'ambiguous', rule: 'threads-temporary-error' },
    });
  });
});

describe('Threads long-lived token refresh', () => {
  it('renews the token (expires_in → expiresAt); a refused token is `rejected` (reconnect)', async () => {
    const account = await sandbox.connectAccount('threads');
    const { threadsProvider } = await import('./index');
    const resolved = (accessToken: string) => ({
      baseUrl: `${sandbox.url}/api/sandbox/threads`,
      platformUserId: account.platformUserId,
      accessToken,
      credentials: { accessToken },
      outbound: { trustedOrigin: sandbox.url },
    });
    const renewed = await threadsProvider.refresh(resolved(account.token));
    expect(renewed).toMatchObject({ ok: true });
    const { accessToken, expiresAt } = (renewed as { credentials: { accessToken: string; expiresAt: string } })
      .credentials;
    // A new token, which the platform takes.
    expect(accessToken).not.toBe(account.token);
    expect(await sandbox.store.authenticate('threads', accessToken)).toMatchObject({ id: account.sandboxAccount.id });
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now() + 59 * 86_400_000);
    expect(await threadsProvider.refresh(resolved('sbx_revoked'))).toMatchObject({ ok: false, rejected: true });
  });
});
