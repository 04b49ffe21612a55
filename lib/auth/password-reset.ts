import type { Database } from '@/db/client';
import {
  countResetRequest,
  insertPasswordToken,
  prunePasswordRows,
  storeAccountOutboxEmail,
  consumePasswordToken,
  type PasswordTokenPurpose,
} from '@/db/queries/password-tokens';
import { getUserCredentialsByEmail } from '@/db/queries/users';
import { getEnv } from '@/lib/env';
import { logger } from '@/lib/logging/logger';
import { maskPersonalText } from '@/lib/logging/mask';
import type { EmailMessage } from '@/lib/notifications/compose';
import { sendSmtpEmail } from '@/lib/notifications/mailer';
import { UNKNOWN_ADDRESS } from './client-address';
import { hashOneTimeToken, newOneTimeToken } from './first-run';
import { hashPassword } from './password';
import { checkNewPassword } from './password-policy';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** A password-set link from `npm run setup`: long enough to reach the admin through a deploy log. */
export const SET_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_WINDOW_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Per email: enough for a lost email or two, too few to flood someone's inbox. */
export const MAX_RESETS_PER_EMAIL = 3;
/** Per client address across emails: one address cannot mail the whole user list. */
export const MAX_RESETS_PER_ADDRESS = 10;

/** The one path a password link is built on: NEXTAUTH_URL, never the request's Host header (which a sender picks). */
export function passwordLink(token: string, origin = getEnv().NEXTAUTH_URL ?? 'http://localhost:3000'): string {
  return `${origin.replace(/\/$/, '')}/password?token=${encodeURIComponent(token)}`;
}

/** A new one-time password link for a user; only its hash is stored. */
export async function createPasswordLink(
  db: Database,
  params: { userId: string; purpose: PasswordTokenPurpose; now?: Date; origin?: string },
) {
  const token = newOneTimeToken();
  const ttl = params.purpose === 'reset' ? RESET_TOKEN_TTL_MS : SET_TOKEN_TTL_MS;
  const expiresAt = new Date((params.now ?? new Date()).getTime() + ttl);
  await insertPasswordToken(db, {
    userId: params.userId,
    purpose: params.purpose,
    tokenHash: hashOneTimeToken(token),
    expiresAt,
  });
  return { url: passwordLink(token, params.origin), expiresAt };
}

export type ResetRequestResult = {
  /** Always the same answer to the browser: `limited` only changes what is logged and whether an email goes. */
  limited: boolean;
  /** Sends the email, if there is one to send; run after the answer, so timing does not tell known emails apart. */
  deliver: () => Promise<void>;
};

/**
 * "Forgot password": counts the request per email and per address (both windows, each one upsert) and returns a
 * `deliver` that, for a known email within the limits, makes a reset link and emails it. An unknown email gets
 * exactly the same result, and its `deliver` sends nothing.
 */
export async function requestPasswordReset(
  db: Database,
  params: { email: string; address: string; now?: Date; origin?: string; smtpUrl?: string | null },
): Promise<ResetRequestResult> {
  const email = params.email.trim().toLowerCase();
  const windowMs = RESET_WINDOW_MS;
  const perEmail = await countResetRequest(db, { key: `email:${email}`, windowMs, now: params.now });
  // Requests without a known address share one bucket; refusing it would refuse everyone (as sign-in does).
  const perAddress =
    params.address === UNKNOWN_ADDRESS
      ? 0
      : await countResetRequest(db, { key: `ip:${params.address}`, windowMs, now: params.now });
  const nothing = async () => {};
  if (perEmail > MAX_RESETS_PER_EMAIL || perAddress > MAX_RESETS_PER_ADDRESS) {
    logger.warn({ perAddress }, 'password reset refused: rate limit');
    return { limited: true, deliver: nothing };
  }
  // Both answers make the same queries before answering: the link is made, like the email sent, in `deliver`.
  const user = await getUserCredentialsByEmail(db, { email });
  const deliver = async () => {
    const now = (params.now ?? new Date()).getTime();
    // Windows that have ended, and links a day past their expiry (kept that long to tell "expired" in support).
    await prunePasswordRows(db, {
      windowsBefore: new Date(now - RESET_WINDOW_MS),
      tokensBefore: new Date(now - DAY_MS),
    });
    if (!user) return;
    const link = await createPasswordLink(db, {
      userId: user.id,
      purpose: 'reset',
      now: params.now,
      origin: params.origin,
    });
    await deliverAccountEmail(db, {
      userId: user.id,
      message: resetEmail(user.email, link.url),
      smtpUrl: params.smtpUrl,
    });
  };
  return { limited: false, deliver };
}

function resetEmail(to: string, url: string): EmailMessage {
  return {
    to,
    subject: 'Reset your Semel password',
    text: [
      `Someone (we hope you) asked to reset the password of ${to} on Semel.`,
      '',
      'Choose a new password here (the link works once, for one hour):',
      url,
      '',
      'Setting a new password signs you out on every other device. If you did not ask, ignore this email:',
      'your password stays as it is.',
    ].join('\n'),
  };
}

/**
 * An account email (not a workspace notification): through SMTP_URL when set, else into the Outbox of the user's
 * first workspace (the development path, as notifications). A failure is logged without the address or the link.
 */
export async function deliverAccountEmail(
  db: Database,
  params: { userId: string; message: EmailMessage; smtpUrl?: string | null },
) {
  const smtpUrl = params.smtpUrl === undefined ? (getEnv().SMTP_URL ?? null) : params.smtpUrl;
  try {
    if (smtpUrl) await sendSmtpEmail(smtpUrl, params.message);
    else if (!(await storeAccountOutboxEmail(db, { userId: params.userId, ...params.message })))
      logger.warn({ userId: params.userId }, 'account email not stored: the user has no workspace Outbox');
  } catch (error) {
    const reason = maskPersonalText(error instanceof Error ? error.message : String(error));
    logger.error({ userId: params.userId, error: reason }, 'account email failed');
  }
}

export type SetPasswordResult =
  { kind: 'done'; email: string } | { kind: 'invalid'; error: string } | { kind: 'ended' };

/**
 * Sets a password through a one-time link (reset or set): the policy first (a weak password leaves the link
 * usable), then one statement that uses the token, sets the hash and ends every session of the user.
 */
export async function setPasswordWithToken(
  db: Database,
  params: { token: string; password: string; now?: Date },
): Promise<SetPasswordResult> {
  const problem = checkNewPassword(params.password);
  if (problem) return { kind: 'invalid', error: problem };
  const passwordHash = await hashPassword(params.password);
  const used = await consumePasswordToken(db, {
    tokenHash: hashOneTimeToken(params.token),
    passwordHash,
    now: params.now,
  });
  return used ? { kind: 'done', email: used.email } : { kind: 'ended' };
}
