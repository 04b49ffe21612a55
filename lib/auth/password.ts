import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCallback) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
// OWASP's first scrypt choice: N=2^17, r=8, p=1 needs 128 MiB (128·N·r bytes) per hash, ~0.4 s on one core.
// maxmem leaves headroom above that; Node refuses a derivation beyond it instead of exhausting memory.
export const SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const PARAMS = { ...SCRYPT_PARAMS, maxmem: 256 * 1024 * 1024 };
// Stored hashes above this cost are refused (not derived): a row cannot make sign-in allocate gigabytes.
const MAX_N = 2 ** 18;

/** `scrypt$N$r$p$salt$hash`, so the cost can be raised later without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  // A hash that decodes to (almost) nothing would compare equal to any password's empty derivation.
  if (expected.length < 16) return false;
  try {
    if (Number(n) > MAX_N) return false;
    const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: 2 * PARAMS.maxmem,
    });
    return timingSafeEqual(expected, actual);
  } catch {
    return false; // malformed cost parameters: not a match, not a crash of the sign-in route
  }
}

/** True for a hash made with a lower cost than today's: it is replaced after the next successful sign-in. */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return (
    scheme !== 'scrypt' || Number(n) < SCRYPT_PARAMS.N || Number(r) < SCRYPT_PARAMS.r || Number(p) < SCRYPT_PARAMS.p
  );
}

/** A hash to compare against when the user does not exist, at today's cost, so timing does not reveal which emails exist. */
export const DUMMY_PASSWORD_HASH = `scrypt$${SCRYPT_PARAMS.N}$${SCRYPT_PARAMS.r}$${SCRYPT_PARAMS.p}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;
