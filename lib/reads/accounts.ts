import { listAccounts } from '@/db/queries/accounts';
import type { Executor } from '@/db/client';
import { toJson, type Json } from './json';

export type AccountListItem = Json<Awaited<ReturnType<typeof listAccounts>>[number]>;

/** The accounts page's list: public columns only (never a token), disconnected accounts included. */
export async function readAccounts(db: Executor, params: { workspaceId: string }): Promise<AccountListItem[]> {
  return toJson(await listAccounts(db, { workspaceId: params.workspaceId, includeDisconnected: true }));
}
