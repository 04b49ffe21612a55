import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '@/testing/sandbox';
import { createProviderClient } from '..';

// The real Mastodon client against the sandbox for every fault type, and Idempotency-Key replay.

const sandbox = await startTestSandbox();
// Short for the calls that are meant to time out (the sandbox hangs them); a call meant to be answered gets time
// to be, also on a loaded machine.
const TIMEOUT = 400;
const ANSWERED_WITHIN = 10_000;
const timeoutFor = (faults: Parameters<typeof sandbox.setFaults>[1]) =>
  faults.timeoutAfterCommit || faults.timeoutBeforeCommit ? TIMEOUT : ANSWERED_WITHIN;

async function publishWith(faults: Parameters<typeof sandbox.setFaults>[1], idempotencyKey = randomUUID()) {
  const m = await sandbox.connectAccount('mastodon');
  await sandbox.setFaults(m.sandboxAccount.id, faults);
  const text = sandbox.uniqueText('toot');
  const result = await m.client.publish({ text, kind: 'post', idempotencyKey, timeoutMs: timeoutFor(faults) });
  return { m, text, idempotencyKey, result, copies: await sandbox.copies(m.sandboxAccount.id) };
}

describe('Mastodon client against the sandbox, per fault', () => {
  it('no fault → sent with the status id and url; one copy', async () => {
    const { result, copies } = await publishWith({});
    expect(result).toMatchObject({ outcome: 'sent', rule: 'mastodon-status-created', httpStatus: 200 });
    expect(result.url).toContain(`/api/sandbox/mastodon/api/v1/statuses/${result.externalId}`);
    expect(copies).toBe(1);
  });

  it('latency under the timeout → sent', async () => {
    const { result, copies } = await publishWith({ latencyMs: 150 });
    expect(result.outcome).toBe('sent');
    expect(result.durationMs).toBeGreaterThanOrEqual(140);
    expect(copies).toBe(1);
  });

  it('timeout after commit → ambiguous, safe to resend with the same key for most of an hour; one copy', async () => {
    const { result, copies, idempotencyKey } = await publishWith({ timeoutAfterCommit: 1 });
    expect(result).toMatchObject({
      outcome: 'ambiguous',
      rule: 'timeout-without-response',
      evidence: { idempotencyKey },
    });
    const window = result.safeRetryUntil!.getTime() - result.startedAt.getTime();
    expect(window).toBeGreaterThan(50 * 60_000);
    expect(window).toBeLessThan(60 * 60_000);
    expect(copies).toBe(1);
  });

  it('timeout before commit → ambiguous, zero copies', async () => {
    const { result, copies } = await publishWith({ timeoutBeforeCommit: 1 });
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'timeout-without-response' });
    expect(copies).toBe(0);
  });

  it('502 after commit → ambiguous, one copy', async () => {
    const { result, copies } = await publishWith({ errorAfterCommit: 1 });
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'server-error', httpStatus: 502 });
    expect(copies).toBe(1);
  });

  it('connection reset after commit → ambiguous, one copy', async () => {
    const { result, copies } = await publishWith({ resetAfterCommit: 1 });
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'connection-reset' });
    expect(copies).toBe(1);
  });

  it('429 → not_sent with Mastodon’s reset time, zero copies', async () => {
    const { result, copies } = await publishWith({ rateLimited: 1 });
    expect(result).toMatchObject({ outcome: 'not_sent', rule: 'rate-limited', httpStatus: 429 });
    expect(result.retryAt!.getTime()).toBeGreaterThan(Date.now());
    expect(copies).toBe(0);
  });

  it('a wrong token → failed 401, zero copies', async () => {
    const m = await sandbox.connectAccount('mastodon');
    const impostor = createProviderClient(
      {
        provider: 'mastodon',
        baseUrl: '/api/sandbox/mastodon',
        platformUserId: m.platformUserId,
        accessToken: 'wrong',
      },
      { origin: sandbox.url },
    );
    const result = await impostor.publish({ text: 'hi', kind: 'post', idempotencyKey: randomUUID() });
    expect(result).toMatchObject({ outcome: 'failed', rule: 'unauthorized', httpStatus: 401 });
    expect(result.reason).toContain('The access token is invalid');
    expect(await sandbox.copies(m.sandboxAccount.id)).toBe(0);
  });

  it('DNS failure → not_sent', async () => {
    const client = createProviderClient({
      provider: 'mastodon',
      baseUrl: 'http://semel-sandbox.invalid',
      platformUserId: '1',
      accessToken: 't',
    });
    const result = await client.publish({ text: 'hi', kind: 'post', idempotencyKey: randomUUID(), timeoutMs: 5_000 });
    expect(result).toMatchObject({ outcome: 'not_sent', rule: 'connection-not-established' });
  });

  it('an empty status → failed 422 with Mastodon’s validation message', async () => {
    const m = await sandbox.connectAccount('mastodon');
    const result = await m.client.publish({ text: '  ', kind: 'post', idempotencyKey: randomUUID() });
    expect(result).toMatchObject({ outcome: 'failed', rule: 'invalid-request', httpStatus: 422 });
    expect(result.reason).toContain("Text can't be blank");
  });
});

describe('Mastodon Idempotency-Key', () => {
  it('after an ambiguous timeout, resending with the same key returns the original status: still one copy', async () => {
    const { m, text, idempotencyKey, result } = await publishWith({ timeoutAfterCommit: 1 });
    expect(result.outcome).toBe('ambiguous');
    await sandbox.setFaults(m.sandboxAccount.id, {});
    const retry = await m.client.publish({ text, kind: 'post', idempotencyKey, timeoutMs: ANSWERED_WITHIN });
    expect(retry.outcome).toBe('sent');
    const [stored] = await sandbox.store.listPosts(m.sandboxAccount.id, { kinds: ['post'], limit: 10 });
    expect(retry.externalId).toBe(stored!.id);
    expect(await sandbox.copies(m.sandboxAccount.id)).toBe(1);
  });

  it('a different key is a new status (a naive retry with a fresh key duplicates)', async () => {
    const m = await sandbox.connectAccount('mastodon');
    const text = sandbox.uniqueText('twice');
    await m.client.publish({ text, kind: 'post', idempotencyKey: randomUUID() });
    await m.client.publish({ text, kind: 'post', idempotencyKey: randomUUID() });
    expect(await sandbox.copies(m.sandboxAccount.id)).toBe(2);
  });

  it('30 parallel requests with one key → one status, every answer names it', async () => {
    const m = await sandbox.connectAccount('mastodon');
    const idempotencyKey = randomUUID();
    const text = sandbox.uniqueText('parallel');
    const results = await Promise.all(
      Array.from({ length: 30 }, () => m.client.publish({ text, kind: 'post', idempotencyKey, timeoutMs: 10_000 })),
    );
    expect(results.every((r) => r.outcome === 'sent')).toBe(true);
    expect(new Set(results.map((r) => r.externalId)).size).toBe(1);
    expect(await sandbox.copies(m.sandboxAccount.id)).toBe(1);
  });

  it('the same key on another account is independent', async () => {
    const [a, b] = [await sandbox.connectAccount('mastodon'), await sandbox.connectAccount('mastodon')];
    const idempotencyKey = randomUUID();
    const first = await a.client.publish({ text: 'x', kind: 'post', idempotencyKey });
    const second = await b.client.publish({ text: 'x', kind: 'post', idempotencyKey });
    expect(first.externalId).not.toBe(second.externalId);
  });

  it('a key older than one hour is forgotten: the same key makes a new status', async () => {
    const m = await sandbox.connectAccount('mastodon');
    const idempotencyKey = randomUUID();
    const first = await m.client.publish({ text: 'old', kind: 'post', idempotencyKey });
    await sandbox.db.execute(
      `update sandbox.idempotency_keys set created_at = now() - interval '61 minutes' where key = '${idempotencyKey}'` as never,
    );
    const second = await m.client.publish({ text: 'old', kind: 'post', idempotencyKey });
    expect(second.outcome).toBe('sent');
    expect(second.externalId).not.toBe(first.externalId);
    expect(await sandbox.copies(m.sandboxAccount.id)).toBe(2);
  });
});

describe('Mastodon replies, DMs, timeline and whoAmI', () => {
  it('a DM is a direct status mentioning the recipient; listRecent shows the owner its posts in the window as plain text', async () => {
    const m = await sandbox.connectAccount('mastodon');
    const since = new Date(Date.now() - 2_000);
    const post = await m.client.publish({
      text: 'Tom & Jerry <3\nline two',
      kind: 'post',
      idempotencyKey: randomUUID(),
    });
    const reply = await m.client.publish({
      text: 'a reply',
      kind: 'reply',
      inReplyTo: post.externalId,
      idempotencyKey: randomUUID(),
    });
    const dm = await m.client.publish({
      text: 'secret',
      kind: 'dm',
      recipient: 'alice@example.social',
      idempotencyKey: randomUUID(),
    });
    expect([post.outcome, reply.outcome, dm.outcome]).toEqual(['sent', 'sent', 'sent']);
    const recent = await m.client.listRecent({ since });
    expect(recent.map((p) => p.text)).toEqual(['@alice@example.social secret', 'a reply', 'Tom & Jerry <3\nline two']);
    expect(recent[1]!.inReplyTo).toBe(post.externalId);
    const [stored] = await sandbox.store.listPosts(m.sandboxAccount.id, { kinds: ['dm'], limit: 1 });
    expect(stored).toMatchObject({ kind: 'dm', recipientId: 'alice@example.social' });
  });

  it('listRecent pages with max_id past 40 statuses', async () => {
    const m = await sandbox.connectAccount('mastodon');
    for (let i = 0; i < 85; i++)
      await sandbox.store.createPost({ account: m.sandboxAccount, kind: 'post', text: `bulk ${i}` });
    const all = await m.client.listRecent({ since: new Date(Date.now() - 60_000) });
    expect(all).toHaveLength(85);
    expect(all[0]!.text).toBe('bulk 84');
  });

  it('whoAmI names the account; a wrong token is a failed check', async () => {
    const m = await sandbox.connectAccount('mastodon');
    expect(await m.client.whoAmI()).toMatchObject({ ok: true, id: m.platformUserId });
    const impostor = createProviderClient(
      { provider: 'mastodon', baseUrl: '/api/sandbox/mastodon', platformUserId: '1', accessToken: 'nope' },
      { origin: sandbox.url },
    );
    expect(await impostor.whoAmI()).toMatchObject({ ok: false, outcome: 'failed', httpStatus: 401 });
  });
});
