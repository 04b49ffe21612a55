import type { Executor } from '@/db/client';
import { getActiveApiKeyByHash } from '@/db/queries/api-keys';
import {
  listUnregisteredProductSandboxAccounts,
  listWorkspaceSandboxAccounts,
  registerSandboxAccount,
} from '@/db/queries/sandbox';
import { hashApiKey } from '@/lib/auth/api-key-token';
import { can } from '@/lib/auth/can';
import type { Role } from '@/lib/auth/roles';
import { problem } from '@/lib/http/problem';
import { logger } from '@/lib/logging/logger';
import { openCredentials } from '@/lib/providers/credentials';
import { sandboxRegistrations, unheldToken } from './linkedin-identity';
import { hashSandboxToken } from './tokens';
import type { ScopeResolver, ScopedAccount } from './types';

/**
 * Registers on the sandbox the product's sandbox accounts it does not know yet (e.g. seeded ones),
 * so their stored tokens work. Cheap when there is nothing to do: one anti-join.
 */
export async function registerProductSandboxAccounts(db: Executor, encryptionKey: string): Promise<void> {
  for (const row of await listUnregisteredProductSandboxAccounts(db)) {
    let token: string;
    try {
      // The token the sandbox knows the account by: a Bluesky app password (its sessions are signed with its
      // hash), else the bearer token itself.
      const credentials = openCredentials(row.credentialsEncrypted, encryptionKey, row.id);
      token = credentials.appPassword ?? credentials.accessToken;
    } catch {
      logger.warn(
        { platformUserId: row.platformUserId },
        'sandbox: could not open a sandbox account’s credentials (encryption key changed?)',
      );
      continue;
    }
    const platform = row.provider;
    // A LinkedIn page is registered with its administering member, who holds the token.
    for (const r of sandboxRegistrations({ ...row, provider: platform })) {
      await registerSandboxAccount(db, {
        platform,
        platformUserId: r.platformUserId,
        handle: r.handle,
        displayName: r.displayName,
        tokenHash: hashSandboxToken(r.holdsToken ? token : unheldToken()),
      });
    }
  }
}

/** The sandbox accounts of one workspace, as its members know them (by the product's account id). */
export async function workspaceSandboxScope(
  db: Executor,
  params: { workspaceId: string; encryptionKey: string },
): Promise<ScopedAccount[]> {
  await registerProductSandboxAccounts(db, params.encryptionKey);
  const rows = await listWorkspaceSandboxAccounts(db, { workspaceId: params.workspaceId });
  return rows.map((r) => ({
    accountId: r.accountId,
    handle: r.handle,
    disconnected: r.disconnectedAt !== null,
    account: r.sandboxAccount,
  }));
}

/**
 * Control endpoints: `Authorization: Bearer <workspace API key>`, or (inside the app) a signed-in admin.
 * Either way the caller sees only its workspace's sandbox accounts.
 */
export function workspaceScopeResolver(options: {
  db: Executor;
  encryptionKey: string;
  session?: () => Promise<{ workspaceId: string; role: Role } | null>;
}): ScopeResolver {
  return async (request) => {
    const header = request.headers.get('authorization');
    let workspaceId: string;
    if (header) {
      const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
      const key = token ? await getActiveApiKeyByHash(options.db, { hash: hashApiKey(token) }) : null;
      if (!key)
        return problem(
          {
            status: 401,
            title: 'Unauthorized',
            detail: 'Send a valid workspace API key: Authorization: Bearer <key>.',
          },
          { 'www-authenticate': 'Bearer' },
        );
      workspaceId = key.workspaceId;
    } else {
      const session = options.session ? await options.session() : null;
      if (!session)
        return problem(
          { status: 401, title: 'Unauthorized', detail: 'Sign in as a workspace admin or send a workspace API key.' },
          { 'www-authenticate': 'Bearer' },
        );
      if (!can(session.role, 'sandboxControl'))
        return problem({ status: 403, title: 'Forbidden', detail: 'Only workspace admins control the sandbox.' });
      workspaceId = session.workspaceId;
    }
    return workspaceSandboxScope(options.db, { workspaceId, encryptionKey: options.encryptionKey });
  };
}
