import { createHash, randomBytes, randomInt } from 'node:crypto';

/** Only the hash of a sandbox token is stored; a leaked sandbox table does not leak tokens. */
export function hashSandboxToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new platform identity: a numeric user id (like X and Mastodon ids) and a bearer token. */
export function newSandboxIdentity(): { platformUserId: string; token: string; suffix: string } {
  const platformUserId = String(randomInt(100_000_000_000, 999_999_999_999)) + String(randomInt(100_000, 999_999)); // 18 digits
  const token = `sbx_${randomBytes(24).toString('base64url')}`;
  return { platformUserId, token, suffix: platformUserId.slice(-4) };
}
