'use server';

import { getDb } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { getWorkspace } from '@/lib/auth/session';

/** Query function for the accounts list (React Query); scoped to the caller's active workspace. */
export async function fetchAccounts() {
  const context = await getWorkspace();
  if (!context) throw new Error('Not signed in');
  return listAccounts(getDb(), { workspaceId: context.workspace.id });
}
