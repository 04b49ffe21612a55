'use server';

import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { getDb } from '@/db/client';
import { passkeySecondFactorOptions, type PasskeySecondFactorStart } from '@/lib/auth/credentials';
import { authenticationOptions, relyingParty } from '@/lib/auth/passkeys';
import { requestAddress } from '@/lib/auth/request-address';

/**
 * Options for "Sign in with a passkey": a fresh challenge (stored hashed, five minutes, single use). Public, like the
 * sign-in form; the challenge proves nothing until an authenticator signs it.
 */
export async function passkeySignInOptionsAction(): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return authenticationOptions(getDb(), { rp: relyingParty() });
}

/**
 * Options for a passkey as the second step after a password. Public too, but it checks the password under the
 * sign-in limits first: a wrong one (or an unknown email) gets the form's one generic error and no challenge.
 */
export async function passkeySecondFactorOptionsAction(input: unknown): Promise<PasskeySecondFactorStart> {
  // `input` is whatever was posted: { email, password } is parsed inside, anything else is the generic error.
  return passkeySecondFactorOptions(getDb(), input, requestAddress(), { rp: relyingParty() });
}
