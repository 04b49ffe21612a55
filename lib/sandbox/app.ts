import 'server-only';
import { getDb } from '@/db/client';
import { can } from '@/lib/auth/can';
import { getWorkspace } from '@/lib/auth/session';
import { gateWorkspace } from '@/lib/auth/gate';
import { getEnv } from '@/lib/env';
import { createPgSandboxStore } from '@/sandbox/store/pg-store';
import type { SandboxDeps } from '@/sandbox/store/types';
import { createSandboxWebhooks, type SandboxWebhooks } from '@/sandbox/webhooks/sender';
import { sandboxWebhookSecret } from '@/lib/platform-webhooks/signature';
import { registerProductSandboxAccounts, workspaceSandboxScope, workspaceScopeResolver } from './workspace-scope';

/** One sender per process: its copies in flight outlive the request that made them. */
let webhooks: SandboxWebhooks | undefined;
function appSandboxWebhooks(): SandboxWebhooks | undefined {
  const env = getEnv();
  if (!env.SANDBOX_WEBHOOKS_URL) return undefined;
  const base = env.SANDBOX_WEBHOOKS_URL.replace(/\/+$/, '');
  // Signed with this install's sandbox secret per network: only its sandbox accounts match (lib/platform-webhooks).
  webhooks ??= createSandboxWebhooks({
    url: (network) => `${base}/${network}`,
    secret: (network) => sandboxWebhookSecret(network, env.APP_ENCRYPTION_KEY),
  });
  return webhooks;
}

/** The sandbox as this app serves it: on the app's database, control for admins and API keys. */
export function getAppSandboxDeps(): SandboxDeps {
  const db = getDb();
  const encryptionKey = getEnv().APP_ENCRYPTION_KEY;
  return {
    webhooks: appSandboxWebhooks(),
    store: createPgSandboxStore(db, { onUnknownToken: () => registerProductSandboxAccounts(db, encryptionKey) }),
    resolveScope: workspaceScopeResolver({
      db,
      encryptionKey,
      session: async () => {
        const gate = await gateWorkspace();
        return gate.ok ? { workspaceId: gate.context.workspace.id, role: gate.context.role } : null;
      },
    }),
    // The OAuth consent page offers the sandbox users of the workspaces this member may connect accounts in.
    consentScope: async () => {
      const gate = await gateWorkspace();
      if (!gate.ok) return null;
      const context = gate.context;
      const administered = context.memberships.filter((m) => can(m.role, 'manageAccounts'));
      if (administered.length === 0) return null; // may connect accounts nowhere: no consent
      const scopes = await Promise.all(
        administered.map((m) => workspaceSandboxScope(db, { workspaceId: m.id, encryptionKey })),
      );
      return scopes.flat();
    },
    // "View post" links: a signed-in member sees the posts of every workspace they belong to (any role).
    viewerScope: async () => {
      const context = await getWorkspace();
      if (!context) return null;
      const scopes = await Promise.all(
        context.memberships.map((m) => workspaceSandboxScope(db, { workspaceId: m.id, encryptionKey })),
      );
      return scopes.flat();
    },
  };
}
