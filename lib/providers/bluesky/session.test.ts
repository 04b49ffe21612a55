import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '@/testing/sandbox';
import { sandboxCredentials } from '@/lib/sandbox/connect';
import { verifyAccount } from '..';
import { sendOnce } from '@/lib/net/send';
import type { ProviderTransport } from '../transport';
import { closedPort } from '@/testing/wire/servers';
import { createBlueskyClient } from './client';
import { blueskyProvider } from './index';
import { jwtExpiry } from './session';

// Connecting with an app password and renewing the session, against the sandbox's PDS dialect.

const sandbox = await startTestSandbox();
const serviceUrl = `${sandbox.url}/api/sandbox/bluesky`;
// The sandbox listens on loopback, which the outbound guard refuses for a pasted URL: tests trust it explicitly.
const trusted: ProviderTransport = (request) => sendOnce({ ...request, outbound: { trustedOrigin: sandbox.url } });
const verify = (input: Record<string, string>) =>
  verifyAccount('bluesky', blueskyProvider.connectSchema.parse(input), { transport: trusted });
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;
const resolved = (a: Account, credentials = a.credentials, baseUrl = serviceUrl) => ({
  baseUrl,
  platformUserId: a.platformUserId,
  accessToken: credentials.accessToken,
  credentials,
  outbound: { trustedOrigin: new URL(baseUrl).origin },
});

describe('connecting a Bluesky account (createSession with an app password)', () => {
  it('names the account by its DID and handle and keeps the session and the app password', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const result = await verify({ serviceUrl, identifier: a.sandboxAccount.handle, appPassword: a.token });
    expect(result).toMatchObject({
      ok: true,
      identity: { platformUserId: a.platformUserId, handle: a.sandboxAccount.handle, displayName: null },
      baseUrl: serviceUrl,
      credentials: { identifier: a.sandboxAccount.handle.slice(1), appPassword: a.token },
    });
    if (!result.ok) return;
    const { accessToken, refreshToken, expiresAt } = result.credentials;
    expect(accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(refreshToken).not.toBe(accessToken);
    // From the JWT's own exp: two hours.
    expect(Math.abs(Date.parse(expiresAt!) - (Date.now() + 2 * 3_600_000))).toBeLessThan(5_000);
    const me = await createBlueskyClient({ ...resolved(a, result.credentials) }, trusted).whoAmI();
    expect(me).toMatchObject({ ok: true, id: a.platformUserId });
  });

  it('a wrong app password or another account’s handle is refused, without echoing the platform', async () => {
    const [a, b] = [await sandbox.connectAccount('bluesky'), await sandbox.connectAccount('bluesky')];
    for (const input of [
      { identifier: a.sandboxAccount.handle, appPassword: 'sbx_wrong-password' },
      { identifier: b.sandboxAccount.handle, appPassword: a.token },
    ]) {
      const result = await verify({ serviceUrl, ...input });
      expect(result).toEqual({
        ok: false,
        message: 'Connection check failed: the PDS did not accept this handle and app password (401).',
      });
    }
  });

  it('the connect form: field errors for a bad URL, identifier or password; "@" is dropped', () => {
    const parsed = blueskyProvider.connectSchema.safeParse({
      serviceUrl: 'ftp://x',
      identifier: 'a b',
      appPassword: 'x',
    });
    expect(parsed.success).toBe(false);
    expect([...new Set(parsed.error!.issues.map((i) => i.path[0]))].sort()).toEqual([
      'appPassword',
      'identifier',
      'serviceUrl',
    ]);
    expect(
      blueskyProvider.connectSchema.parse({
        serviceUrl: 'https://bsky.social/',
        identifier: ' @me.bsky.social ',
        appPassword: 'abcd-efgh-ijkl-mnop',
      }),
    ).toEqual({ serviceUrl: 'https://bsky.social', identifier: 'me.bsky.social', appPassword: 'abcd-efgh-ijkl-mnop' });
  });

  it('jwtExpiry reads exp, else two hours from now', () => {
    const jwt = (payload: object) => `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;
    expect(jwtExpiry(jwt({ exp: 1_800_000_000 }))).toEqual(new Date(1_800_000_000_000));
    const now = new Date('2026-03-01T12:00:00Z');
    expect(jwtExpiry('not-a-jwt', now)).toEqual(new Date('2026-03-01T14:00:00Z'));
  });
});

describe('renewing a Bluesky session (refresh)', () => {
  const refresh = blueskyProvider.refresh;

  it('refreshSession with the refresh JWT: new credentials that work, the app password kept', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const result = await refresh(resolved(a), trusted);
    expect(result).toMatchObject({ ok: true, credentials: { appPassword: a.token } });
    if (!result.ok) return;
    expect(result.credentials.refreshToken).not.toBe(a.credentials.refreshToken);
    expect(await createBlueskyClient(resolved(a, result.credentials), trusted).whoAmI()).toMatchObject({ ok: true });
  });

  it('a refused refresh token (expired) → a new session with the app password', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const longAgo = new Date(Date.now() - 100 * 24 * 3_600_000);
    const stale = sandboxCredentials(
      'bluesky',
      { platformUserId: a.platformUserId, handle: a.sandboxAccount.handle, token: a.token },
      longAgo,
    );
    const result = await refresh(resolved(a, stale), trusted);
    expect(result).toMatchObject({ ok: true });
    if (result.ok) expect(Date.parse(result.credentials.expiresAt!)).toBeGreaterThan(Date.now());
  });

  it('rejected only when the PDS turns down the app password itself', async () => {
    const a = await sandbox.connectAccount('bluesky');
    const revoked = { ...a.credentials, refreshToken: 'not.a.token', appPassword: 'sbx_revoked-app-password' };
    expect(await refresh(resolved(a, revoked), trusted)).toMatchObject({ ok: false, rejected: true });
    const nothingToOpenWith = { accessToken: a.credentials.accessToken, refreshToken: 'not.a.token' };
    expect(await refresh(resolved(a, nothingToOpenWith), trusted)).toMatchObject({ ok: false, rejected: true });
    // An unreachable PDS says nothing about the credentials.
    const down = `http://127.0.0.1:${await closedPort()}/api/sandbox/bluesky`;
    expect(await refresh(resolved(a, a.credentials, down))).toMatchObject({ ok: false, rejected: false });
  });
});
