import { createHash } from 'node:crypto';

// PKCE as the sandbox's OAuth server checks it (RFC 7636 §4.1, §4.6), written apart from the product's
// lib/oauth/pkce.ts: a bug in the product's challenge must fail the exchange here, not agree with itself.

/** A verifier is 43–128 characters from [A-Z a-z 0-9 - . _ ~]. */
export const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** S256: BASE64URL(SHA-256(ASCII(verifier))), without padding. */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
