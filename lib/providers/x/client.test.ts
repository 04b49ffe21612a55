import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '@/testing/sandbox';
import { createProviderClient } from '..';

// The real X client against the sandbox (standalone server, real sockets) for every fault type:
// the classified outcome AND the number of copies the platform holds.

const sandbox = await startTestSandbox();
// Short for the calls that are meant to time out (the sandbox hangs them); a call meant to be answered gets time
// to be, also on a loaded machine.
const TIMEOUT = 400;
const ANSWERED_WITHIN = 10_000;
const timeoutFor = (faults: Parameters<typeof sandbox.setFaults>[1]) =>
  faults.timeoutAfterCommit || faults.timeoutBeforeCommit ? TIMEOUT : ANSWERED_WITHIN;

async function publishWith(faults: Parameters<typeof sandbox.setFaults>[1]) {
  const x = await sandbox.connectAccount('x');
  await sandbox.setFaults(x.sandboxAccount.id, faults);
  const result = await x.client.publish({
    text: sandbox.uniqueText('hello'),
    kind: 'post',
    idempotencyKey: randomUUID(),
    timeoutMs: timeoutFor(faults),
  });
  return { x, result, copies: await sandbox.copies(x.sandboxAccount.id) };
}

describe('X client against the sandbox, per fault', () => {
  it('no fault → sent, with the tweet id and a link; one copy', async () => {
    const { result, copies } = await publishWith({});
    expect(result).toMatchObject({ outcome: 'sent', rule: 'x-tweet-created', httpStatus: 201 });
    expect(result.externalId).toMatch(/^\d+$/);
    expect(result.url).toContain(`/api/sandbox/x/2/tweets/${result.externalId}`);
    expect(copies).toBe(1);
  });

  it('latency under the timeout → sent, and the call took at least that long', async () => {
    const { result, copies } = await publishWith({ latencyMs: 150 });
    expect(result.outcome).toBe('sent');
    expect(result.durationMs).toBeGreaterThanOrEqual(140);
    expect(copies).toBe(1);
  });

  it('timeout after commit → ambiguous, and the platform holds one copy', async () => {
    const { result, copies } = await publishWith({ timeoutAfterCommit: 1 });
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'timeout-without-response' });
    expect(copies).toBe(1);
  });

  it('timeout before commit → ambiguous (the client cannot tell), and zero copies', async () => {
    const { result, copies } = await publishWith({ timeoutBeforeCommit: 1 });
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'timeout-without-response' });
    expect(copies).toBe(0);
  });

  it('502 after commit → ambiguous, one copy', async () => {
    const { result, copies } = await publishWith({ errorAfterCommit: 1 });
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'server-error', httpStatus: 502 });
    expect(copies).toBe(1);
  });

  it('connection reset after commit (socket destroyed) → ambiguous, one copy', async () => {
    const { result, copies } = await publishWith({ resetAfterCommit: 1 });
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'connection-reset' });
    expect(copies).toBe(1);
  });

  it('429 → not_sent with X’s reset time, zero copies', async () => {
    const { result, copies } = await publishWith({ rateLimited: 1 });
    expect(result).toMatchObject({ outcome: 'not_sent', rule: 'rate-limited', httpStatus: 429 });
    expect(result.retryAt!.getTime()).toBeGreaterThan(Date.now());
    expect(copies).toBe(0);
  });

  it('a wrong token → failed 401, zero copies', async () => {
    const x = await sandbox.connectAccount('x');
    const impostor = createProviderClient(
      { provider: 'x', baseUrl: '/api/sandbox/x', platformUserId: x.platformUserId, accessToken: 'sbx_wrong' },
      { origin: sandbox.url },
    );
    const result = await impostor.publish({ text: 'hi', kind: 'post', idempotencyKey: randomUUID() });
    expect(result).toMatchObject({ outcome: 'failed', rule: 'unauthorized', httpStatus: 401 });
    expect(await sandbox.copies(x.sandboxAccount.id)).toBe(0);
  });

  it('connection refused → not_sent', async () => {
    const port = await closedPort();
    // The sandbox path on a trusted origin whose port is closed (an absolute loopback URL is refused by the outbound guard).
    const client = createProviderClient(
      { provider: 'x', baseUrl: '/api/sandbox/x', platformUserId: '1', accessToken: 't' },
      { origin: `http://127.0.0.1:${port}` },
    );
    const result = await client.publish({ text: 'hi', kind: 'post', idempotencyKey: randomUUID() });
    expect(result).toMatchObject({ outcome: 'not_sent', rule: 'connection-not-established' });
  });

  it('text over 280 characters → failed 400 with X’s message', async () => {
    const x = await sandbox.connectAccount('x');
    const result = await x.client.publish({ text: 'a'.repeat(281), kind: 'post', idempotencyKey: randomUUID() });
    expect(result).toMatchObject({ outcome: 'failed', rule: 'invalid-request', httpStatus: 400 });
    expect(result.reason).toContain('at most 280');
  });
});

describe('X duplicate-content rule', () => {
  it('identical text on one account within 24 h → 403, classified ambiguous with evidence; still one copy', async () => {
    const x = await sandbox.connectAccount('x');
    const text = sandbox.uniqueText('same words');
    const first = await x.client.publish({ text, kind: 'post', idempotencyKey: randomUUID() });
    const second = await x.client.publish({ text, kind: 'post', idempotencyKey: randomUUID() });
    expect(first.outcome).toBe('sent');
    expect(second).toMatchObject({
      outcome: 'ambiguous',
      rule: 'x-duplicate-content',
      httpStatus: 403,
      evidence: { duplicateContent: true },
    });
    expect(second.raw).toMatchObject({
      body: {
        detail: 'You are not allowed to create a Tweet with duplicate content.',
        type: 'about:blank',
        title: 'Forbidden',
        status: 403,
      },
    });
    expect(await sandbox.copies(x.sandboxAccount.id)).toBe(1);
  });

  it('the same text on another account, or as a DM, is not a duplicate', async () => {
    const [a, b] = [await sandbox.connectAccount('x'), await sandbox.connectAccount('x')];
    const text = sandbox.uniqueText('shared');
    expect((await a.client.publish({ text, kind: 'post', idempotencyKey: randomUUID() })).outcome).toBe('sent');
    expect((await b.client.publish({ text, kind: 'post', idempotencyKey: randomUUID() })).outcome).toBe('sent');
    expect(
      (await a.client.publish({ text, kind: 'dm', recipient: b.platformUserId, idempotencyKey: randomUUID() })).outcome,
    ).toBe('sent');
  });

  it('parallel identical posts on one account → exactly one copy', async () => {
    const x = await sandbox.connectAccount('x');
    const text = sandbox.uniqueText('race');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => x.client.publish({ text, kind: 'post', idempotencyKey: randomUUID() })),
    );
    expect(results.filter((r) => r.outcome === 'sent')).toHaveLength(1);
    expect(results.filter((r) => r.rule === 'x-duplicate-content')).toHaveLength(9);
    expect(await sandbox.copies(x.sandboxAccount.id)).toBe(1);
  });
});

describe('X replies, DMs, timeline and whoAmI', () => {
  it('a reply and a DM are sent; listRecent returns posts and replies (not DMs) newest first, with the reply target', async () => {
    const x = await sandbox.connectAccount('x');
    const since = new Date(Date.now() - 2_000);
    const post = await x.client.publish({
      text: sandbox.uniqueText('root'),
      kind: 'post',
      idempotencyKey: randomUUID(),
    });
    const reply = await x.client.publish({
      text: sandbox.uniqueText('reply'),
      kind: 'reply',
      inReplyTo: post.externalId,
      idempotencyKey: randomUUID(),
    });
    const dm = await x.client.publish({ text: 'psst', kind: 'dm', recipient: '12345', idempotencyKey: randomUUID() });
    expect([post.outcome, reply.outcome, dm.outcome]).toEqual(['sent', 'sent', 'sent']);
    expect(dm.rule).toBe('x-dm-created');
    const recent = await x.client.listRecent({ since });
    expect(recent.map((p) => p.id)).toEqual([reply.externalId, post.externalId]);
    expect(recent[0]!.inReplyTo).toBe(post.externalId);
    expect(recent[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(since.getTime());
  });

  it('listRecent follows pagination tokens and honours the time window', async () => {
    const x = await sandbox.connectAccount('x');
    for (let i = 0; i < 105; i++)
      await sandbox.store.createPost({ account: x.sandboxAccount, kind: 'post', text: `bulk ${i}` });
    const all = await x.client.listRecent({ since: new Date(Date.now() - 60_000) });
    expect(all).toHaveLength(105);
    expect(new Set(all.map((p) => p.id)).size).toBe(105);
    expect(await x.client.listRecent({ since: new Date(Date.now() + 60_000) })).toEqual([]);
  });

  it('whoAmI names the token’s user; a wrong token is a failed check', async () => {
    const x = await sandbox.connectAccount('x');
    expect(await x.client.whoAmI()).toEqual({
      ok: true,
      id: x.platformUserId,
      handle: x.sandboxAccount.handle,
      displayName: x.sandboxAccount.handle.slice(1),
    });
    const impostor = createProviderClient(
      { provider: 'x', baseUrl: '/api/sandbox/x', platformUserId: x.platformUserId, accessToken: 'nope' },
      { origin: sandbox.url },
    );
    expect(await impostor.whoAmI()).toMatchObject({ ok: false, outcome: 'failed', httpStatus: 401 });
  });

  it('listRecent of an unknown user throws a read error', async () => {
    const x = await sandbox.connectAccount('x');
    const ghost = createProviderClient(
      { provider: 'x', baseUrl: '/api/sandbox/x', platformUserId: '999', accessToken: x.token },
      { origin: sandbox.url },
    );
    await expect(ghost.listRecent({ since: new Date(0) })).rejects.toMatchObject({ name: 'ProviderReadError' });
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
