import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const CURRENT = 'v2';
const LEGACY = 'v1';
const TAG_BYTES = 16;

/**
 * AES-256-GCM; output `v2.<iv>.<tag>.<ciphertext>` (base64url). `associatedData` (e.g. the owning row's id)
 * is authenticated, not stored: a sealed value copied onto another row no longer opens. The 16-byte tag
 * is pinned on both sides, so a truncated tag cannot be accepted.
 */
export function encryptSecret(plaintext: string, keyBase64: string, associatedData: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', decodeKey(keyBase64), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    CURRENT,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

/** Opens v2 (with the same associated data) and legacy v1 values (sealed without any; see isLegacySealed). */
export function decryptSecret(sealed: string, keyBase64: string, associatedData: string): string {
  const [version, iv, tag, body, extra] = sealed.split('.');
  if ((version !== CURRENT && version !== LEGACY) || !iv || !tag || body === undefined || extra !== undefined) {
    throw new Error('Unrecognised encrypted secret format');
  }
  const tagBytes = Buffer.from(tag, 'base64url');
  if (tagBytes.length !== TAG_BYTES) throw new Error('Encrypted secret has a truncated authentication tag');
  const decipher = createDecipheriv('aes-256-gcm', decodeKey(keyBase64), Buffer.from(iv, 'base64url'), {
    authTagLength: TAG_BYTES,
  });
  if (version === CURRENT) decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(tagBytes);
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** Sealed before associated data existed: still opens, and is re-sealed at start (lib/providers/reseal-credentials.ts). */
export function isLegacySealed(sealed: string): boolean {
  return sealed.startsWith(`${LEGACY}.`);
}

function decodeKey(keyBase64: string): Buffer {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new Error('APP_ENCRYPTION_KEY must be 32 bytes (base64)');
  return key;
}
