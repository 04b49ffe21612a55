import type { Executor } from '@/db/client';
import { recordApiKeyUse } from '@/db/queries/api-keys';
import { registerSandboxAccount } from '@/sandbox/db/queries/store';
import { listUnregisteredProductSandboxAccounts, listWorkspaceSandboxAccounts } from '@/lib/sandbox/account-queries';
import { rateLimitHeaders, rateStateOf } from '@/lib/auth/api-key';
import { hashApiKey } from '@/lib/auth/api-key-token';
import { can } from '@/lib/auth/can';
import type { Role } from '@/lib/auth/roles';
import { problem } from '@/lib/http/problem';
import { logger } from '@/lib/logging/logger';
import { openCredentials } from '@/lib/providers/credentials';
import { sandboxRegistrations, unheldToken } from '@/sandbox/dialects/linkedin/identity';
import { hashSandboxToken } from '@/sandbox/oauth/tokens';
import type { ScopeResolver, ScopedAccount } from '@/sandbox/store/types';

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

/** What a control call does: reading (timeline, faults) needs `posts:read`, changing (faults, revoke) `accounts:write`. */
export type ControlAccess = 'read' | 'change';
const KEY_SCOPE = { read: 'posts:read', change: 'accounts:write' } as const;

/**
 * Control endpoints: `Authorization: Bearer <workspace API key>` with the scope the call needs, counted against the
 * key's per-minute limit like any API call; or (inside the app) a signed-in admin. Either way the caller sees only
 * its workspace's sandbox accounts.
 */
export function workspaceScopeResolver(options: {
  db: Executor;
  encryptionKey: string;
  session?: () => Promise<{ workspaceId: string; role: Role } | null>;
}): ScopeResolver {
  return async (request, access) => {
    const header = request.headers.get('authorization');
    let workspaceId: string;
    if (header) {
      const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
      const key = token ? await recordApiKeyUse(options.db, { hash: hashApiKey(token) }) : null;
      if (!key)
        return problem(
          {
            status: 401,
            title: 'Unauthorized',
            detail: 'Send a valid workspace API key: Authorization: Bearer <key>.',
          },
          { 'www-authenticate': 'Bearer' },
        );
      const rate = rateStateOf(key);
      if (rate.exceeded)
        return problem(
          {
            status: 429,
            title: 'Too Many Requests',
            detail: `This API key is limited to ${rate.limit} requests per minute; retry after ${rate.resetSeconds} s.`,
          },
          { ...rateLimitHeaders(rate), 'retry-after': String(rate.resetSeconds) },
        );
      const scope = KEY_SCOPE[access];
      if (!key.scopes.includes(scope))
        return problem(
          { status: 403, title: 'Forbidden', detail: `This API key lacks the scope "${scope}".`, missingScope: scope },
          rateLimitHeaders(rate),
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
