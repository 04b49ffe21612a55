import { readFileSync } from 'node:fs';
import path from 'node:path';

/** NIST SP 800-63B's advice: length over composition rules, and no password from a list of known ones. */
export const MIN_PASSWORD_LENGTH = 12;
/** Sign-in accepts at most this many characters (lib/auth/credentials.ts): a longer password could never sign in. */
export const MAX_PASSWORD_LENGTH = 1024;

// Read from the working directory, not bundled: the server (and the standalone build, through
// outputFileTracingIncludes in next.config.js) and the scripts all run from the repository root.
const LIST_FILE = path.join(process.cwd(), 'lib/auth/common-passwords.txt');
let common: Set<string> | null = null;

function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(LIST_FILE, 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return common;
}

/**
 * The one check for a password someone chooses (setup, password set and reset, invitations): an error message to
 * show beside the field, or null when the password is acceptable. Passwords written by the demo seed skip it.
 */
export function checkNewPassword(password: string): string | null {
  // Characters, not UTF-16 units: an emoji counts once.
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (password.trim() === '') return 'A password cannot be only spaces.';
  if (commonPasswords().has(password.toLowerCase()))
    return 'This password is on a list of commonly used passwords. Choose another.';
  return null;
}
