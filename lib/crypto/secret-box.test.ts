import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCipheriv, randomUUID } from 'node:crypto';
import { decryptSecret, encryptSecret, isLegacySealed } from './secret-box';

const key = randomBytes(32).toString('base64');
const otherKey = randomBytes(32).toString('base64');
const AD = randomUUID();
const secret = JSON.stringify({ accessToken: 'sbx_0123456789abcdef', refreshToken: 'rt-ü-✓' });

/** Flips one bit in the base64url part at `index` of `v2.<iv>.<tag>.<ciphertext>`. */
function tamper(sealed: string, index: 1 | 2 | 3): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index]!, 'base64url');
  bytes[0] = bytes[0]! ^ 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('secret box (AES-256-GCM)', () => {
  it('decrypts what it encrypted, including non-ASCII text', () => {
    const sealed = encryptSecret(secret, key, AD);
    expect(sealed.startsWith('v2.')).toBe(true);
    expect(sealed).not.toContain('sbx_0123456789abcdef');
    expect(decryptSecret(sealed, key, AD)).toBe(secret);
  });

  it('encrypts the same text differently each time (random IV)', () => {
    const a = encryptSecret(secret, key, AD);
    const b = encryptSecret(secret, key, AD);
    expect(a).not.toBe(b);
    expect(decryptSecret(a, key, AD)).toBe(decryptSecret(b, key, AD));
  });

  it.each([
    ['ciphertext', 3],
    ['auth tag', 2],
    ['IV', 1],
  ] as const)('throws when the %s is tampered with', (_part, index) => {
    const sealed = encryptSecret(secret, key, AD);
    expect(() => decryptSecret(tamper(sealed, index), key, AD)).toThrow();
  });

  it('throws with the wrong key', () => {
    const sealed = encryptSecret(secret, key, AD);
    expect(() => decryptSecret(sealed, otherKey, AD)).toThrow();
  });

  it('throws on an unrecognised format', () => {
    expect(() => decryptSecret('plain-text-token', key, AD)).toThrow(/format/);
    expect(() => decryptSecret(encryptSecret(secret, key, AD).replace(/^v2/, 'v9'), key, AD)).toThrow(/format/);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => encryptSecret(secret, randomBytes(16).toString('base64'), AD)).toThrow(/APP_ENCRYPTION_KEY/);
  });

  it('binds the value to its associated data: sealed for one account, it does not open for another', () => {
    const sealed = encryptSecret(secret, key, AD);
    expect(decryptSecret(sealed, key, AD)).toBe(secret);
    expect(() => decryptSecret(sealed, key, randomUUID())).toThrow();
    expect(() => decryptSecret(sealed, key, '')).toThrow();
  });

  it('writes a 16-byte tag and refuses a shorter one (GCM would otherwise accept 4-byte tags)', () => {
    const sealed = encryptSecret(secret, key, AD);
    const [version, iv, tag, body] = sealed.split('.');
    expect(Buffer.from(tag!, 'base64url')).toHaveLength(16);
    const truncated = [version, iv, Buffer.from(tag!, 'base64url').subarray(0, 4).toString('base64url'), body].join(
      '.',
    );
    expect(() => decryptSecret(truncated, key, AD)).toThrow(/tag/);
  });

  it('still opens legacy v1 values (sealed without associated data) so they can be re-sealed', () => {
    const iv = Buffer.alloc(12, 1);
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64'), iv);
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    const legacy = [
      'v1',
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      body.toString('base64url'),
    ].join('.');
    expect(isLegacySealed(legacy)).toBe(true);
    expect(isLegacySealed(encryptSecret(secret, key, AD))).toBe(false);
    expect(decryptSecret(legacy, key, AD)).toBe(secret);
    expect(() => decryptSecret(legacy, otherKey, AD)).toThrow();
  });
});
