import { createHash, randomBytes } from 'node:crypto';

// PKCE (RFC 7636) with S256, and the OAuth state, from node:crypto: three small functions, no library needed.

/** 32 random bytes, base64url: a 43-character verifier (RFC 7636 §4.1 allows 43–128 unreserved characters). */
export function newCodeVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** S256: BASE64URL(SHA-256(ASCII(verifier))), without padding (RFC 7636 §4.2). */
export function codeChallengeOf(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** The `state` parameter: unguessable, single use; only its hash is stored. */
export function newState(): string {
  return randomBytes(32).toString('base64url');
}

export function hashState(state: string): string {
  return createHash('sha256').update(state).digest('hex');
}

/** A verifier is 43–128 characters from [A-Z a-z 0-9 - . _ ~] (RFC 7636 §4.1). */
export const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
