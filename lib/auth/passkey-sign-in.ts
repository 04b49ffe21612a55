import type { Executor } from '@/db/client';
import { getMembershipsForUser } from '@/db/queries/workspaces';
import type { SignedInUser } from './credentials';
import { SIGN_IN_ERRORS } from './sign-in-errors';
import { parseAuthenticationResponse, verifyPasskeySignIn, type RelyingParty } from './passkeys';

/**
 * next-auth's `passkey` Credentials provider: the browser's WebAuthn assertion (a JSON string) verified on the
 * server. User verification is required, so this sign-in is two-factor by itself (something held + PIN/biometric).
 */
export async function authenticatePasskey(db: Executor, input: unknown, rp: RelyingParty): Promise<SignedInUser> {
  const response = parseAuthenticationResponse((input as { response?: unknown } | undefined)?.response);
  const user = response ? await verifyPasskeySignIn(db, { response, rp }) : null;
  if (!user) throw new Error(SIGN_IN_ERRORS.passkey);
  const [first] = await getMembershipsForUser(db, { userId: user.id });
  return { ...user, workspaceId: first?.id ?? null, role: first?.role ?? null };
}
