import { describe, expect, it } from 'vitest';
import { codeChallengeOf, newCodeVerifier } from '@/lib/oauth/pkce';
import { requestTokens } from '@/lib/oauth/token-request';
import { startMemoryTestSandbox, startTestSandbox } from '@/testing/sandbox';
import type { SandboxStore } from '@/sandbox/store/types';

// The sandbox's OAuth server on both stores (Postgres and memory): the same rules, never more forgiving than X.
const stores = { postgres: await startTestSandbox(), memory: await startMemoryTestSandbox() };

describe.each(Object.entries(stores))('sandbox OAuth server on %s', (_name, sandbox) => {
  const store: SandboxStore = sandbox.store;
  const redirectUri = `${sandbox.url}/api/oauth/x/callback`;
  const tokenUrl = `${sandbox.url}/api/sandbox/x/oauth/token`;
  const call = (form: Record<string, string>) =>
    requestTokens({ tokenUrl, client: { clientId: 'semel-sandbox' }, outbound: { trustedOrigin: sandbox.url }, form });

  async function authorize(scope = 'tweet.read tweet.write users.read offline.access') {
    const verifier = newCodeVerifier();
    const url = `${sandbox.url}/api/sandbox/x/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: 'semel-sandbox',
      redirect_uri: redirectUri,
      scope,
      state: 'st',
      code_challenge: codeChallengeOf(verifier),
      code_challenge_method: 'S256',
    })}`;
    const answer = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ decision: 'authorize' }),
    });
    const back = new URL(answer.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe('st');
    return { code: back.searchParams.get('code')!, verifier };
  }
  const exchange = ({ code, verifier }: { code: string; verifier: string }) =>
    call({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier });

  it('issues an expiring access token the X dialect accepts, and a refresh token that rotates once', async () => {
    const first = await exchange(await authorize());
    if (!first.ok) throw new Error(first.reason);
    const account = await store.authenticate('x', first.credentials.accessToken);
    expect(account).toMatchObject({ platform: 'x' });
    expect(Date.parse(first.credentials.expiresAt!) - Date.now()).toBeGreaterThan(7100_000);

    const rotated = await call({ grant_type: 'refresh_token', refresh_token: first.credentials.refreshToken! });
    if (!rotated.ok) throw new Error(rotated.reason);
    expect(rotated.credentials.refreshToken).not.toBe(first.credentials.refreshToken);
    expect((await store.authenticate('x', rotated.credentials.accessToken))?.id).toBe(account!.id);

    // The spent refresh token again: refused, and the whole grant is revoked (a replay means a stolen token).
    expect(await call({ grant_type: 'refresh_token', refresh_token: first.credentials.refreshToken! })).toMatchObject({
      ok: false,
      rejected: true,
      httpStatus: 400,
    });
    expect(await store.authenticate('x', rotated.credentials.accessToken)).toBeNull();
    expect(await call({ grant_type: 'refresh_token', refresh_token: rotated.credentials.refreshToken! })).toMatchObject(
      {
        ok: false,
        rejected: true,
      },
    );
  });

  it('X gives no refresh token without offline.access', async () => {
    const tokens = await exchange(await authorize('tweet.read users.read'));
    expect(tokens.ok && tokens.credentials.refreshToken).toBeUndefined();
  });

  it('a code is single use; an unknown client and an unknown grant type are refused', async () => {
    const grant = await authorize();
    expect((await exchange(grant)).ok).toBe(true);
    expect(await exchange(grant)).toMatchObject({ ok: false, rejected: true });
    const other = await requestTokens({
      tokenUrl,
      client: { clientId: 'someone-else' },
      outbound: { trustedOrigin: sandbox.url },
      form: { grant_type: 'authorization_code', code: 'x' },
    });
    expect(other).toMatchObject({ ok: false, rejected: true, httpStatus: 401 });
    expect(await call({ grant_type: 'password' })).toMatchObject({ ok: false, httpStatus: 400 });
  });

  it('revoking an account’s tokens ends its OAuth tokens and its own bearer token', async () => {
    const tokens = await exchange(await authorize());
    if (!tokens.ok) throw new Error(tokens.reason);
    const account = (await store.authenticate('x', tokens.credentials.accessToken))!;
    expect(await store.oauth.revokeAccount(account.id)).toBe(2);
    expect(await store.authenticate('x', tokens.credentials.accessToken)).toBeNull();
    expect(await call({ grant_type: 'refresh_token', refresh_token: tokens.credentials.refreshToken! })).toMatchObject({
      ok: false,
      rejected: true,
    });
    const { client, token, sandboxAccount } = await sandbox.connectAccount('x');
    await store.oauth.revokeAccount(sandboxAccount.id);
    expect(await store.authenticate('x', token)).toBeNull();
    expect(await client.whoAmI()).toMatchObject({ ok: false, httpStatus: 401 });
  });

  it('an expired access token is refused', async () => {
    const tokens = await exchange(await authorize());
    if (!tokens.ok) throw new Error(tokens.reason);
    const account = (await store.authenticate('x', tokens.credentials.accessToken))!;
    const { hashSandboxToken } = await import('./tokens');
    await store.oauth.issueTokens([
      {
        tokenHash: hashSandboxToken('sbx_oat_expired'),
        kind: 'access',
        accountId: account.id,
        clientId: 'semel-sandbox',
        familyId: crypto.randomUUID(),
        scope: 'tweet.read',
        expiresAt: new Date(Date.now() - 1_000),
      },
    ]);
    expect(await store.authenticate('x', 'sbx_oat_expired')).toBeNull();
  });
});
