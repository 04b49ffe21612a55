import { z } from 'zod';
import type { Database } from '@/db/client';
import { faultsInput } from '@/sandbox/behaviour/faults';
import { applyFaults } from '@/sandbox/http/control';
import { createPgSandboxStore } from '@/sandbox/store/pg-store';
import { PROFILES } from '@/sandbox/store/types';
import { workspaceSandboxScope } from './workspace-scope';

// What the Sandbox page's controls do to a workspace's own sandbox accounts (app/(dashboard)/sandbox/actions.ts).

/** The faults form: the knobs, one account or all of them, a profile or each account's platform default. */
export const sandboxFaultsForm = faultsInput.extend({
  accountId: z
    .union([z.literal(''), z.uuid('Unknown account')])
    .optional()
    .transform((v) => v || undefined),
  // '' = each account's platform default
  profile: z
    .union([z.literal(''), z.enum(PROFILES, 'Choose a profile')])
    .optional()
    .transform((v) => v || undefined),
});

type Workspace = { workspaceId: string; encryptionKey: string };

/** Sets the faults on the workspace's sandbox accounts (or one of them); another workspace's are not found. */
export async function applyWorkspaceFaults(
  db: Database,
  params: Workspace & { input: z.output<typeof sandboxFaultsForm> },
) {
  const scope = await workspaceSandboxScope(db, params);
  return applyFaults(createPgSandboxStore(db), scope, params.input);
}

/** Revokes every token of one of the workspace's sandbox accounts; null when it is not one of them. */
export async function revokeWorkspaceSandboxTokens(db: Database, params: Workspace & { accountId: string }) {
  const scope = await workspaceSandboxScope(db, params);
  const target = scope.find((s) => s.accountId === params.accountId);
  if (!target) return null;
  await createPgSandboxStore(db).oauth.revokeAccount(target.account.id);
  return { handle: target.handle };
}
