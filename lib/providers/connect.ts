import { createProviderClient } from '.';
import { connectionCheckFailure } from './connection-check';

export type VerifiedIdentity = { platformUserId: string; handle: string; displayName: string | null };

/**
 * The connection check before an X or Mastodon account is stored: the platform's "who am I" with the
 * given token. For X the token must belong to the user id given.
 */
export async function verifyPlatformAccount(input: {
  provider: 'x' | 'mastodon';
  baseUrl: string;
  accessToken: string;
  platformUserId?: string;
}): Promise<{ ok: true; identity: VerifiedIdentity } | { ok: false; message: string }> {
  const client = createProviderClient({
    provider: input.provider,
    baseUrl: input.baseUrl,
    platformUserId: input.platformUserId ?? '',
    accessToken: input.accessToken,
  });
  const me = await client.whoAmI({ timeoutMs: 10_000 });
  if (!me.ok) return { ok: false, message: connectionCheckFailure(me) };
  if (input.platformUserId && me.id !== input.platformUserId) {
    return { ok: false, message: `This token belongs to user ${me.id} (${me.handle}), not ${input.platformUserId}.` };
  }
  return { ok: true, identity: { platformUserId: me.id, handle: me.handle, displayName: me.displayName } };
}
