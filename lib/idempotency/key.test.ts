import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprint } from './fingerprint';
import { checkIdempotencyKey } from './key';

describe('Idempotency-Key format', () => {
  it.each([
    ['a uuid', '0b6f8f0e-5d9c-4c1e-9f0a-0d1b2c3d4e5f', true],
    ['one character', 'a', true],
    ['255 printable characters', '~'.repeat(255), true],
    ['spaces and punctuation', 'order 42: retry #1', true],
    ['empty', '', false],
    ['256 characters', 'a'.repeat(256), false],
    ['a control character', 'ab\u0001c', false],
    ['a newline', 'ab\nc', false],
    ['non-ASCII', 'clé', false],
  ])('%s → %s', (_name, key, ok) => {
    expect(checkIdempotencyKey(key).ok).toBe(ok);
  });

  it('a missing key is refused with a message saying what to send', () => {
    const result = checkIdempotencyKey(null);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.detail).toMatch(/required/);
  });
});

describe('request fingerprint', () => {
  it('ignores object key order but not values or array order', () => {
    expect(canonicalJson({ b: 1, a: [2, 1] })).toBe('{"a":[2,1],"b":1}');
    expect(fingerprint({ a: 1, b: 2 })).toBe(fingerprint({ b: 2, a: 1 }));
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }));
    expect(fingerprint({ a: [1, 2] })).not.toBe(fingerprint({ a: [2, 1] }));
  });
});
