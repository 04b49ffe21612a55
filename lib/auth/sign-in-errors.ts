import type { SecondFactors } from './second-factor';

/** What a refused sign-in reports (next-auth hands the message to the form as `error`); no React, no database. */
export const SIGN_IN_ERRORS = {
  invalid: 'InvalidCredentials',
  throttled: 'TooManyAttempts',
  /** The password was right; the user has a second factor and sent none: the form asks for one. */
  twoFactorRequired: 'TwoFactorRequired',
  /** The password was right, the code was not (or was used already): counted as a failed attempt. */
  wrongCode: 'InvalidCode',
  /** A passkey refused: the passwordless sign-in, or the second factor after a password (counted as failed). */
  passkey: 'PasskeyRefused',
  /** The password was right, but the account has no passkey to ask for as its second factor. */
  noPasskey: 'NoPasskey',
} as const;

export type SecondFactorKind = 'totp' | 'passkey';

/**
 * TwoFactorRequired names the factors the form may offer: `TwoFactorRequired:totp`, `:passkey` or `:totp,passkey`.
 * Only sent after the right password, so it tells nothing to someone who does not know it.
 */
export function twoFactorRequiredError(factors: SecondFactors): string {
  const kinds: SecondFactorKind[] = [];
  if (factors.totp) kinds.push('totp');
  if (factors.passkeys > 0) kinds.push('passkey');
  return `${SIGN_IN_ERRORS.twoFactorRequired}:${kinds.join(',')}`;
}

/** The factors a TwoFactorRequired error offers; null for any other error. */
export function offeredSecondFactors(error: string | null | undefined): SecondFactorKind[] | null {
  const [name, list] = (error ?? '').split(':');
  if (name !== SIGN_IN_ERRORS.twoFactorRequired) return null;
  const kinds = (list ?? '').split(',').filter((k): k is SecondFactorKind => k === 'totp' || k === 'passkey');
  // A bare TwoFactorRequired (no list) is the code, as before passkeys counted.
  return kinds.length > 0 ? kinds : ['totp'];
}
