import { describe, expect, it } from 'vitest';
import { connectAccount, getAccountWithCredentials, listAccounts } from '@/db/queries/accounts';
import { disconnectAccount } from '@/db/queries/deliveries';
import { getSandboxAccountByUserId } from '@/sandbox/db/queries/store';
import { makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { openCredentials, sealCredentials } from '@/lib/providers/credentials';
import { connectSandboxAccount } from './connect';
import { hashSandboxToken } from '@/sandbox/oauth/tokens';

const KEY = Buffer.alloc(32, 3).toString('base64');
const { db } = await createTestDatabase();

describe('connecting accounts', () => {
  it('one click: the sandbox issues a user and token, the workspace stores it sealed; the two agree', async () => {
    const workspace = await makeWorkspace(db);
    const account = await connectSandboxAccount(db, {
      workspaceId: workspace.id,
      provider: 'mastodon',
      encryptionKey: KEY,
    });
    expect(account).toMatchObject({ provider: 'mastodon', sandbox: true, baseUrl: '/api/sandbox/mastodon' });
    expect(account).not.toHaveProperty('credentialsEncrypted');
    const stored = await getAccountWithCredentials(db, { workspaceId: workspace.id, accountId: account.id });
    const { accessToken } = openCredentials(stored!.credentialsEncrypted, KEY, account.id);
    expect(accessToken.slice(-4)).toBe(account.tokenLast4);
    const platformSide = await getSandboxAccountByUserId(db, {
      platform: 'mastodon',
      platformUserId: account.platformUserId,
    });
    expect(platformSide).toMatchObject({ handle: account.handle });
    const [row] = await db.execute<{ token_hash: string }>(
      `select token_hash from sandbox.accounts where platform_user_id = '${account.platformUserId}'` as never,
    );
    expect(row!.token_hash).toBe(hashSandboxToken(accessToken));
  });

  it('disconnect keeps the row; reconnecting the same identity revives it with the new token', async () => {
    const workspace = await makeWorkspace(db);
    const params = {
      workspaceId: workspace.id,
      provider: 'x' as const,
      sandbox: false,
      handle: '@me',
      platformUserId: '42',
      baseUrl: 'https://api.x.com',
    };
    const first = await connectAccount(db, params, (id) => sealCredentials({ accessToken: 'token-one-1111' }, KEY, id));
    expect(await disconnectAccount(db, { workspaceId: workspace.id, accountId: first.id, actor: 'test' })).toEqual({
      id: first.id,
      held: 0,
    });
    expect(await disconnectAccount(db, { workspaceId: workspace.id, accountId: first.id, actor: 'test' })).toBeNull();
    // The sealed token is wiped, not kept for later.
    expect(
      (await getAccountWithCredentials(db, { workspaceId: workspace.id, accountId: first.id }))!.credentialsEncrypted,
    ).toBe('');
    expect(await listAccounts(db, { workspaceId: workspace.id })).toEqual([]);
    const again = await connectAccount(db, params, (id) => sealCredentials({ accessToken: 'token-two-2222' }, KEY, id));
    expect(again).toMatchObject({ id: first.id, tokenLast4: '2222', disconnectedAt: null });
  });

  it('I6: another workspace can neither disconnect nor read the credentials of an account', async () => {
    const [mine, theirs] = [await makeWorkspace(db), await makeWorkspace(db)];
    const account = await connectSandboxAccount(db, { workspaceId: mine.id, provider: 'x', encryptionKey: KEY });
    expect(await disconnectAccount(db, { workspaceId: theirs.id, accountId: account.id, actor: 'test' })).toBeNull();
    expect(await getAccountWithCredentials(db, { workspaceId: theirs.id, accountId: account.id })).toBeNull();
    expect((await listAccounts(db, { workspaceId: mine.id }))[0]!.disconnectedAt).toBeNull();
  });
});
