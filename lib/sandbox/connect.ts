import type { Database } from '@/db/client';
import { connectAccount } from '@/db/queries/accounts';
import { registerSandboxAccount } from '@/sandbox/db/queries/store';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { sealCredentials, type AccountCredentials } from '@/lib/providers/credentials';
import { ACCESS_LIFETIME_S, issueSandboxSession } from '@/sandbox/dialects/bluesky/session';
import { linkedinOrganizationUrn, sandboxRegistrations, unheldToken } from '@/sandbox/dialects/linkedin/identity';
import { hashSandboxToken, newSandboxIdentity, sandboxHandle } from '@/sandbox/oauth/tokens';
import type { Platform } from '@/sandbox/store/types';

/**
 * One-click demo account: the sandbox "platform" issues a user and a token, and the workspace stores
 * it like any other account (token sealed, relative base URL = this app). One transaction for both.
 * LinkedIn: an organization page (its posts can be listed), with the member who administers it holding the token.
 */
export async function connectSandboxAccount(
  db: Database,
  params: { workspaceId: string; provider: Platform; encryptionKey: string },
) {
  const identity = newSandboxIdentity(params.provider);
  const { token, suffix } = identity;
  const platformUserId =
    params.provider === 'linkedin' ? linkedinOrganizationUrn(identity.platformUserId) : identity.platformUserId;
  const handle = sandboxHandle(params.provider, suffix);
  const displayName = `Sandbox ${PROVIDER_META[params.provider].label} ${suffix}`;
  return db.transaction(async (tx) => {
    for (const r of sandboxRegistrations({ provider: params.provider, platformUserId, handle, displayName })) {
      await registerSandboxAccount(tx, {
        platform: params.provider,
        platformUserId: r.platformUserId,
        handle: r.handle,
        displayName: r.displayName,
        tokenHash: hashSandboxToken(r.holdsToken ? token : unheldToken()),
      });
    }
    return connectAccount(
      tx,
      {
        workspaceId: params.workspaceId,
        provider: params.provider,
        sandbox: true,
        handle,
        displayName,
        platformUserId,
        baseUrl: PROVIDER_META[params.provider].sandboxPath,
      },
      (id) =>
        sealCredentials(
          sandboxCredentials(params.provider, { platformUserId, handle, token }),
          params.encryptionKey,
          id,
        ),
    );
  });
}

/**
 * What the workspace keeps for a sandbox account: its bearer token, or for Bluesky what a real connect keeps
 * (a session opened with the app password, which is the sandbox token, and the password itself for later).
 */
export function sandboxCredentials(
  platform: Platform,
  identity: { platformUserId: string; handle: string; token: string },
  now = new Date(),
): AccountCredentials {
  if (platform !== 'bluesky') return { accessToken: identity.token };
  const session = issueSandboxSession(identity.platformUserId, hashSandboxToken(identity.token), now);
  return {
    accessToken: session.accessJwt,
    refreshToken: session.refreshJwt,
    expiresAt: new Date(now.getTime() + ACCESS_LIFETIME_S * 1000).toISOString(),
    identifier: identity.handle.replace(/^@/, ''),
    appPassword: identity.token,
  };
}
