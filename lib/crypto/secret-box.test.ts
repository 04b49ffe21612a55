import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from './secret-box';

const key = randomBytes(32).toString('base64');
const otherKey = randomBytes(32).toString('base64');
const secret = JSON.stringify({ accessToken: 'sbx_0123456789abcdef', refreshToken: 'rt-ü-✓' });

/** Flips one bit in the base64url part at `index` of `v1.<iv>.<tag>.<ciphertext>`. */
function tamper(sealed: string, index: 1 | 2 | 3): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index]!, 'base64url');
  bytes[0] = bytes[0]! ^ 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('secret box (AES-256-GCM)', () => {
  it('decrypts what it encrypted, including non-ASCII text', () => {
    const sealed = encryptSecret(secret, key);
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(sealed).not.toContain('sbx_0123456789abcdef');
    expect(decryptSecret(sealed, key)).toBe(secret);
  });

  it('encrypts the same text differently each time (random IV)', () => {
    const a = encryptSecret(secret, key);
    const b = encryptSecret(secret, key);
    expect(a).not.toBe(b);
    expect(decryptSecret(a, key)).toBe(decryptSecret(b, key));
  });

  it.each([
    ['ciphertext', 3],
    ['auth tag', 2],
    ['IV', 1],
  ] as const)('throws when the %s is tampered with', (_part, index) => {
    const sealed = encryptSecret(secret, key);
    expect(() => decryptSecret(tamper(sealed, index), key)).toThrow();
  });

  it('throws with the wrong key', () => {
    const sealed = encryptSecret(secret, key);
    expect(() => decryptSecret(sealed, otherKey)).toThrow();
  });

  it('throws on an unrecognised format', () => {
    expect(() => decryptSecret('plain-text-token', key)).toThrow(/format/);
    expect(() => decryptSecret(encryptSecret(secret, key).replace(/^v1/, 'v9'), key)).toThrow(/format/);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => encryptSecret(secret, randomBytes(16).toString('base64'))).toThrow(/APP_ENCRYPTION_KEY/);
  });
});
