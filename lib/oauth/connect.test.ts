import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { socialAccounts } from '@/db/schema';
import { providerClientForAccount, providerDefinition } from '@/lib/providers';
import { openCredentials } from '@/lib/providers/credentials';
import type { HttpRequest } from '@/lib/net/send';
import { sendOnce } from '@/lib/net/send';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { oauthEndpoints } from './endpoints';
import { codeChallengeOf, newCodeVerifier } from './pkce';
import { startOAuthSandbox } from '@/testing/oauth';
import { requestTokens } from './token-request';

const sandbox = await startOAuthSandbox();
const { db } = sandbox;

async function storedAccount(id: string) {
  const [row] = await db.select().from(socialAccounts).where(eq(socialAccounts.id, id));
  return row!;
}

describe('OAuth connect through the sandbox (authorization code with PKCE)', () => {
  it('consent page → code → token exchange → identity read with the new token → account connected, sealed', async () => {
    const admin = await sandbox.admin();
    const { authorizeUrl, page, html, callback } = await sandbox.consent({ provider: 'x', ...admin });
    expect(authorizeUrl.pathname).toBe('/api/sandbox/x/oauth/authorize');
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'semel-sandbox',
      redirect_uri: `${sandbox.url}/api/oauth/x/callback`,
      code_challenge_method: 'S256',
      scope: 'tweet.read tweet.write users.read dm.write offline.access',
    });
    expect(page.status).toBe(200);
    expect(html).toContain('Authorize Semel');
    expect(html).toContain('Deny');
    expect(callback.get('state')).toBe(authorizeUrl.searchParams.get('state'));
    expect(callback.get('code')).toMatch(/^sbx_code_/);

    const result = await sandbox.complete({ provider: 'x', ...admin }, callback);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.accounts).toHaveLength(1);
    const row = await storedAccount(result.accounts[0]!.id);
    expect(row).toMatchObject({ provider: 'x', sandbox: true, baseUrl: '/api/sandbox/x', tokenStatus: 'ok' });
    const credentials = openCredentials(row.credentialsEncrypted, TEST_ENCRYPTION_KEY, row.id);
    expect(credentials.accessToken).toMatch(/^sbx_oat_/);
    expect(credentials.refreshToken).toMatch(/^sbx_ort_/);
    expect(row.tokenExpiresAt!.toISOString()).toBe(credentials.expiresAt);
    expect(row.tokenExpiresAt!.getTime() - Date.now()).toBeGreaterThan(7100_000); // X: two hours
    expect(row.credentialsEncrypted).not.toContain(credentials.accessToken);

    // The X dialect takes the OAuth token: the account publishes.
    const client = providerClientForAccount(row, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url });
    expect(await client.publish({ text: 'via oauth', kind: 'post', idempotencyKey: 'k1' })).toMatchObject({
      outcome: 'sent',
    });
  });

  it('LinkedIn: a new sandbox user is a member administering a page; both are connected and each one publishes', async () => {
    const admin = await sandbox.admin();
    const accounts = await sandbox.connect({ provider: 'linkedin', ...admin });
    const rows = await Promise.all(accounts.map((a) => storedAccount(a.id)));
    expect(rows.map((r) => r.platformUserId)).toEqual([
      expect.stringMatching(/^urn:li:person:sbx\d{18}$/),
      expect.stringMatching(/^urn:li:organization:\d{18}$/),
    ]);
    expect(rows[1]!.platformUserId.slice(-18)).toBe(rows[0]!.platformUserId.slice(-18));
    expect(rows.map((r) => r.handle)).toEqual([
      expect.stringMatching(/^Sandbox Admin \d{4}$/),
      expect.stringMatching(/^Sandbox Company \d{4}$/),
    ]);
    for (const row of rows) {
      const client = providerClientForAccount(row, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url });
      expect(await client.publish({ text: `as ${row.handle}`, kind: 'post', idempotencyKey: row.id })).toMatchObject({
        outcome: 'sent',
        externalId: expect.stringMatching(/^urn:li:share:\d+$/),
      });
    }
  });

  it('reconnecting the same sandbox user updates the existing account (new token, status ok)', async () => {
    const admin = await sandbox.admin();
    const [first] = await sandbox.connect({ provider: 'x', ...admin });
    const before = await storedAccount(first!.id);
    await db
      .update(socialAccounts)
      .set({ tokenStatus: 'rejected', tokenProblem: 'test' })
      .where(eq(socialAccounts.id, first!.id));
    const sandboxUser = await sandbox.store.getAccount('x', before.platformUserId);
    const [again] = await sandbox.connect({ provider: 'x', ...admin, account: sandboxUser!.id });
    expect(again!.id).toBe(first!.id);
    const after = await storedAccount(first!.id);
    expect(after).toMatchObject({ tokenStatus: 'ok', tokenProblem: null });
    expect(after.credentialsEncrypted).not.toBe(before.credentialsEncrypted);
  });

  it('the consent page offers only the sandbox users of the admin’s own workspaces: another’s is refused', async () => {
    const owner = await sandbox.admin();
    const [theirs] = await sandbox.connect({ provider: 'x', ...owner });
    const row = await storedAccount(theirs!.id);
    const theirUser = await sandbox.store.getAccount('x', row.platformUserId);
    const intruder = await sandbox.admin();
    const { html, answer } = await sandbox.consent({ provider: 'x', ...intruder, account: theirUser!.id });
    expect(html).not.toContain(theirUser!.id);
    expect(answer.status).toBe(403);
    expect(answer.headers.get('location')).toBeNull();
  });

  it('“Deny” on the consent page connects nothing', async () => {
    const admin = await sandbox.admin();
    const { callback } = await sandbox.consent({ provider: 'x', ...admin, decision: 'deny' });
    expect(callback.get('error')).toBe('access_denied');
    expect(await sandbox.complete({ provider: 'x', ...admin }, callback)).toEqual({ ok: false, problem: 'denied' });
    expect(await db.select().from(socialAccounts).where(eq(socialAccounts.workspaceId, admin.workspaceId))).toEqual([]);
  });

  it('the callback’s state is this admin’s: another admin (or workspace) with the same code gets nothing', async () => {
    const admin = await sandbox.admin();
    const { callback } = await sandbox.consent({ provider: 'x', ...admin });
    const intruder = await sandbox.admin();
    expect(await sandbox.complete({ provider: 'x', ...intruder }, callback)).toEqual({
      ok: false,
      problem: 'other_user',
    });
    expect(await sandbox.complete({ provider: 'x', ...admin, workspaceId: intruder.workspaceId }, callback)).toEqual({
      ok: false,
      problem: 'other_workspace',
    });
    expect((await sandbox.complete({ provider: 'x', ...admin }, callback)).ok).toBe(true);
    expect(await sandbox.complete({ provider: 'x', ...admin }, callback)).toEqual({ ok: false, problem: 'state_used' });
  });

  it('the token endpoint is never more forgiving: wrong verifier, wrong redirect URI, a code used twice', async () => {
    const admin = await sandbox.admin();
    const tokenUrl = `${sandbox.url}/api/sandbox/x/oauth/token`;
    const exchange = (code: string, form: Record<string, string>) =>
      requestTokens({
        tokenUrl,
        client: { clientId: 'semel-sandbox' },
        outbound: { trustedOrigin: sandbox.url },
        form: { grant_type: 'authorization_code', code, redirect_uri: `${sandbox.url}/api/oauth/x/callback`, ...form },
      });
    const verifier = 'v'.repeat(43);

    const wrongVerifier = await sandbox.consent({ provider: 'x', ...admin });
    const refused = await exchange(wrongVerifier.callback.get('code')!, { code_verifier: verifier });
    expect(refused).toMatchObject({ ok: false, rejected: true, httpStatus: 400 });

    // The code is single use: a second exchange fails and what the first one got is revoked (RFC 6749 §4.1.2).
    const twice = await sandbox.consent({ provider: 'x', ...admin });
    const first = await sandbox.complete({ provider: 'x', ...admin }, twice.callback);
    expect(first.ok).toBe(true);
    const replay = await exchange(twice.callback.get('code')!, { code_verifier: verifier });
    expect(replay).toMatchObject({ ok: false, rejected: true });
    const row = await storedAccount(first.ok ? first.accounts[0]!.id : '');
    const client = providerClientForAccount(row, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url });
    expect(await client.whoAmI()).toMatchObject({ ok: false, httpStatus: 401 });

    const wrongRedirect = await sandbox.consent({ provider: 'x', ...admin });
    const other = await exchange(wrongRedirect.callback.get('code')!, {
      code_verifier: verifier,
      redirect_uri: `${sandbox.url}/elsewhere`,
    });
    expect(other).toMatchObject({ ok: false, rejected: true });
  });

  it('the authorize endpoint refuses an unregistered redirect URI (shown, never redirected) and a missing PKCE challenge', async () => {
    const base = `${sandbox.url}/api/sandbox/x/oauth/authorize`;
    const query = {
      response_type: 'code',
      client_id: 'semel-sandbox',
      redirect_uri: `${sandbox.url}/api/oauth/x/callback`,
      scope: 'tweet.read',
      state: 's',
    };
    const evil = await fetch(`${base}?${new URLSearchParams({ ...query, redirect_uri: 'https://evil.example/cb' })}`, {
      redirect: 'manual',
    });
    expect(evil.status).toBe(400);
    expect(evil.headers.get('location')).toBeNull();
    const noPkce = await fetch(`${base}?${new URLSearchParams(query)}`, { redirect: 'manual' });
    expect(noPkce.status).toBe(302);
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('tokens for a LinkedIn or Threads sandbox user authenticate on that network only (its dialect’s store lookup)', async () => {
    for (const provider of ['linkedin', 'threads'] as const) {
      const verifier = newCodeVerifier();
      const redirectUri = `${sandbox.url}/api/oauth/${provider}/callback`;
      const authorize = `${sandbox.url}/api/sandbox/${provider}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: 'semel-sandbox',
        redirect_uri: redirectUri,
        scope: 'w_member_social',
        state: 'st',
        code_challenge: codeChallengeOf(verifier),
        code_challenge_method: 'S256',
      })}`;
      const answer = await fetch(authorize, {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams({ decision: 'authorize', account: 'new' }),
      });
      const code = new URL(answer.headers.get('location')!).searchParams.get('code')!;
      const tokens = await requestTokens({
        tokenUrl: `${sandbox.url}/api/sandbox/${provider}/oauth/token`,
        client: { clientId: 'semel-sandbox' },
        outbound: { trustedOrigin: sandbox.url },
        form: { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier },
      });
      if (!tokens.ok) throw new Error(tokens.reason);
      expect(tokens.credentials.refreshToken).toBeTruthy();
      const account = await sandbox.store.authenticate(provider, tokens.credentials.accessToken);
      expect(account).toMatchObject({ platform: provider });
      expect(await sandbox.store.authenticate('x', tokens.credentials.accessToken)).toBeNull();
    }
  });
});

describe('Threads: the code gives a one-hour token, swapped for a 60-day one before anything is stored', () => {
  it('the stored token is the long-lived one (th_exchange_token), it publishes, and the refresh renews it', async () => {
    const admin = await sandbox.admin();
    const [connected] = await sandbox.connect({ provider: 'threads', ...admin });
    const row = await storedAccount(connected!.id);
    const credentials = openCredentials(row.credentialsEncrypted, TEST_ENCRYPTION_KEY, row.id);
    // Long-lived: about 60 days, not the code exchange's short token.
    expect(row.tokenExpiresAt!.getTime() - Date.now()).toBeGreaterThan(59 * 86_400_000);
    expect(credentials.accessToken).not.toMatch(/^sbx_oat_/);
    const client = providerClientForAccount(row, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url });
    expect(await client.publish({ text: 'long-lived', kind: 'post', idempotencyKey: 'k-threads' })).toMatchObject({
      outcome: 'sent',
    });
    const { resolvedAccountFor } = await import('@/lib/providers');
    const renewed = await providerDefinition('threads').refresh!(
      resolvedAccountFor(row, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url }),
    );
    expect(renewed).toMatchObject({ ok: true });
    if (renewed.ok) expect(renewed.credentials.accessToken).not.toBe(credentials.accessToken);
  });
});

describe('TikTok: the client is named client_key, its secret in the form body', () => {
  it('the sandbox connect sends client_key, stores the token, and the account reads its creator and refreshes', async () => {
    const admin = await sandbox.admin();
    const { authorizeUrl, callback } = await sandbox.consent({ provider: 'tiktok', ...admin });
    expect(authorizeUrl.searchParams.get('client_key')).toBe('semel-sandbox');
    expect(authorizeUrl.searchParams.has('client_id')).toBe(false);
    expect(authorizeUrl.searchParams.get('scope')).toBe(
      'user.info.basic user.info.stats video.publish video.upload video.list',
    );
    const result = await sandbox.complete({ provider: 'tiktok', ...admin }, callback);
    if (!result.ok) throw new Error(result.problem);
    const row = await storedAccount(result.accounts[0]!.id);
    expect(row).toMatchObject({ provider: 'tiktok', sandbox: true, baseUrl: '/api/sandbox/tiktok', tokenStatus: 'ok' });
    const client = providerClientForAccount(row, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url });
    expect(await client.whoAmI()).toMatchObject({ ok: true, id: row.platformUserId });
    const { resolvedAccountFor } = await import('@/lib/providers');
    const renewed = await providerDefinition('tiktok').refresh!(
      resolvedAccountFor(row, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url }),
    );
    expect(renewed).toMatchObject({ ok: true });
  });

  it('a real TikTok token request: client_key and client_secret in the form, no HTTP Basic', async () => {
    const seen: HttpRequest[] = [];
    await requestTokens({
      tokenUrl: 'https://open.tiktokapis.com/v2/oauth/token/',
      client: { clientId: 'key-1', clientSecret: 's3cret' },
      clientParams: providerDefinition('tiktok').oauth!.clientParams,
      form: { grant_type: 'refresh_token', refresh_token: 'rt-1' },
      send: async (request) => {
        seen.push(request);
        return { type: 'response', status: 400, headers: {}, body: { error: 'invalid_grant' }, bodyText: '' };
      },
    });
    expect(seen[0]!.headers!.authorization).toBeUndefined();
    expect(seen[0]!.form).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'rt-1',
      client_key: 'key-1',
      client_secret: 's3cret',
    });
  });
});

describe('the token request itself', () => {
  it('a confidential client sends its secret in HTTP Basic, the form fields, and never echoes a secret', async () => {
    const seen: HttpRequest[] = [];
    const result = await requestTokens({
      tokenUrl: 'https://api.x.com/2/oauth2/token',
      client: { clientId: 'client-1', clientSecret: 's3cret' },
      form: { grant_type: 'refresh_token', refresh_token: 'rt-1' },
      send: async (request) => {
        seen.push(request);
        return { type: 'response', status: 400, headers: {}, body: { error: 'invalid_request' }, bodyText: '' };
      },
    });
    expect(seen[0]!.headers!.authorization).toBe(`Basic ${Buffer.from('client-1:s3cret').toString('base64')}`);
    expect(seen[0]!.form).toEqual({ grant_type: 'refresh_token', refresh_token: 'rt-1', client_id: 'client-1' });
    expect(result).toEqual({
      ok: false,
      rejected: true,
      httpStatus: 400,
      reason: 'The platform refused the grant (invalid_request).',
    });
    expect(JSON.stringify(result)).not.toContain('s3cret');
  });

  it('goes through the outbound guard: a token URL on a private address is never called', async () => {
    const endpoints = oauthEndpoints(
      {
        sandboxPath: '/api/sandbox/x',
        oauth: {
          authorizeUrl: 'https://example.test/authorize',
          tokenUrl: 'http://169.254.169.254/token',
          scopes: ['a'],
          clientIdEnv: 'X_CLIENT_ID',
          clientSecretEnv: 'X_CLIENT_SECRET',
          apiBaseUrl: 'https://example.test',
        },
      },
      {
        sandbox: false,
        browserOrigin: 'http://app.test',
        serverOrigin: 'http://127.0.0.1:1',
        env: { sandboxEnabled: true, X_CLIENT_ID: 'id' } as never,
      },
    );
    if ('problem' in endpoints) throw new Error(endpoints.problem);
    const result = await requestTokens({
      tokenUrl: endpoints.tokenUrl,
      client: endpoints.client,
      outbound: endpoints.tokenOutbound,
      form: { grant_type: 'authorization_code', code: 'c' },
      send: sendOnce,
    });
    expect(result).toMatchObject({ ok: false, rejected: false });
    expect(!result.ok && result.reason).toContain('OUTBOUND_REFUSED');
  });

  it('a network whose client id is blank has no real OAuth (the sandbox flow still works)', async () => {
    const definition = providerDefinition('x');
    const env = { sandboxEnabled: true } as never;
    expect(oauthEndpoints(definition, { sandbox: false, browserOrigin: 'a', serverOrigin: 'b', env })).toEqual({
      problem: 'not_configured',
    });
    expect(
      oauthEndpoints(definition, { sandbox: true, browserOrigin: 'http://a', serverOrigin: 'http://b', env }),
    ).toMatchObject({
      sandbox: true,
      client: { clientId: 'semel-sandbox' },
    });
  });
});
