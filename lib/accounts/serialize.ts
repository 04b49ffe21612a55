import type { ProviderName } from '@/lib/providers/types';

type AccountRow = {
  id: string;
  provider: ProviderName;
  sandbox: boolean;
  handle: string;
  displayName: string | null;
  profileUrl: string | null;
  tokenStatus: string;
  tokenExpiresAt: Date | null;
  disconnectedAt: Date | null;
};

export type AccountStatus = 'connected' | 'needs_reconnect' | 'disconnected';

/** Whether the account publishes: its token refused, revoked or expired holds its deliveries until a reconnect. */
export function accountStatus(account: AccountRow, now = Date.now()): AccountStatus {
  if (account.disconnectedAt) return 'disconnected';
  const expired = account.tokenExpiresAt !== null && account.tokenExpiresAt.getTime() <= now;
  return account.tokenStatus !== 'ok' || expired ? 'needs_reconnect' : 'connected';
}

/** The API's account: never a credential, not even the token's last characters. */
export const serializeAccount = (account: AccountRow) => ({
  id: account.id,
  provider: account.provider,
  sandbox: account.sandbox,
  handle: account.handle,
  displayName: account.displayName,
  url: account.profileUrl,
  status: accountStatus(account),
});

export type SerializedAccount = ReturnType<typeof serializeAccount>;
