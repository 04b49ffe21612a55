import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 defaults that every authenticator app reads: SHA-1, 6 digits, 30 s steps. */
export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = 'Semel';
export const RECOVERY_CODE_COUNT = 10;

const totpFor = (secretBase32: string, label = '') =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });

/** A new 160-bit secret, base32 (what apps accept for manual entry). */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

/** The otpauth:// URI the QR code carries. */
export const totpUri = (secretBase32: string, email: string) => totpFor(secretBase32, email).toString();

/** A code as typed: digits only, spaces allowed ("123 456"). */
export const normalizeTotpCode = (code: string) => code.replace(/\s+/g, '');
export const looksLikeTotpCode = (code: string) => /^\d{6}$/.test(normalizeTotpCode(code));

/**
 * The time step a code belongs to, accepting one step either side of now (clock drift), or null for a wrong code.
 * The step, not the code, is what is spent: the caller records it so the same code cannot sign in twice.
 */
export function matchingTotpStep(secretBase32: string, code: string, now = Date.now()): number | null {
  const token = normalizeTotpCode(code);
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpFor(secretBase32).validate({ token, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

// Crockford-like lowercase alphabet without look-alikes (0/o, 1/l/i): 32 symbols, 5 bits each.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code as shown: `xxxxx-xxxxx` (50 random bits: only ever tried through the sign-in limits). */
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export const normalizeRecoveryCode = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, '');

/** Only this is stored: the codes are random, so a plain SHA-256 cannot be reversed by guessing. */
export const hashRecoveryCode = (code: string) =>
  createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');

/** Ten fresh codes, to be shown once, and their hashes, to be stored. */
export function newRecoveryCodes() {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { codes, hashes: codes.map(hashRecoveryCode) };
}
