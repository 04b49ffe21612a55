import type { Database, Executor } from '@/db/client';
import {
  deleteTotp,
  enableTotp,
  getTotpFactor,
  savePendingTotp,
  spendRecoveryCode,
  spendTotpStep,
} from '@/db/queries/two-factor';
import { decryptSecret, encryptSecret } from '@/lib/crypto/secret-box';
import {
  hashRecoveryCode,
  looksLikeTotpCode,
  matchingTotpStep,
  newRecoveryCodes,
  newTotpSecret,
  normalizeRecoveryCode,
} from './totp';

/** The secret is sealed with the user's id as associated data: copied onto another user's row it no longer opens. */
const seal = (secret: string, key: string, userId: string) => encryptSecret(secret, key, `totp:${userId}`);
const open = (sealed: string, key: string, userId: string) => decryptSecret(sealed, key, `totp:${userId}`);

type Keyed = { userId: string; encryptionKey: string };

/**
 * The secret being enrolled (a new one stored when none is pending), or null when TOTP is already on: shown on
 * the enrol page as a QR code and as text, and confirmed with a code before sign-in asks for it.
 */
export async function pendingTotpSecret(db: Executor, params: Keyed): Promise<string | null> {
  const factor = await getTotpFactor(db, params);
  if (factor?.enabledAt) return null;
  if (factor) return open(factor.secretSealed, params.encryptionKey, params.userId);
  const secret = newTotpSecret();
  await savePendingTotp(db, { userId: params.userId, secretSealed: seal(secret, params.encryptionKey, params.userId) });
  // Two tabs enrolling at once: the stored one wins, whichever that is.
  const stored = await getTotpFactor(db, params);
  return stored && !stored.enabledAt ? open(stored.secretSealed, params.encryptionKey, params.userId) : null;
}

export type ConfirmResult = { ok: true; recoveryCodes: string[] } | { ok: false; reason: 'wrong_code' | 'not_pending' };

/** Turns TOTP on when the code matches the pending secret; returns the ten recovery codes to show once. */
export async function confirmTotp(db: Database, params: Keyed & { code: string }): Promise<ConfirmResult> {
  const factor = await getTotpFactor(db, params);
  if (!factor || factor.enabledAt) return { ok: false, reason: 'not_pending' };
  const step = matchingTotpStep(open(factor.secretSealed, params.encryptionKey, params.userId), params.code);
  if (step === null) return { ok: false, reason: 'wrong_code' };
  const { codes, hashes } = newRecoveryCodes();
  if (!(await enableTotp(db, { userId: params.userId, step, codeHashes: hashes }))) {
    return { ok: false, reason: 'wrong_code' };
  }
  return { ok: true, recoveryCodes: codes };
}

/**
 * Checks a second factor at sign-in: a six-digit code against the enabled secret (its step spent, so a replay
 * fails), anything else as a recovery code (spent too). True only for a code that was not used before.
 */
export async function verifySecondFactor(db: Executor, params: Keyed & { code: string }): Promise<boolean> {
  const factor = await getTotpFactor(db, params);
  if (!factor?.enabledAt) return false;
  if (looksLikeTotpCode(params.code)) {
    const step = matchingTotpStep(open(factor.secretSealed, params.encryptionKey, params.userId), params.code);
    return step !== null && (await spendTotpStep(db, { userId: params.userId, step }));
  }
  if (normalizeRecoveryCode(params.code).length !== 10) return false;
  return spendRecoveryCode(db, { userId: params.userId, codeHash: hashRecoveryCode(params.code) });
}

/** Turns TOTP off (the caller proved it with a current code or the password). */
export async function disableTotp(db: Database, params: { userId: string }) {
  await deleteTotp(db, params);
}
