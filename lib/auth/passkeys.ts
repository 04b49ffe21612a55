import { createHash } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { Executor } from '@/db/client';
import type { Passkey } from '@/db/schema';
import {
  consumeChallenge,
  getPasskeyByCredentialId,
  insertPasskey,
  listCredentialIds,
  recordPasskeyUse,
  storeChallenge,
  type ChallengePurpose,
} from '@/db/queries/passkeys';
import { getUserById } from '@/db/queries/users';
import { getEnv } from '@/lib/env';

/** Where passkeys are bound: the app's public origin (NEXTAUTH_URL) and its host name as the RP ID. */
export type RelyingParty = { id: string; origin: string; name: string };

export function relyingParty(): RelyingParty {
  const env = getEnv();
  const url = new URL(env.NEXTAUTH_URL ?? `http://localhost:${env.PORT}`);
  return { id: url.hostname, origin: url.origin, name: 'Semel' };
}

/** A challenge lives five minutes: long enough for a person at the prompt, short enough to be worth little. */
export const CHALLENGE_TTL_SECONDS = 300;

const hashChallenge = (challenge: string) => createHash('sha256').update(challenge).digest('base64url');

/** The challenge the browser signed, read from clientDataJSON (the signature over it is checked afterwards). */
function signedChallenge(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && data.challenge.length <= 512 ? data.challenge : null;
  } catch {
    return null;
  }
}

/** Consumes the challenge the response names; true only the first time, before it expires. */
async function takeChallenge(
  db: Executor,
  clientDataJSON: string,
  purpose: ChallengePurpose,
  userId?: string,
): Promise<string | null> {
  const challenge = signedChallenge(clientDataJSON);
  if (!challenge) return null;
  const live = await consumeChallenge(db, { challengeHash: hashChallenge(challenge), purpose, userId });
  return live ? challenge : null;
}

// The browser's response, shaped enough to refuse garbage with a clear error before the library sees it.
const b64url = z
  .string()
  .regex(/^[A-Za-z0-9_-]*={0,2}$/)
  .max(16_384);
const registrationSchema = z.object({
  id: b64url.min(1).max(1_024),
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: b64url,
    attestationObject: b64url,
    transports: z.array(z.string()).optional(),
  }),
  clientExtensionResults: z.looseObject({}),
  authenticatorAttachment: z.string().optional(),
});
const authenticationSchema = z.object({
  id: b64url.min(1).max(1_024),
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: b64url,
    authenticatorData: b64url,
    signature: b64url,
    userHandle: b64url.optional(),
  }),
  clientExtensionResults: z.looseObject({}),
  authenticatorAttachment: z.string().optional(),
});

/** Parses a JSON string from the browser; null when it is not a WebAuthn response of that kind. */
export function parseRegistrationResponse(json: unknown): RegistrationResponseJSON | null {
  return parseJson(json, registrationSchema) as RegistrationResponseJSON | null;
}
export function parseAuthenticationResponse(json: unknown): AuthenticationResponseJSON | null {
  return parseJson(json, authenticationSchema) as AuthenticationResponseJSON | null;
}
function parseJson(json: unknown, schema: z.ZodType): unknown {
  if (typeof json !== 'string' || json.length > 65_536) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Options for registering a new passkey: a discoverable credential with user verification (passwordless). */
export async function registrationOptions(
  db: Executor,
  params: { userId: string; email: string; name: string; rp: RelyingParty },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await listCredentialIds(db, { userId: params.userId });
  const options = await generateRegistrationOptions({
    rpName: params.rp.name,
    rpID: params.rp.id,
    userName: params.email,
    userDisplayName: params.name,
    userID: new Uint8Array(Buffer.from(params.userId.replaceAll('-', ''), 'hex')),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await storeChallenge(db, {
    challengeHash: hashChallenge(options.challenge),
    purpose: 'register',
    userId: params.userId,
    ttlSeconds: CHALLENGE_TTL_SECONDS,
  });
  return options;
}

export type RegisterResult =
  { ok: true; passkeyId: string } | { ok: false; reason: 'challenge' | 'invalid' | 'duplicate' };

/** Verifies a registration against the user's own live challenge (used up either way) and stores the public key. */
export async function registerPasskey(
  db: Executor,
  params: { userId: string; response: RegistrationResponseJSON; name: string; rp: RelyingParty },
): Promise<RegisterResult> {
  const challenge = await takeChallenge(db, params.response.response.clientDataJSON, 'register', params.userId);
  if (!challenge) return { ok: false, reason: 'challenge' };
  const verification = await verifyRegistrationResponse({
    response: params.response,
    expectedChallenge: challenge,
    expectedOrigin: params.rp.origin,
    expectedRPID: params.rp.id,
    requireUserVerification: true,
  }).catch(() => null);
  if (!verification?.verified) return { ok: false, reason: 'invalid' };
  const { credential } = verification.registrationInfo;
  const passkeyId = await insertPasskey(db, {
    userId: params.userId,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
    name: params.name,
  });
  return passkeyId ? { ok: true, passkeyId } : { ok: false, reason: 'duplicate' };
}

/** Options for a passwordless sign-in: no user named (discoverable credentials), user verification required. */
export async function authenticationOptions(
  db: Executor,
  params: { rp: RelyingParty },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({ rpID: params.rp.id, userVerification: 'required' });
  await storeChallenge(db, {
    challengeHash: hashChallenge(options.challenge),
    purpose: 'authenticate',
    userId: null,
    ttlSeconds: CHALLENGE_TTL_SECONDS,
  });
  return options;
}

/**
 * Verifies a sign-in assertion: the challenge is consumed first (so every try uses one up), then the credential must
 * be known, its signature valid over this origin and RP ID with the user verified, and its counter must move forward.
 * Returns the user, or null with no reason (the sign-in form says one thing whatever failed).
 */
export async function verifyPasskeySignIn(
  db: Executor,
  params: { response: AuthenticationResponseJSON; rp: RelyingParty },
) {
  const challenge = await takeChallenge(db, params.response.response.clientDataJSON, 'authenticate');
  if (!challenge) return null;
  const passkey = await getPasskeyByCredentialId(db, { credentialId: params.response.id });
  if (!passkey) return null;
  const verified = await verifyAssertion(db, { ...params, passkey, challenge, requireUserVerification: true });
  return verified ? getUserById(db, { userId: passkey.userId }) : null;
}

/**
 * Options for a passkey as the second factor after `userId`'s password passed (the caller checked it): a challenge
 * only that user's sign-in can take, naming only their credentials. Null when they have no passkey.
 */
export async function secondFactorOptions(
  db: Executor,
  params: { userId: string; rp: RelyingParty },
): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const credentials = await listCredentialIds(db, { userId: params.userId });
  if (credentials.length === 0) return null;
  // The password is the knowledge factor; the passkey adds possession, so a PIN or biometric is welcome, not required.
  const options = await generateAuthenticationOptions({
    rpID: params.rp.id,
    allowCredentials: credentials.map((c) => ({ id: c.id, transports: c.transports })),
    userVerification: 'preferred',
  });
  await storeChallenge(db, {
    challengeHash: hashChallenge(options.challenge),
    purpose: 'second_factor',
    userId: params.userId,
    ttlSeconds: CHALLENGE_TTL_SECONDS,
  });
  return options;
}

/**
 * Verifies a passkey as `userId`'s second factor: the challenge must be one issued to that user (consumed, so once),
 * the credential theirs (another user's passkey proves nothing about this one), the signature valid, the counter
 * moving forward. True only then.
 */
export async function verifySecondFactorPasskey(
  db: Executor,
  params: { userId: string; response: AuthenticationResponseJSON; rp: RelyingParty },
): Promise<boolean> {
  const { userId, response, rp } = params;
  const challenge = await takeChallenge(db, response.response.clientDataJSON, 'second_factor', userId);
  if (!challenge) return false;
  const passkey = await getPasskeyByCredentialId(db, { credentialId: response.id, userId });
  if (!passkey) return false;
  return verifyAssertion(db, { response, rp, passkey, challenge, requireUserVerification: false });
}

/** The signature over this origin and RP ID by the stored public key, then the use recorded if the counter moved on. */
async function verifyAssertion(
  db: Executor,
  params: {
    response: AuthenticationResponseJSON;
    rp: RelyingParty;
    passkey: Passkey;
    challenge: string;
    requireUserVerification: boolean;
  },
): Promise<boolean> {
  const { passkey, rp } = params;
  const verification = await verifyAuthenticationResponse({
    response: params.response,
    expectedChallenge: params.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: params.requireUserVerification,
    credential: {
      id: passkey.credentialId,
      publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
      counter: passkey.counter,
      transports: passkey.transports,
    },
  }).catch(() => null);
  if (!verification?.verified) return false;
  return recordPasskeyUse(db, { id: passkey.id, counter: verification.authenticationInfo.newCounter });
}
