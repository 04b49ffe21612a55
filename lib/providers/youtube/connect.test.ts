import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { socialAccounts } from '@/db/schema';
import { oauthEndpoints } from '@/lib/oauth/endpoints';
import { providerClientForAccount, providerDefinition, resolvedAccountFor } from '@/lib/providers';
import { openCredentials } from '@/lib/providers/credentials';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { startOAuthSandbox } from '@/testing/oauth';
import { testVideoBytes, videoMedia } from '@/testing/videos';

// Google-style OAuth through the sandbox's consent page: offline access and consent asked for (a refresh token), the
// channel read with the new token, the token refreshed, and a video uploaded with it.

const sandbox = await startOAuthSandbox();
const { db } = sandbox;
const stored = async (id: string) => (await db.select().from(socialAccounts).where(eq(socialAccounts.id, id)))[0]!;

describe('YouTube: Google OAuth through the sandbox consent', () => {
  it('asks for offline access and consent with the upload and read-only scopes; the channel is the account', async () => {
    const admin = await sandbox.admin();
    const { authorizeUrl, html, callback } = await sandbox.consent({ provider: 'youtube', ...admin });
    expect(html).toContain('YouTube');
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      access_type: 'offline',
      prompt: 'consent',
      scope: 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly',
      code_challenge_method: 'S256',
    });
    const result = await sandbox.complete({ provider: 'youtube', ...admin }, callback);
    if (!result.ok) throw new Error(result.problem);
    const row = await stored(result.accounts[0]!.id);
    expect(row).toMatchObject({
      provider: 'youtube',
      sandbox: true,
      baseUrl: '/api/sandbox/youtube',
      tokenStatus: 'ok',
    });
    expect(row.platformUserId).toMatch(/^UC[\w-]{22}$/);
    expect(row.handle).toMatch(/^@sandbox_/);
    // Sealed: the row holds no token in clear, and the refresh token came with offline access.
    expect(JSON.stringify(row)).not.toContain('sbx_oat_');
    const credentials = openCredentials(row.credentialsEncrypted, TEST_ENCRYPTION_KEY, row.id);
    expect(credentials.refreshToken).toMatch(/^sbx_ort_/);

    const renewed = await providerDefinition('youtube').refresh!(
      resolvedAccountFor(row, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url }),
    );
    if (!renewed.ok) throw new Error(renewed.reason);
    expect(renewed.credentials.accessToken).not.toBe(credentials.accessToken);

    const client = providerClientForAccount(row, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url });
    expect(await client.whoAmI()).toMatchObject({ ok: true, id: row.platformUserId });
    const video = await testVideoBytes();
    const published = await client.publish({
      text: `Connected ${randomUUID().slice(0, 6)}`,
      kind: 'post',
      idempotencyKey: randomUUID(),
      timeoutMs: 8_000,
      media: [videoMedia(video)],
    });
    expect(published, published.reason).toMatchObject({ outcome: 'sent', rule: 'youtube-video-uploaded' });
  });

  it('the sandbox, like Google, gives no refresh token without access_type=offline: it refuses such a consent', async () => {
    const admin = await sandbox.admin();
    sandbox.signIn(admin.workspaceId);
    const url = new URL(`${sandbox.url}/api/sandbox/youtube/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: 'semel-sandbox',
      redirect_uri: `${sandbox.url}/api/oauth/youtube/callback`,
      scope: 'https://www.googleapis.com/auth/youtube.upload',
      state: 'state-1',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
    }).toString();
    const answer = await fetch(url, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(new URL(answer.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('the real endpoints are Google’s, from GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET', () => {
    const definition = providerDefinition('youtube');
    expect(definition.oauth).toMatchObject({
      clientIdEnv: 'GOOGLE_CLIENT_ID',
      clientSecretEnv: 'GOOGLE_CLIENT_SECRET',
    });
    const env = { GOOGLE_CLIENT_ID: 'gid', GOOGLE_CLIENT_SECRET: 'gsecret', sandboxEnabled: true } as never;
    expect(
      oauthEndpoints(definition, { sandbox: false, browserOrigin: 'https://a', serverOrigin: 'https://a', env }),
    ).toMatchObject({
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      client: { clientId: 'gid', clientSecret: 'gsecret' },
    });
  });
});
