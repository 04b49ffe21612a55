import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, deliveryEvents, idempotencyKeys, socialAccounts } from '@/db/schema';
import { apiRequest, createApiFixture, idParams, makeScopedApiKey, noParams } from '@/testing/api-fixture';
import { makeDelivery, makePost } from '@/testing/db/factories';
import { openCredentials } from '@/lib/providers/credentials';
import { startTestSandbox } from '@/testing/sandbox';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { registerSandboxIdentity } from '@/lib/sandbox/register-identity';

// As the e2e server: `localhost` allowed by name; a literal internal address (127.0.0.1) is refused by the guard.
process.env.OUTBOUND_ALLOWED_HOSTS = 'localhost';
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
const fixture = await createApiFixture();
const sandbox = await startTestSandbox();
const { GET, POST } = await import('./route');
const { DELETE } = await import('./[id]/route');

/**
 * A Mastodon-API server on 127.0.0.1 whose instance calls itself `social.example`: typed as
 * http://localhost:<port>, as behind a proxy, so a handle taken from the URL typed would be wrong.
 */
type Seen = { path: string; authorization?: string };
async function startMastodonWire(options: {
  token: string;
  v1?: boolean;
  domain?: string | null;
  delayMs?: number;
  /** The whole /api/v1/instance answer (another server's shape). */
  instance?: Record<string, unknown>;
}) {
  const seen: Seen[] = [];
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer(async (req: IncomingMessage, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    if (req.url === '/api/v1/accounts/verify_credentials') {
      if (req.headers.authorization !== `Bearer ${options.token}`)
        return answer(res, 401, { error: 'The access token is invalid' });
      return answer(res, 200, {
        id: '109',
        username: 'alice',
        acct: 'alice',
        display_name: 'Alice',
        url: 'https://social.example/@alice',
      });
    }
    const domain = options.domain === undefined ? 'social.example' : options.domain;
    if (req.url === '/api/v1/instance' && options.instance) return answer(res, 200, options.instance);
    if (req.url === '/api/v1/instance' && options.v1 !== false)
      return answer(res, 200, domain ? { uri: domain, title: 'Social', version: '4.3.0' } : { title: 'Social' });
    if (req.url === '/api/v2/instance') return answer(res, 200, { domain, title: 'Social', version: '4.3.0' });
    return answer(res, 404, { error: 'Record not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port, seen, typed: `http://localhost:${port}`, literal: `http://127.0.0.1:${port}` };
}

const sandboxPort = new URL(sandbox.url).port;
const sandboxUrl = (platform: string) => `http://localhost:${sandboxPort}/api/sandbox/${platform}`;

let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let other: Awaited<ReturnType<typeof fixture.tenant>>;
let writer: string;
beforeAll(async () => {
  tenant = await fixture.tenant();
  other = await fixture.tenant();
  writer = await makeScopedApiKey(fixture.db, tenant.workspace.id, ['accounts:write', 'accounts:read']);
});

const connect = (body: unknown, key: string | undefined = randomUUID(), token = writer) =>
  POST(apiRequest('/api/v1/accounts', { method: 'POST', token, key, body }), noParams);
const disconnect = (id: string, token = writer) =>
  DELETE(apiRequest(`/api/v1/accounts/${id}`, { method: 'DELETE', token }), idParams(id));
const rowsOf = (workspaceId: string, provider: 'mastodon' | 'bluesky' | 'x') =>
  fixture.db
    .select()
    .from(socialAccounts)
    .where(
      and(
        eq(socialAccounts.workspaceId, workspaceId),
        eq(socialAccounts.provider, provider),
        eq(socialAccounts.sandbox, false), // the fixture's own accounts are sandbox ones
      ),
    );

describe('POST /api/v1/accounts', () => {
  it('needs the accounts:write scope (403 naming it); nothing is checked or written', async () => {
    const wire = await startMastodonWire({ token: 'mastodon-token-1' });
    const refused = await connect(
      { provider: 'mastodon', instanceUrl: wire.typed, accessToken: 'mastodon-token-1' },
      undefined,
      tenant.token,
    );
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ missingScope: 'accounts:write' });
    expect(wire.seen).toEqual([]);
    expect(await rowsOf(tenant.workspace.id, 'mastodon')).toEqual([]);
  });

  it("a Mastodon handle and link come from the instance's own answer, never from the URL typed", async () => {
    const wire = await startMastodonWire({ token: 'mastodon-token-2' });
    const response = await connect({
      provider: 'mastodon',
      instanceUrl: `${wire.typed}/`,
      accessToken: 'mastodon-token-2',
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({
      id: expect.any(String),
      provider: 'mastodon',
      sandbox: false,
      handle: '@alice@social.example',
      displayName: 'Alice',
      url: 'https://social.example/@alice',
      status: 'connected',
    });
    expect(response.headers.get('location')).toBe(`/api/v1/accounts/${body.id}`);
    expect(wire.seen.map((s) => s.path)).toEqual(['/api/v1/accounts/verify_credentials', '/api/v1/instance']);
    const [row] = await rowsOf(tenant.workspace.id, 'mastodon');
    expect(row).toMatchObject({ id: body.id, baseUrl: wire.typed, platformUserId: '109', profileUrl: body.url });
    // Sealed at rest, bound to the row: the token is in no column in the clear, and never in the answer.
    expect(row!.credentialsEncrypted).not.toContain('mastodon-token-2');
    expect(openCredentials(row!.credentialsEncrypted, TEST_ENCRYPTION_KEY, row!.id).accessToken).toBe(
      'mastodon-token-2',
    );
    expect(JSON.stringify(body)).not.toContain('mastodon-token-2');
    const listed = await (await GET(apiRequest('/api/v1/accounts', { token: writer }), noParams)).json();
    expect(listed.data).toContainEqual(body);
  });

  it('a server without /api/v1/instance is asked /api/v2/instance; one naming no domain fails the check', async () => {
    const v2 = await startMastodonWire({ token: 'mastodon-token-3', v1: false, domain: 'v2.example' });
    const ok = await connect({ provider: 'mastodon', instanceUrl: v2.typed, accessToken: 'mastodon-token-3' });
    expect(ok.status).toBe(201);
    expect((await ok.json()).handle).toBe('@alice@v2.example');

    // GoToSocial's shape: `uri` is a URL, and handles live on `account_domain`, not on the web host.
    const split = await startMastodonWire({
      token: 'mastodon-token-3b',
      instance: { uri: 'https://gts.social.example', account_domain: 'social.example', version: '0.17.0' },
    });
    const gts = await connect({ provider: 'mastodon', instanceUrl: split.typed, accessToken: 'mastodon-token-3b' });
    expect((await gts.json()).handle).toBe('@alice@social.example');
    const urlOnly = await startMastodonWire({
      token: 'mastodon-token-3c',
      instance: { uri: 'https://Pleroma.Example/' },
    });
    const pleroma = await connect({
      provider: 'mastodon',
      instanceUrl: urlOnly.typed,
      accessToken: 'mastodon-token-3c',
    });
    expect((await pleroma.json()).handle).toBe('@alice@pleroma.example');

    const nameless = await startMastodonWire({ token: 'mastodon-token-4', domain: null });
    const refused = await connect({
      provider: 'mastodon',
      instanceUrl: nameless.typed,
      accessToken: 'mastodon-token-4',
    });
    expect(refused.status).toBe(422);
    expect((await refused.json()).detail).toMatch(/does not say which domain/);
  });

  it('I3 — the same key replays the stored answer without a second check; another body with it is 422', async () => {
    const wire = await startMastodonWire({ token: 'mastodon-token-5' });
    const key = randomUUID();
    const body = { provider: 'mastodon', instanceUrl: wire.typed, accessToken: 'mastodon-token-5' };
    const first = await connect(body, key);
    const firstText = await first.text();
    expect(first.status).toBe(201);
    const calls = wire.seen.length;
    const replay = await connect(body, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(firstText);
    expect(wire.seen.length).toBe(calls);

    const reused = await connect({ ...body, accessToken: 'mastodon-token-other' }, key);
    expect(reused.status).toBe(422);
    expect((await reused.json()).title).toBe('Idempotency-Key reused');
    expect(wire.seen.length).toBe(calls);
    // Connecting the same platform account again (a new key) is the same one row, reconnected.
    const again = await connect(body);
    expect(again.status).toBe(201);
    expect((await again.json()).id).toBe(JSON.parse(firstText).id);
    const rows = (await rowsOf(tenant.workspace.id, 'mastodon')).filter((r) => r.baseUrl === wire.typed);
    expect(rows).toHaveLength(1);
  });

  it('I3 — ten parallel requests with one key: one connection check, one row, the others 409 or the replay', async () => {
    const wire = await startMastodonWire({ token: 'mastodon-token-6', delayMs: 300 });
    const key = randomUUID();
    const body = { provider: 'mastodon', instanceUrl: wire.typed, accessToken: 'mastodon-token-6' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => connect(body, key)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(answers.filter((a) => a.status === 201 && !a.headers.get('idempotent-replayed'))).toHaveLength(1);
    expect(wire.seen.filter((s) => s.path === '/api/v1/accounts/verify_credentials')).toHaveLength(1);
    expect((await rowsOf(tenant.workspace.id, 'mastodon')).filter((r) => r.baseUrl === wire.typed)).toHaveLength(1);
  });

  it('a wrong token fails the connection check: 422, nothing written, and the key stays free for the fix', async () => {
    const wire = await startMastodonWire({ token: 'mastodon-token-7' });
    const key = randomUUID();
    const wrong = await connect({ provider: 'mastodon', instanceUrl: wire.typed, accessToken: 'not-the-token' }, key);
    expect(wrong.status).toBe(422);
    expect(wrong.headers.get('content-type')).toBe('application/problem+json');
    const problem = await wrong.json();
    expect(problem.detail).toMatch(/rejected the access token \(401\)/);
    expect(JSON.stringify(problem)).not.toContain('not-the-token');
    expect((await rowsOf(tenant.workspace.id, 'mastodon')).filter((r) => r.baseUrl === wire.typed)).toEqual([]);
    const stored = await fixture.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(stored).toEqual([]);
    const fixed = await connect(
      { provider: 'mastodon', instanceUrl: wire.typed, accessToken: 'mastodon-token-7' },
      key,
    );
    expect(fixed.status).toBe(201);
  });

  it('an internal address is refused by the outbound guard: 422, nothing sent, nothing written', async () => {
    const wire = await startMastodonWire({ token: 'mastodon-token-8' });
    for (const instanceUrl of [wire.literal, 'http://169.254.169.254', 'http://[::1]:9']) {
      const refused = await connect({ provider: 'mastodon', instanceUrl, accessToken: 'mastodon-token-8' });
      expect(refused.status, instanceUrl).toBe(422);
      expect((await refused.json()).detail).toMatch(/private or internal network/);
    }
    expect(wire.seen).toEqual([]);
    expect((await rowsOf(tenant.workspace.id, 'mastodon')).filter((r) => r.baseUrl === wire.literal)).toEqual([]);
  });

  it('bad input is 400/422 problem+json naming the field, before any check; nothing written', async () => {
    const cases: [unknown, string][] = [
      [{ instanceUrl: 'https://mastodon.example', accessToken: 'x'.repeat(20) }, 'provider'],
      [{ provider: 'linkedin', accessToken: 'x'.repeat(20) }, 'provider'],
      [{ provider: 'mastodon', instanceUrl: 'ftp://mastodon.example', accessToken: 'x'.repeat(20) }, 'instanceUrl'],
      [{ provider: 'mastodon', instanceUrl: 'https://mastodon.example', accessToken: 'short' }, 'accessToken'],
      [{ provider: 'mastodon', instanceUrl: 'https://mastodon.example', accessToken: 'x'.repeat(20), token: 'y' }, '_'],
      [
        { provider: 'bluesky', serviceUrl: 'https://bsky.social', identifier: 'a b', appPassword: 'abcd-efgh-ijkl' },
        'identifier',
      ],
      [{ provider: 'x', accessToken: 'x'.repeat(20), platformUserId: 'alice' }, 'platformUserId'],
    ];
    for (const [body, field] of cases) {
      const response = await connect(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((await response.json()).errors), JSON.stringify(body)).toEqual([field]);
    }
    const noKey = await POST(
      apiRequest('/api/v1/accounts', {
        method: 'POST',
        token: writer,
        body: { provider: 'x', accessToken: 'x'.repeat(20) },
      }),
      noParams,
    );
    expect(noKey.status).toBe(400);
    expect(await rowsOf(tenant.workspace.id, 'x')).toEqual([]);
  });

  it('connects Mastodon, Bluesky and X accounts of the sandbox, each as the network names it', async () => {
    const m = await registerSandboxIdentity(sandbox.store, 'mastodon', 'api');
    const mastodon = await connect({ provider: 'mastodon', instanceUrl: sandboxUrl('mastodon'), accessToken: m.token });
    expect(mastodon.status).toBe(201);
    expect(await mastodon.json()).toMatchObject({
      provider: 'mastodon',
      handle: `${m.handle}@sandbox.social`,
      url: `${sandboxUrl('mastodon')}/${m.handle}`,
    });

    const b = await registerSandboxIdentity(sandbox.store, 'bluesky', 'api');
    const bluesky = await connect({
      provider: 'bluesky',
      serviceUrl: sandboxUrl('bluesky'),
      identifier: b.handle,
      appPassword: b.token,
    });
    expect(bluesky.status).toBe(201);
    expect(await bluesky.json()).toMatchObject({ provider: 'bluesky', handle: b.handle, status: 'connected' });
    const [blueskyRow] = await rowsOf(tenant.workspace.id, 'bluesky');
    expect(blueskyRow!.platformUserId).toBe(b.platformUserId);
    expect(blueskyRow!.credentialsEncrypted).not.toContain(b.token);

    const x = await registerSandboxIdentity(sandbox.store, 'x', 'api');
    const wrongUser = await connect({
      provider: 'x',
      baseUrl: sandboxUrl('x'),
      accessToken: x.token,
      platformUserId: '1',
    });
    expect(wrongUser.status).toBe(422);
    const xAccount = await connect({ provider: 'x', baseUrl: sandboxUrl('x'), accessToken: x.token });
    expect(xAccount.status).toBe(201);
    expect(await xAccount.json()).toMatchObject({ provider: 'x', handle: x.handle, status: 'connected' });
    const [xRow] = await rowsOf(tenant.workspace.id, 'x');
    expect(xRow).toMatchObject({ platformUserId: x.platformUserId, baseUrl: sandboxUrl('x') });
  });
});

describe('DELETE /api/v1/accounts/{id}', () => {
  it("holds the account's scheduled deliveries in review and wipes its token; again → 404", async () => {
    const wire = await startMastodonWire({ token: 'mastodon-token-9' });
    const connected = await connect({ provider: 'mastodon', instanceUrl: wire.typed, accessToken: 'mastodon-token-9' });
    const { id } = await connected.json();
    const post = await makePost(fixture.db, tenant.workspace.id);
    const delivery = await makeDelivery(fixture.db, {
      workspaceId: tenant.workspace.id,
      postId: post.id,
      accountId: id,
    });

    const forbidden = await disconnect(id, tenant.token);
    expect(forbidden.status).toBe(403);
    const stranger = await disconnect(id, await makeScopedApiKey(fixture.db, other.workspace.id, ['accounts:write']));
    expect(stranger.status).toBe(404);
    const [untouched] = await fixture.db.select().from(socialAccounts).where(eq(socialAccounts.id, id));
    expect(untouched!.disconnectedAt).toBeNull();

    const response = await disconnect(id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id, status: 'disconnected', heldDeliveries: 1 });
    const [held] = await fixture.db.select().from(deliveries).where(eq(deliveries.id, delivery.id));
    expect(held!.status).toBe('needs_review');
    const events = await fixture.db.select().from(deliveryEvents).where(eq(deliveryEvents.deliveryId, delivery.id));
    expect(events.at(-1)).toMatchObject({ toStatus: 'needs_review', actor: expect.stringMatching(/^api_key:/) });
    const [row] = await fixture.db.select().from(socialAccounts).where(eq(socialAccounts.id, id));
    expect(row!.credentialsEncrypted).toBe('');
    expect(row!.disconnectedAt).not.toBeNull();

    expect((await disconnect(id)).status).toBe(404);
    expect((await disconnect('not-a-uuid')).status).toBe(404);
    // Connecting it again reconnects the same row.
    const again = await connect({ provider: 'mastodon', instanceUrl: wire.typed, accessToken: 'mastodon-token-9' });
    expect(await again.json()).toMatchObject({ id, status: 'connected' });
  });
});
