import type { Database } from '@/db/client';
import { connectAccount } from '@/db/queries/accounts';
import { registerSandboxAccount } from '@/db/queries/sandbox';
import { SANDBOX_BASE_URL } from '@/db/seed';
import { sealCredentials } from '@/lib/providers/credentials';
import { hashSandboxToken, newSandboxIdentity } from './tokens';
import type { Platform } from './types';

/**
 * One-click demo account: the sandbox "platform" issues a user and a token, and the workspace stores
 * it like any other account (token sealed, relative base URL = this app). One transaction for both.
 */
export async function connectSandboxAccount(
  db: Database,
  params: { workspaceId: string; provider: Platform; encryptionKey: string },
) {
  const { platformUserId, token, suffix } = newSandboxIdentity();
  const handle = params.provider === 'x' ? `@sandbox_${suffix}` : `@sandbox_${suffix}@sandbox.social`;
  const displayName = `Sandbox ${params.provider === 'x' ? 'X' : 'Mastodon'} ${suffix}`;
  return db.transaction(async (tx) => {
    await registerSandboxAccount(tx, {
      platform: params.provider,
      platformUserId,
      handle,
      displayName,
      tokenHash: hashSandboxToken(token),
    });
    return connectAccount(
      tx,
      {
        workspaceId: params.workspaceId,
        provider: params.provider,
        sandbox: true,
        handle,
        displayName,
        platformUserId,
        baseUrl: SANDBOX_BASE_URL[params.provider],
      },
      (id) => sealCredentials({ accessToken: token }, params.encryptionKey, id),
    );
  });
}
