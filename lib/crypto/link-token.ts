import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** `<link id>.<secret>`: the id finds the row, the secret (32 random bytes) proves the link; only its hash is kept. */
const tokenSchema = z.string().regex(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);

export const hashLinkSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A new link secret and the hash to store (the secret itself is shown once, never stored). */
export function newLinkSecret() {
  const secret = randomBytes(32).toString('base64url');
  return { secret, secretHash: hashLinkSecret(secret) };
}

/** The link id of a well-formed token, with its secret; null for anything else (a 404, without a query). */
export function parseLinkToken(token: string): { id: string; secret: string } | null {
  if (!tokenSchema.safeParse(token).success) return null;
  const [id, secret] = token.split('.') as [string, string];
  return z.uuid().safeParse(id).success ? { id, secret } : null;
}

/** Whether the secret matches the stored hash, in constant time. */
export function linkSecretMatches(secret: string, secretHash: string): boolean {
  const given = Buffer.from(hashLinkSecret(secret), 'hex');
  const stored = Buffer.from(secretHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
