import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { upsertAccount } from '@/db/queries/accounts';
import { getSandboxAccountByUserId } from '@/sandbox/db/queries/store';
import { makeWorkspace } from '@/testing/db/factories';
import { openCredentials, sealCredentials } from '@/lib/providers/credentials';
import { recordKeyFor } from '@/lib/providers/bluesky/tid';
import { issueSandboxSession } from './session';
import { connectSandboxAccount, sandboxCredentials } from '@/lib/sandbox/connect';
import { profileFits, resolveProfile } from '@/sandbox/behaviour/profiles';
import { startMemoryTestSandbox, startTestSandbox } from '@/testing/sandbox';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { hashSandboxToken, newSandboxIdentity } from '@/sandbox/oauth/tokens';

// The sandbox's PDS dialect spoken raw (XRPC over HTTP), on both stores: what a PDS answers, and only that.

const backends = [
  { name: 'Postgres store', start: () => startTestSandbox() },
  { name: 'memory store', start: () => startMemoryTestSandbox() },
];

describe.each(backends)('Bluesky dialect ($name)', async ({ start }) => {
  const sandbox = await start();
  const xrpc = async (
    method: 'GET' | 'POST',
    nsid: string,
    options: { token?: string; body?: unknown; query?: Record<string, string> } = {},
  ) => {
    const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
    const res = await fetch(`${sandbox.url}/api/sandbox/bluesky/xrpc/${nsid}${query}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const account = async () => {
    const a = await sandbox.connectAccount('bluesky');
    const put = (rkey: string, record: Record<string, unknown>, swapRecord?: string | null) =>
      xrpc('POST', 'com.atproto.repo.putRecord', {
        token: a.credentials.accessToken,
        body: {
          repo: a.platformUserId,
          collection: 'app.bsky.feed.post',
          rkey,
          record,
          ...(swapRecord !== undefined ? { swapRecord } : {}),
        },
      });
    return { ...a, put };
  };
  const post = (text: string, createdAt = '2026-03-01T12:00:00.000Z') => ({
    $type: 'app.bsky.feed.post',
    text,
    createdAt,
  });
  const key = () => recordKeyFor(randomUUID(), new Date());

  it('createAccount: a sign-up on the sandbox domain opens sessions with its password; taken or foreign handles are refused', async () => {
    const handle = `signup-${randomUUID().slice(0, 8)}.bsky.sandbox`;
    const password = `pw-${randomUUID()}`;
    const signUp = (over: Record<string, unknown> = {}) =>
      xrpc('POST', 'com.atproto.server.createAccount', {
        body: { handle, email: 'someone@example.com', password, ...over },
      });
    const created = await signUp({ handle: handle.toUpperCase() });
    expect(created).toMatchObject({
      status: 200,
      body: { handle, did: expect.stringMatching(/^did:plc:[a-z2-7]{24}$/) },
    });
    const session = await xrpc('POST', 'com.atproto.server.createSession', { body: { identifier: handle, password } });
    expect(session).toMatchObject({ status: 200, body: { did: created.body.did, handle, active: true } });
    expect(
      await xrpc('POST', 'com.atproto.server.createSession', {
        body: { identifier: handle, password: 'wrong-password' },
      }),
    ).toMatchObject({ status: 401, body: { error: 'AuthenticationRequired' } });

    expect(await signUp({ password: `pw-${randomUUID()}` })).toEqual({
      status: 400,
      body: { error: 'InvalidRequest', message: `Handle already taken: ${handle}` },
    });
    expect(await signUp({ handle: `other-${randomUUID().slice(0, 8)}.bsky.sandbox` })).toMatchObject({
      status: 400,
      body: { error: 'InvalidPassword' },
    });
    expect(await signUp({ handle: 'someone.bsky.social' })).toMatchObject({
      status: 400,
      body: { error: 'UnsupportedDomain' },
    });
    expect(await signUp({ handle: 'ab.bsky.sandbox' })).toMatchObject({
      status: 400,
      body: { message: 'Handle too short' },
    });
    expect(await signUp({ handle: 'not a handle' })).toMatchObject({ status: 400, body: { error: 'InvalidHandle' } });
    expect(await signUp({ email: undefined, handle: `x${handle}` })).toMatchObject({
      status: 400,
      body: { message: 'Email is required' },
    });
    expect(await signUp({ password: undefined, handle: `y${handle}` })).toMatchObject({ status: 400 });
  });

  it('putRecord with swapRecord null: creates; the same record again is a no-op (no commit); another is InvalidSwap', async () => {
    const a = await account();
    const rkey = key();
    const created = await a.put(rkey, post('one'), null);
    expect(created).toMatchObject({
      status: 200,
      body: { uri: `at://${a.platformUserId}/app.bsky.feed.post/${rkey}`, commit: { rev: expect.any(String) } },
    });
    expect(created.body.cid).toMatch(/^bafyrei[a-z2-7]{52}$/);
    const again = await a.put(rkey, post('one'), null);
    expect(again).toEqual({
      status: 200,
      body: { uri: created.body.uri, cid: created.body.cid, validationStatus: 'valid' },
    });
    const other = await a.put(rkey, post('two'), null);
    expect(other).toEqual({
      status: 400,
      body: { error: 'InvalidSwap', message: `Record was at ${String(created.body.cid)}` },
    });
    // Without a swap a PDS would overwrite; the sandbox never does (and says so).
    expect(await a.put(rkey, post('three'))).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } });
    expect(await a.put(key(), post('four'), String(created.body.cid))).toEqual({
      status: 400,
      body: { error: 'InvalidSwap', message: 'Record was at null' },
    });
    const live = (await sandbox.allPosts(a.sandboxAccount.id)).filter((p) => !p.deletedAt);
    expect(live.map((p) => p.text)).toEqual(['one']);
  });

  it('I1 — twenty racing writes of two different records under one key: one record, the rest no-op or InvalidSwap', async () => {
    const a = await account();
    const rkey = key();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => a.put(rkey, post(i % 2 ? 'odd' : 'even'), null)),
    );
    const written = answers.filter((r) => r.status === 200 && r.body.commit);
    expect(written).toHaveLength(1);
    const winner = written[0]!.body.cid;
    for (const r of answers.filter((x) => x !== written[0]))
      expect(r.status === 200 ? r.body.cid === winner && !r.body.commit : r.body.error === 'InvalidSwap').toBe(true);
    expect((await sandbox.allPosts(a.sandboxAccount.id)).filter((p) => !p.deletedAt)).toHaveLength(1);
  });

  it('validation as the PDS does it: record key syntax, grapheme limit, datetime, another repo, unknown method', async () => {
    const a = await account();
    expect(await a.put('not-a-tid', post('x'), null)).toMatchObject({
      status: 400,
      body: { error: 'InvalidRequest', message: expect.stringContaining('Invalid record key') },
    });
    expect(await a.put(key(), post('é'.repeat(301)), null)).toMatchObject({
      status: 400,
      body: { message: 'Invalid app.bsky.feed.post record: grapheme too big (maximum 300, got 301) at $.record.text' },
    });
    expect((await a.put(key(), post('👋🏽'.repeat(300)), null)).status).toBe(200);
    expect(await a.put(key(), post('x', '2026-03-01 12:00'), null)).toMatchObject({ status: 400 });
    const image = { $type: 'blob', ref: { $link: 'bafkreib' }, mimeType: 'image/png', size: 10 };
    const withImages = (images: unknown[]) => ({
      ...post('pictures'),
      embed: { $type: 'app.bsky.embed.images', images },
    });
    expect((await a.put(key(), withImages([{ image, alt: 'a square' }]), null)).status).toBe(200);
    for (const images of [
      [],
      Array(5).fill({ image, alt: 'x' }),
      [{ image }],
      [{ image: { ...image, size: 1_000_001 }, alt: '' }],
    ])
      expect(await a.put(key(), withImages(images), null)).toMatchObject({
        status: 400,
        body: { error: 'InvalidRequest' },
      });
    const b = await account();
    const intoB = await xrpc('POST', 'com.atproto.repo.putRecord', {
      token: a.credentials.accessToken,
      body: {
        repo: b.platformUserId,
        collection: 'app.bsky.feed.post',
        rkey: key(),
        record: post('x'),
        swapRecord: null,
      },
    });
    expect(intoB).toEqual({
      status: 401,
      body: { error: 'AuthenticationRequired', message: 'Authentication Required' },
    });
    expect(await xrpc('POST', 'com.atproto.repo.createRecord', {})).toMatchObject({
      status: 501,
      body: { error: 'MethodNotImplemented' },
    });
    expect(await xrpc('GET', 'com.atproto.repo.putRecord')).toMatchObject({ status: 400 });
  });

  it('sessions: no token 401 AuthMissing, forged 400 InvalidToken, expired 400 ExpiredToken, refresh token 400 InvalidToken', async () => {
    const a = await account();
    expect(await xrpc('GET', 'com.atproto.server.getSession')).toEqual({
      status: 401,
      body: { error: 'AuthMissing', message: 'Authentication Required' },
    });
    const forged = issueSandboxSession(a.platformUserId, hashSandboxToken('sbx_guess')).accessJwt;
    expect(await xrpc('GET', 'com.atproto.server.getSession', { token: forged })).toMatchObject({
      status: 400,
      body: { error: 'InvalidToken' },
    });
    const old = issueSandboxSession(a.platformUserId, hashSandboxToken(a.token), new Date(Date.now() - 3 * 3_600_000));
    expect(await xrpc('GET', 'com.atproto.server.getSession', { token: old.accessJwt })).toEqual({
      status: 400,
      body: { error: 'ExpiredToken', message: 'Token has expired' },
    });
    // Reads a PDS serves without a session do not refuse an expired one (the sandbox only asks who reads).
    const rkey = key();
    await a.put(rkey, post('readable'), null);
    const read = await xrpc('GET', 'com.atproto.repo.getRecord', {
      token: old.accessJwt,
      query: { repo: a.platformUserId, collection: 'app.bsky.feed.post', rkey },
    });
    expect(read).toMatchObject({ status: 200, body: { value: { text: 'readable' } } });
    const write = await xrpc('POST', 'com.atproto.repo.putRecord', {
      token: old.accessJwt,
      body: {
        repo: a.platformUserId,
        collection: 'app.bsky.feed.post',
        rkey: key(),
        record: post('x'),
        swapRecord: null,
      },
    });
    expect(write).toMatchObject({ status: 400, body: { error: 'ExpiredToken' } });
    expect(await xrpc('GET', 'com.atproto.server.getSession', { token: a.credentials.refreshToken })).toMatchObject({
      status: 400,
      body: { error: 'InvalidToken' },
    });
    // …but the refresh token renews the session, and the app password opens a new one.
    const renewed = await xrpc('POST', 'com.atproto.server.refreshSession', { token: a.credentials.refreshToken });
    expect(renewed).toMatchObject({ status: 200, body: { did: a.platformUserId, accessJwt: expect.any(String) } });
    const opened = await xrpc('POST', 'com.atproto.server.createSession', {
      body: { identifier: a.platformUserId, password: a.token },
    });
    expect(opened).toMatchObject({ status: 200, body: { handle: a.sandboxAccount.handle.slice(1) } });
  });

  it('getRecord and listRecords: own records only, newest key first with a cursor; deleteRecord frees the key', async () => {
    const a = await account();
    const keys = Array.from({ length: 5 }, () => key()).sort();
    for (const k of keys) await a.put(k, post(`at ${k}`), null);
    const page = (cursor?: string) =>
      xrpc('GET', 'com.atproto.repo.listRecords', {
        token: a.credentials.accessToken,
        query: { repo: a.platformUserId, collection: 'app.bsky.feed.post', limit: '3', ...(cursor ? { cursor } : {}) },
      });
    const first = await page();
    expect((first.body.records as { uri: string }[]).map((r) => r.uri.split('/').pop())).toEqual(
      keys.slice(2).reverse(),
    );
    const second = await page(first.body.cursor as string);
    expect((second.body.records as { uri: string }[]).map((r) => r.uri.split('/').pop())).toEqual(
      keys.slice(0, 2).reverse(),
    );
    const get = (token: string, rkey: string) =>
      xrpc('GET', 'com.atproto.repo.getRecord', {
        token,
        query: { repo: a.platformUserId, collection: 'app.bsky.feed.post', rkey },
      });
    expect(await get(a.credentials.accessToken, keys[0]!)).toMatchObject({
      status: 200,
      body: { value: post(`at ${keys[0]}`) },
    });
    const other = await account();
    expect(await get(other.credentials.accessToken, keys[0]!)).toMatchObject({
      status: 400,
      body: { error: 'RecordNotFound' },
    });
    const del = () =>
      xrpc('POST', 'com.atproto.repo.deleteRecord', {
        token: a.credentials.accessToken,
        body: { repo: a.platformUserId, collection: 'app.bsky.feed.post', rkey: keys[0] },
      });
    expect(await del()).toMatchObject({ status: 200, body: { commit: expect.any(Object) } });
    expect(await del()).toEqual({ status: 200, body: {} });
    expect(await get(a.credentials.accessToken, keys[0]!)).toMatchObject({ body: { error: 'RecordNotFound' } });
    // As on a PDS, a deleted record's key is free again.
    expect(await a.put(keys[0]!, post('again'), null)).toMatchObject({
      status: 200,
      body: { commit: expect.any(Object) },
    });
  });

  it('resolveHandle, uploadBlob, and every write fault applies (429 with RateLimit-Reset)', async () => {
    const a = await account();
    const handle = a.sandboxAccount.handle.slice(1);
    expect(
      await xrpc('GET', 'com.atproto.identity.resolveHandle', { query: { handle: handle.toUpperCase() } }),
    ).toEqual({ status: 200, body: { did: a.platformUserId } });
    expect(
      await xrpc('GET', 'com.atproto.identity.resolveHandle', { query: { handle: 'nobody.bsky.sandbox' } }),
    ).toMatchObject({ status: 400, body: { error: 'HandleNotFound' } });
    const blob = await fetch(`${sandbox.url}/api/sandbox/bluesky/xrpc/com.atproto.repo.uploadBlob`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.credentials.accessToken}`, 'content-type': 'image/png' },
      body: new Uint8Array([137, 80, 78, 71]),
    });
    expect(await blob.json()).toMatchObject({ blob: { $type: 'blob', mimeType: 'image/png', size: 4 } });
    await sandbox.setFaults(a.sandboxAccount.id, { rateLimited: 1 });
    const limited = await fetch(`${sandbox.url}/api/sandbox/bluesky/xrpc/com.atproto.repo.putRecord`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.credentials.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        repo: a.platformUserId,
        collection: 'app.bsky.feed.post',
        rkey: key(),
        record: post('x'),
      }),
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(await limited.json()).toEqual({ error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' });
    expect((await sandbox.allPosts(a.sandboxAccount.id)).length).toBe(0);
  });
});

describe('Bluesky sandbox accounts', async () => {
  it('have the bluesky profile only (a PDS answers an occupied key one way)', () => {
    expect(resolveProfile('bluesky', undefined)).toBe('bluesky');
    expect(profileFits('plain', 'bluesky')).toBe(false);
    expect(profileFits('bluesky', 'x')).toBe(false);
  });

  const sandbox = await startTestSandbox();
  const { db } = sandbox;

  it('one click: a DID, a handle, a session opened with the sandbox token as app password, sealed', async () => {
    const workspace = await makeWorkspace(db);
    const account = await connectSandboxAccount(db, {
      workspaceId: workspace.id,
      provider: 'bluesky',
      encryptionKey: TEST_ENCRYPTION_KEY,
    });
    expect(account).toMatchObject({ provider: 'bluesky', baseUrl: '/api/sandbox/bluesky' });
    expect(account.platformUserId).toMatch(/^did:plc:[a-z2-7]{24}$/);
    expect(account.handle).toMatch(/^@sandbox-[a-z2-7]{4}\.bsky\.sandbox$/);
    const { id } = account;
    const stored = await db.query.socialAccounts.findFirst({ where: (t, { eq }) => eq(t.id, id) });
    const credentials = openCredentials(stored!.credentialsEncrypted, TEST_ENCRYPTION_KEY, id);
    expect(credentials).toMatchObject({
      identifier: account.handle.slice(1),
      appPassword: expect.stringMatching(/^sbx_/),
    });
    const me = await fetch(`${sandbox.url}/api/sandbox/bluesky/xrpc/com.atproto.server.getSession`, {
      headers: { authorization: `Bearer ${credentials.accessToken}` },
    });
    expect(await me.json()).toMatchObject({ did: account.platformUserId });
  });

  it('an account seeded before the sandbox knew it is registered by its app password on first sign-in', async () => {
    const workspace = await makeWorkspace(db);
    const identity = newSandboxIdentity('bluesky');
    const handle = `@seeded-${identity.suffix}.bsky.sandbox`;
    await upsertAccount(db, {
      workspaceId: workspace.id,
      provider: 'bluesky',
      sandbox: true,
      handle,
      platformUserId: identity.platformUserId,
      baseUrl: '/api/sandbox/bluesky',
      ...sealCredentials(sandboxCredentials('bluesky', { ...identity, handle }), TEST_ENCRYPTION_KEY),
    });
    expect(
      await getSandboxAccountByUserId(db, { platform: 'bluesky', platformUserId: identity.platformUserId }),
    ).toBeNull();
    const res = await fetch(`${sandbox.url}/api/sandbox/bluesky/xrpc/com.atproto.server.createSession`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: handle, password: identity.token }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ did: identity.platformUserId });
  });
});
