'use server';

import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { getDb } from '@/db/client';
import { authenticationOptions, relyingParty } from '@/lib/auth/passkeys';

/**
 * Options for "Sign in with a passkey": a fresh challenge (stored hashed, five minutes, single use). Public, like the
 * sign-in form; the challenge proves nothing until an authenticator signs it.
 */
export async function passkeySignInOptionsAction(): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return authenticationOptions(getDb(), { rp: relyingParty() });
}
