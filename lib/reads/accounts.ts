import { listAccountsWithHealth } from '@/db/queries/token-health';
import type { Executor } from '@/db/client';
import { toJson, type Json } from './json';

export type AccountListItem = Json<Awaited<ReturnType<typeof listAccountsWithHealth>>[number]> & {
  /** The token needs a reconnect (refused, revoked or expired): its scheduled deliveries are held. */
  needsReconnect: boolean;
};

/** The accounts page's list: public columns only (never a token), token health, disconnected accounts included. */
export async function readAccounts(db: Executor, params: { workspaceId: string }): Promise<AccountListItem[]> {
  const now = Date.now();
  return toJson(await listAccountsWithHealth(db, { workspaceId: params.workspaceId })).map((a) => ({
    ...a,
    needsReconnect:
      !a.disconnectedAt &&
      (a.tokenStatus !== 'ok' || (a.tokenExpiresAt !== null && Date.parse(a.tokenExpiresAt) <= now)),
  }));
}
