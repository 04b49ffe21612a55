import { describe, expect, it } from 'vitest';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './password';

describe('password hashing (scrypt)', () => {
  it('verifies the password it hashed', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(hash).not.toContain('correct horse');
    await expect(verifyPassword('correct horse battery staple', hash)).resolves.toBe(true);
  });

  it('salts: the same password hashes differently each time', async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    expect(a).not.toBe(b);
  });

  it('rejects a wrong password', async () => {
    const hash = await hashPassword('right password');
    await expect(verifyPassword('wrong password', hash)).resolves.toBe(false);
    await expect(verifyPassword('', hash)).resolves.toBe(false);
    await expect(verifyPassword('Right password', hash)).resolves.toBe(false);
  });

  it('returns false (never throws, never matches) for malformed hashes', async () => {
    const [, , , , salt, hash] = (await hashPassword('pw-123456')).split('$');
    const malformed = [
      '',
      'not-a-hash',
      'bcrypt$2b$10$abcdefghijklmnopqrstuv',
      'scrypt$16384$8$1$',
      `scrypt$abc$8$1$${salt}$${hash}`, // non-numeric cost
      `scrypt$1073741824$8$1$${salt}$${hash}`, // cost beyond the memory limit
      `scrypt$16384$8$1$${salt}$!!!!`, // hash part decodes to nothing: must not match everything
    ];
    for (const stored of malformed) {
      await expect(verifyPassword('pw-123456', stored), stored).resolves.toBe(false);
    }
  });

  it('the dummy hash used for unknown users matches no password', async () => {
    await expect(verifyPassword('semel-demo', DUMMY_PASSWORD_HASH)).resolves.toBe(false);
    await expect(verifyPassword('', DUMMY_PASSWORD_HASH)).resolves.toBe(false);
  });
});
