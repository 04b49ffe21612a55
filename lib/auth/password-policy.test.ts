import { describe, expect, it } from 'vitest';
import { checkNewPassword } from './password-policy';

describe('checkNewPassword: at least 12 characters and not a common password', () => {
  it('accepts a long uncommon password', () => {
    expect(checkNewPassword('violet kettle harbour 42')).toBeNull();
  });

  it('refuses 11 characters and accepts 12', () => {
    expect(checkNewPassword('kq7#vx2!mz9')).toMatch(/at least 12/);
    expect(checkNewPassword('kq7#vx2!mz9p')).toBeNull();
  });

  it('counts characters, not UTF-16 units (11 emoji are 22 units but 11 characters)', () => {
    expect(checkNewPassword('🔑'.repeat(11))).toMatch(/at least 12/);
    expect(checkNewPassword('🔑'.repeat(12))).toBeNull();
  });

  it('refuses passwords from the bundled list, whatever their case', () => {
    // Both are 12+ characters and in lib/auth/common-passwords.txt.
    expect(checkNewPassword('qwerty123456')).toMatch(/commonly used/);
    expect(checkNewPassword('1Q2W3E4R5T6Y')).toMatch(/commonly used/);
  });

  it('refuses blank and overlong passwords', () => {
    expect(checkNewPassword(' '.repeat(20))).toMatch(/only spaces/);
    expect(checkNewPassword('x'.repeat(1025))).toMatch(/at most 1024/);
  });
});
