import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { socialAccounts } from '@/db/schema';
import type { HttpRequest } from '@/lib/net/send';
import { providerClientForAccount, providerDefinition } from '@/lib/providers';
import { openCredentials } from '@/lib/providers/credentials';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { startOAuthSandbox } from '@/testing/oauth';
import { exchangeFacebookToken } from './tokens';

// Facebook Login through the sandbox's consent (docs/networks.md#facebook): the code gives a short user token, swapped
// for a long-lived one (fb_exchange_token) before anything is stored; GET /me/accounts names the pages the person
// administers, and each page becomes one account holding its own page token (which does not expire).

const sandbox = await startOAuthSandbox();
const { db } = sandbox;

const rowsOf = (workspaceId: string) =>
  db.select().from(socialAccounts).where(eq(socialAccounts.workspaceId, workspaceId)).orderBy(socialAccounts.handle);

describe('Facebook: connect through Facebook Login', () => {
  it('one account per page the person administers, each with its own page token; each page publishes as itself', async () => {
    const admin = await sandbox.admin();
    const { authorizeUrl, html, callback } = await sandbox.consent({ provider: 'facebook', ...admin });
    expect(authorizeUrl.pathname).toBe('/api/sandbox/facebook/oauth/authorize');
    expect(authorizeUrl.searchParams.get('scope')).toContain('pages_manage_posts');
    expect(html).toContain('Authorize Semel');
    const result = await sandbox.complete({ provider: 'facebook', ...admin }, callback);
    if (!result.ok) throw new Error(result.problem);
    const rows = await rowsOf(admin.workspaceId);
    expect(rows.map((r) => r.handle)).toEqual([
      expect.stringMatching(/^Sandbox Page \d{4}$/),
      expect.stringMatching(/^Sandbox Page \d{4} B$/),
    ]);
    const tokens = rows.map((r) => openCredentials(r.credentialsEncrypted, TEST_ENCRYPTION_KEY, r.id));
    // Page tokens, not the user's: each its own, with no expiry to refresh (and none stored on the row).
    expect(tokens[0]!.accessToken).toMatch(/^sbx_pat_/);
    expect(tokens[0]!.accessToken).not.toBe(tokens[1]!.accessToken);
    expect(tokens.every((t) => t.expiresAt === undefined && t.refreshToken === undefined)).toBe(true);
    expect(rows.every((r) => r.tokenExpiresAt === null && r.tokenStatus === 'ok' && r.sandbox)).toBe(true);
    for (const row of rows) {
      const client = providerClientForAccount(row, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url });
      expect(await client.whoAmI()).toMatchObject({ ok: true, id: row.platformUserId });
      const sent = await client.publish({ text: `as ${row.handle}`, kind: 'post', idempotencyKey: row.id });
      expect(sent).toMatchObject({ outcome: 'sent' });
      expect(sent.externalId!.startsWith(`${row.platformUserId}_`)).toBe(true);
    }
    const pageAccount = await sandbox.store.getAccount('facebook', rows[0]!.platformUserId);
    expect(await sandbox.store.countPosts([pageAccount!.id])).toEqual(new Map([[pageAccount!.id, 1]]));
  });

  it('reconnecting the same person updates the same page accounts (new page tokens), never adds more', async () => {
    const admin = await sandbox.admin();
    const first = await sandbox.connect({ provider: 'facebook', ...admin });
    const before = await rowsOf(admin.workspaceId);
    const user = await sandbox.store.getAccount('facebook', before[0]!.platformUserId.slice(0, -1));
    const again = await sandbox.connect({ provider: 'facebook', ...admin, account: user!.id });
    expect(again.map((a) => a.id).sort()).toEqual(first.map((a) => a.id).sort());
    const after = await rowsOf(admin.workspaceId);
    expect(after).toHaveLength(2);
    expect(after[0]!.credentialsEncrypted).not.toBe(before[0]!.credentialsEncrypted);
  });

  it('a page token revoked on the platform: the publish is refused as token rejected, nothing is posted', async () => {
    const admin = await sandbox.admin();
    await sandbox.connect({ provider: 'facebook', ...admin });
    const [row] = await rowsOf(admin.workspaceId);
    const page = await sandbox.store.getAccount('facebook', row!.platformUserId);
    await sandbox.store.oauth.revokeAccount(page!.id);
    const client = providerClientForAccount(row!, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url });
    expect(await client.publish({ text: 'revoked', kind: 'post', idempotencyKey: row!.id })).toMatchObject({
      outcome: 'failed',
      tokenRejected: true,
    });
    expect((await sandbox.store.countPosts([page!.id])).get(page!.id) ?? 0).toBe(0);
  });

  it('the real exchange: GET /oauth/access_token with fb_exchange_token, the app id and secret as parameters', async () => {
    const seen: HttpRequest[] = [];
    const result = await exchangeFacebookToken({
      account: {
        baseUrl: 'https://graph.facebook.com',
        platformUserId: '',
        accessToken: 'short',
        credentials: { accessToken: 'short' },
      },
      clientId: 'app-1',
      clientSecret: 's3cret',
      send: async (request) => {
        seen.push(request);
        return {
          type: 'response',
          status: 200,
          headers: {},
          body: { access_token: 'long', expires_in: 5_184_000 },
          bodyText: '',
        };
      },
    });
    const url = new URL(seen[0]!.url);
    expect(url.origin + url.pathname).toBe('https://graph.facebook.com/v23.0/oauth/access_token');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      grant_type: 'fb_exchange_token',
      client_id: 'app-1',
      client_secret: 's3cret',
      fb_exchange_token: 'short',
    });
    expect(result).toMatchObject({ ok: true, credentials: { accessToken: 'long' } });
    expect(providerDefinition('facebook').refresh).toBeNull(); // page tokens do not expire
  });
});
