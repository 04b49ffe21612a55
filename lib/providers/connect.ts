import type { AccountCredentials } from './credentials';
import { connectionCheckFailure } from './connection-check';
import type { ConnectTools, VerifyResult } from './definition';

/**
 * The usual connection check: the platform's "who am I" with the given credentials. When the form names
 * a user id (X), the token must belong to that user.
 */
export async function verifyByWhoAmI(
  tools: ConnectTools,
  input: { baseUrl: string; platformUserId?: string; credentials: AccountCredentials },
): Promise<VerifyResult> {
  const client = tools.client(input);
  const me = await client.whoAmI({ timeoutMs: 10_000 });
  if (!me.ok) return { ok: false, message: connectionCheckFailure(me) };
  if (input.platformUserId && me.id !== input.platformUserId) {
    return { ok: false, message: `This token belongs to user ${me.id} (${me.handle}), not ${input.platformUserId}.` };
  }
  return {
    ok: true,
    identity: { platformUserId: me.id, handle: me.handle, displayName: me.displayName, profileUrl: me.url ?? null },
    baseUrl: input.baseUrl,
    credentials: input.credentials,
  };
}
