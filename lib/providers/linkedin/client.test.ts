import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '@/testing/sandbox';
import { startServer } from '@/testing/wire/servers';
import { createProviderClient, providerDefinition, type ReadBackInput } from '..';
import { createLinkedinClient } from './client';

// The real LinkedIn client against the sandbox's LinkedIn dialect (standalone server, real sockets):
// the classified outcome AND the number of copies the platform holds, for an organization page and a member.

const sandbox = await startTestSandbox();
// Short for the calls that are meant to time out (the sandbox hangs them); a call meant to be answered gets time
// to be, also on a loaded machine, where 400 ms turned a refusal into an ambiguous outcome.
const TIMEOUT = 400;
const ANSWERED_WITHIN = 10_000;
const TRICKY = 'Launch (beta) today: [v2] {notes} <3 a|b @team *bold* snake_case ~ back\\slash #launch #Zürich';

async function page(faults: Parameters<typeof sandbox.setFaults>[1] = {}) {
  const account = await sandbox.connectAccount('linkedin');
  await sandbox.setFaults(account.sandboxAccount.id, faults);
  return account;
}
const member = () => sandbox.connectAccount('linkedin', undefined, { linkedinAuthor: 'person' });
const post = (text: string, timeoutMs = ANSWERED_WITHIN) => ({
  text,
  kind: 'post' as const,
  idempotencyKey: randomUUID(),
  timeoutMs,
});
const readBackInput = (text: string, evidence: Record<string, unknown>[]): ReadBackInput => ({
  idempotencyKey: randomUUID(),
  text,
  kind: 'post',
  inReplyTo: null,
  state: {},
  evidence,
  since: new Date(Date.now() - 60_000),
  until: new Date(Date.now() + 1_000),
});

describe('LinkedIn client against the sandbox, per fault (organization page)', () => {
  it('no fault → sent with the share URN and a link; one copy, its text intact (escaped on the wire)', async () => {
    const account = await page();
    const text = `${TRICKY} ${randomUUID().slice(0, 8)}`;
    const result = await account.client.publish(post(text));
    expect(result).toMatchObject({ outcome: 'sent', rule: 'linkedin-post-created', httpStatus: 201 });
    expect(result.externalId).toMatch(/^urn:li:share:\d{19}$/);
    expect(result.url).toBe(`${sandbox.url}/api/sandbox/linkedin/rest/posts/${encodeURIComponent(result.externalId!)}`);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('timeout after commit → ambiguous, and the page holds one copy', async () => {
    const account = await page({ timeoutAfterCommit: 1 });
    const result = await account.client.publish(post(sandbox.uniqueText('after'), TIMEOUT));
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'timeout-without-response' });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('timeout before commit → ambiguous (the client cannot tell), and zero copies', async () => {
    const account = await page({ timeoutBeforeCommit: 1 });
    const result = await account.client.publish(post(sandbox.uniqueText('before'), TIMEOUT));
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'timeout-without-response' });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('5xx after commit → ambiguous, one copy', async () => {
    const account = await page({ errorAfterCommit: 1 });
    const result = await account.client.publish(post(sandbox.uniqueText('502')));
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'server-error', httpStatus: 502 });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('connection reset after commit → ambiguous, one copy', async () => {
    const account = await page({ resetAfterCommit: 1 });
    const result = await account.client.publish(post(sandbox.uniqueText('reset')));
    expect(result).toMatchObject({ outcome: 'ambiguous', rule: 'connection-reset' });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('429 → not_sent with a retry time, zero copies', async () => {
    const account = await page({ rateLimited: 1 });
    const result = await account.client.publish(post(sandbox.uniqueText('429')));
    expect(result).toMatchObject({ outcome: 'not_sent', rule: 'rate-limited', httpStatus: 429 });
    expect(result.retryAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('a wrong token → failed 401 (reconnect), zero copies', async () => {
    const account = await page();
    const impostor = createProviderClient(
      {
        provider: 'linkedin',
        baseUrl: '/api/sandbox/linkedin',
        platformUserId: account.platformUserId,
        accessToken: 'x',
      },
      { origin: sandbox.url },
    );
    const result = await impostor.publish(post('hi'));
    expect(result).toMatchObject({ outcome: 'failed', rule: 'unauthorized', httpStatus: 401 });
    expect(result.reason).toMatch(/reconnect/);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('a page the member does not administer → failed 403, nothing posted there', async () => {
    const [mine, theirs] = [await page(), await page()];
    const client = createProviderClient(
      {
        provider: 'linkedin',
        baseUrl: '/api/sandbox/linkedin',
        platformUserId: theirs.platformUserId,
        accessToken: mine.token,
      },
      { origin: sandbox.url },
    );
    const result = await client.publish(post('not my page'));
    expect(result).toMatchObject({ outcome: 'failed', rule: 'forbidden', httpStatus: 403 });
    expect(await sandbox.copies(theirs.sandboxAccount.id)).toBe(0);
  });

  it('commentary over 3000 characters → failed 422 with LinkedIn’s message; a DM is refused before any call, a comment on no post by LinkedIn', async () => {
    const account = await page();
    const long = await account.client.publish(post('a'.repeat(3_001)));
    expect(long).toMatchObject({ outcome: 'failed', rule: 'invalid-request', httpStatus: 422 });
    expect(long.reason).toContain('/commentary');
    const dm = await account.client.publish({ ...post('dm'), kind: 'dm', recipient: 'urn:li:person:1' });
    expect(dm).toMatchObject({ outcome: 'failed', rule: 'invalid-input' });
    // A reply is a comment (page-comments.test.ts): on a post that does not exist, LinkedIn answers 404.
    const reply = await account.client.publish({ ...post('re'), kind: 'reply', inReplyTo: 'urn:li:share:1' });
    expect(reply).toMatchObject({ outcome: 'failed', rule: 'not-found', httpStatus: 404 });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('an API version LinkedIn no longer serves → failed 426, naming LINKEDIN_API_VERSION', async () => {
    const account = await page();
    const client = createLinkedinClient(
      {
        baseUrl: `${sandbox.url}/api/sandbox/linkedin`,
        platformUserId: account.platformUserId,
        accessToken: account.token,
        outbound: { trustedOrigin: sandbox.url },
      },
      undefined,
      { version: '202112' },
    );
    const result = await client.publish(post('old version'));
    expect(result).toMatchObject({ outcome: 'failed', rule: 'linkedin-version-inactive', httpStatus: 426 });
    expect(result.reason).toContain('LINKEDIN_API_VERSION');
  });

  it('a member posts as themself', async () => {
    const account = await member();
    expect(account.platformUserId).toMatch(/^urn:li:person:sbx\d+$/);
    const result = await account.client.publish(post(sandbox.uniqueText('member')));
    expect(result).toMatchObject({ outcome: 'sent', rule: 'linkedin-post-created' });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });
});

describe('LinkedIn duplicate refusal (profile `linkedin`)', () => {
  it('identical text by one author → 422 DUPLICATE_POST naming the first post; evidence, not failure; one copy', async () => {
    const account = await page();
    const text = sandbox.uniqueText('same words');
    const first = await account.client.publish(post(text));
    const second = await account.client.publish(post(text));
    expect(second).toMatchObject({
      outcome: 'ambiguous',
      rule: 'linkedin-duplicate-post',
      httpStatus: 422,
      evidence: { duplicateOf: first.externalId },
    });
    expect(second.raw).toMatchObject({
      body: {
        status: 422,
        errorDetails: { inputErrors: [{ code: 'DUPLICATE_POST', description: 'Duplicate post is detected' }] },
      },
    });
    expect(providerDefinition('linkedin').isDuplicateEvidence(second)).toBe(true);
    expect(providerDefinition('linkedin').isDuplicateEvidence(first)).toBe(false);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('parallel identical posts → exactly one copy; every refusal names it', async () => {
    const account = await page();
    const text = sandbox.uniqueText('race');
    const results = await Promise.all(Array.from({ length: 8 }, () => account.client.publish(post(text))));
    const sent = results.filter((r) => r.outcome === 'sent');
    expect(sent).toHaveLength(1);
    const refused = results.filter((r) => r.rule === 'linkedin-duplicate-post');
    expect(refused).toHaveLength(7);
    expect(new Set(refused.map((r) => r.evidence!.duplicateOf))).toEqual(new Set([sent[0]!.externalId]));
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('the same text by another author is not a duplicate', async () => {
    const [a, b] = [await page(), await member()];
    const text = sandbox.uniqueText('shared');
    expect((await a.client.publish(post(text))).outcome).toBe('sent');
    expect((await b.client.publish(post(text))).outcome).toBe('sent');
  });

  it('after a delete the refusal goes on, naming the deleted post (a "ghost" that answers 404)', async () => {
    const account = await page();
    const text = sandbox.uniqueText('ghost');
    const first = await account.client.publish(post(text));
    expect(await account.client.deletePost(first.externalId!)).toEqual({ ok: true, alreadyGone: false });
    const again = await account.client.publish(post(text));
    expect(again).toMatchObject({ rule: 'linkedin-duplicate-post', evidence: { duplicateOf: first.externalId } });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('profile `plain` (no refusal) on LinkedIn: a resend makes a second copy', async () => {
    const account = await page({ profile: 'plain' });
    const text = sandbox.uniqueText('plain');
    await account.client.publish(post(text));
    expect((await account.client.publish(post(text))).outcome).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(2);
  });
});

describe('LinkedIn readBack (evidence)', () => {
  it('a duplicate naming our post → found, with its URN, text and link', async () => {
    const account = await page();
    const text = `${TRICKY} ${randomUUID().slice(0, 8)}`;
    const first = await account.client.publish(post(text));
    const refused = await account.client.publish(post(text));
    const read = await account.client.readBack!(readBackInput(text, [refused.evidence!]));
    expect(read).toMatchObject({
      verdict: 'found',
      post: { id: first.externalId, text, url: first.url },
      evidence: { duplicateOf: first.externalId },
    });
  });

  it('a named post older than the attempts (not ours) → the page is listed instead', async () => {
    const account = await page();
    const text = sandbox.uniqueText('older');
    const first = await account.client.publish(post(text));
    const input = readBackInput(text, [{ duplicateOf: first.externalId }]);
    const read = await account.client.readBack!({ ...input, since: new Date(Date.now() + 1_000) });
    expect(read).toMatchObject({ verdict: 'list', evidence: { duplicates: [{ urn: first.externalId, ours: false }] } });
  });

  it('a named post that is gone (ghost) → review with the evidence', async () => {
    const account = await page();
    const text = sandbox.uniqueText('ghost read');
    const first = await account.client.publish(post(text));
    await account.client.deletePost(first.externalId!);
    const read = await account.client.readBack!(readBackInput(text, [{ duplicateOf: first.externalId }]));
    expect(read).toMatchObject({
      verdict: 'review',
      evidence: { duplicates: [{ urn: first.externalId, status: 404 }] },
    });
    expect((read as { reason: string }).reason).toContain(first.externalId);
  });

  it('no URN named: a page → list; a member → review ("cannot be listed"), with the attempts’ evidence', async () => {
    const org = await page();
    const timeout = { code: null, timedOut: true };
    expect(await org.client.readBack!(readBackInput('x', [timeout]))).toMatchObject({ verdict: 'list' });
    const person = await member();
    const read = await person.client.readBack!(readBackInput('x', [timeout]));
    expect(read).toMatchObject({ verdict: 'review', evidence: { attempts: [timeout] } });
    expect((read as { reason: string }).reason).toMatch(/member posts cannot be listed; check the profile/);
  });

  it('a member’s duplicate: the named post cannot be read (403 without r_member_social) → review naming it', async () => {
    const account = await member();
    const text = sandbox.uniqueText('member dup');
    const first = await account.client.publish(post(text));
    const refused = await account.client.publish(post(text));
    expect(refused.evidence).toMatchObject({ duplicateOf: first.externalId });
    const read = await account.client.readBack!(readBackInput(text, [refused.evidence!]));
    expect(read).toMatchObject({ verdict: 'review', evidence: { duplicates: [{ status: 403 }] } });
    expect((read as { reason: string }).reason).toContain(first.externalId);
  });

  it('an unreadable named post (slow platform) → a read error, not a verdict', async () => {
    const account = await page();
    const text = sandbox.uniqueText('slow');
    const first = await account.client.publish(post(text));
    await sandbox.setFaults(account.sandboxAccount.id, { latencyMs: 1_000 });
    const input = { ...readBackInput(text, [{ duplicateOf: first.externalId }]), timeoutMs: 200 };
    await expect(account.client.readBack!(input)).rejects.toMatchObject({
      name: 'ProviderReadError',
      classification: { outcome: 'ambiguous', rule: 'timeout-without-response' },
    });
  });
});

describe('LinkedIn listing, identities and delete', () => {
  it('listRecent pages through a page’s posts, newest first, decoded, within the window', async () => {
    const account = await page();
    for (let i = 0; i < 120; i++)
      await sandbox.store.createPost({ account: account.sandboxAccount, kind: 'post', text: `bulk (${i}) #${i}` });
    const all = await account.client.listRecent({ since: new Date(Date.now() - 60_000) });
    expect(all).toHaveLength(120);
    expect(new Set(all.map((p) => p.id)).size).toBe(120);
    // Decoded from little text; ordered by time (posts made within one millisecond may come in either order).
    expect(new Set(all.map((p) => p.text))).toEqual(
      new Set(Array.from({ length: 120 }, (_, i) => `bulk (${i}) #${i}`)),
    );
    expect(all[0]!.id).toMatch(/^urn:li:share:\d+$/);
    expect(all.map((p) => p.createdAt.getTime())).toEqual(
      [...all.map((p) => p.createdAt.getTime())].sort((a, b) => b - a),
    );
    expect(await account.client.listRecent({ since: new Date(Date.now() + 60_000) })).toEqual([]);
  });

  it('an unreadable listing (slow, or LinkedIn’s 503) → a read error', async () => {
    const account = await page({ latencyMs: 1_000 });
    await expect(account.client.listRecent({ since: new Date(0), timeoutMs: 200 })).rejects.toMatchObject({
      name: 'ProviderReadError',
    });
    await sandbox.setFaults(account.sandboxAccount.id, { listingUnavailable: 1 });
    await expect(account.client.listRecent({ since: new Date(0) })).rejects.toMatchObject({
      name: 'ProviderReadError',
      classification: { rule: 'server-error', httpStatus: 503 },
    });
  });

  it('a member’s posts are not listable: a read error, without calling LinkedIn', async () => {
    const account = await member();
    await expect(account.client.listRecent({ since: new Date(0) })).rejects.toMatchObject({
      name: 'ProviderReadError',
      classification: { rule: 'linkedin-member-not-listable' },
    });
  });

  it('whoAmI names the token’s member (also for a page); a wrong token is a failed check', async () => {
    const account = await page();
    const me = await account.client.whoAmI();
    expect(me).toMatchObject({ ok: true, id: expect.stringMatching(/^urn:li:person:sbx\d+$/) });
    const impostor = createProviderClient(
      {
        provider: 'linkedin',
        baseUrl: '/api/sandbox/linkedin',
        platformUserId: account.platformUserId,
        accessToken: 'no',
      },
      { origin: sandbox.url },
    );
    expect(await impostor.whoAmI()).toMatchObject({ ok: false, outcome: 'failed', httpStatus: 401 });
  });

  it('listIdentities: the member, then each page they administer, with names', async () => {
    const account = await page();
    const identities = await account.client.listIdentities!();
    expect(identities).toHaveLength(2);
    expect(identities[0]!.platformUserId).toMatch(/^urn:li:person:sbx\d+$/);
    expect(identities[1]).toEqual({
      platformUserId: account.platformUserId,
      handle: account.sandboxAccount.handle,
      displayName: account.sandboxAccount.handle,
    });
    expect(await (await member()).client.listIdentities!()).toHaveLength(1);
  });

  it('deletePost removes the post; deleting it again counts as already gone', async () => {
    const account = await page();
    const result = await account.client.publish(post(sandbox.uniqueText('delete me')));
    expect(await account.client.deletePost(result.externalId!)).toEqual({ ok: true, alreadyGone: false });
    expect(await account.client.deletePost(result.externalId!)).toEqual({ ok: true, alreadyGone: true });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });
});

describe('LinkedIn answers the sandbox does not give, from a raw loopback server', () => {
  /** A server that answers every complete request with `reply` (raw HTTP), then does `after` to the socket. */
  async function linkedinAt(reply: string, after: 'keep' | 'destroy' = 'keep') {
    const server = await startServer('tcp', (connection, completed) => {
      if (!completed) return;
      connection.socket.write(reply);
      if (after === 'destroy') setTimeout(() => connection.socket.destroy(), 20);
    });
    const origin = server.url('').replace(/\/$/, '');
    const client = createLinkedinClient({
      baseUrl: origin,
      platformUserId: 'urn:li:organization:42',
      accessToken: 't',
      outbound: { trustedOrigin: origin },
    });
    return { client, server };
  }

  it('a 201 whose body breaks off after the headers is sent: the URN came in x-restli-id', async () => {
    const { client, server } = await linkedinAt(
      'HTTP/1.1 201 Created\r\nx-restli-id: urn:li:share:7000000000000000001\r\ncontent-length: 50\r\n\r\n{"partial',
      'destroy',
    );
    const result = await client.publish(post('cut body'));
    expect(result.raw.type).toBe('body-error');
    expect(result).toMatchObject({
      outcome: 'sent',
      rule: 'linkedin-post-created',
      externalId: 'urn:li:share:7000000000000000001',
    });
    await server.close();
  });

  it('the daily limit (429, no Retry-After) → not_sent until midnight UTC', async () => {
    const body = JSON.stringify({
      status: 429,
      serviceErrorCode: 101,
      code: 'TOO_MANY_REQUESTS',
      message: 'Resource level throttle MEMBER DAY limit for calls to this resource is reached.',
    });
    const { client, server } = await linkedinAt(
      `HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    const result = await client.publish(post('limit'));
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(result).toMatchObject({ outcome: 'not_sent', rule: 'linkedin-daily-limit', retryAt: midnight });
    await server.close();
  });
});
