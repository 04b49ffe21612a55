import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'sm_live_';

/** A new API key: shown once; only its SHA-256 is stored (keys are high-entropy, so no slow hash is needed). */
export function generateApiKey(): { token: string; prefix: string; hash: string } {
  const token = PREFIX + randomBytes(24).toString('base64url');
  return { token, prefix: token.slice(0, PREFIX.length + 6), hash: hashApiKey(token) };
}

export function hashApiKey(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
