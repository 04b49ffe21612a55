'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { setWorkspaceRequireTwoFactor } from '@/db/queries/two-factor';
import { getUserCredentialsByEmail } from '@/db/queries/users';
import { workspaceAction, type ActionState } from '@/lib/auth/action';
import { requestEmailChange } from '@/lib/auth/email-change';
import { verifyPassword } from '@/lib/auth/password';
import { hasSecondFactor, secondFactorsOf } from '@/lib/auth/second-factor';
import { getUser } from '@/lib/auth/session';
import { verifySecondFactor, disableTotp } from '@/lib/auth/two-factor';
import { getEnv } from '@/lib/env';
import { logger } from '@/lib/logging/logger';

/**
 * Turns TOTP off, proved with a current code (or a recovery code) or the password: a stolen open session alone
 * cannot remove the second factor.
 */
export async function disableTotpAction(_previous: ActionState | undefined, formData: FormData): Promise<ActionState> {
  const user = await getUser();
  if (!user) return { ok: false, status: 401, message: 'Your session has ended. Sign in again.' };
  if (!(formData instanceof FormData)) return { ok: false, status: 400, message: 'This action takes a form.' };
  const proof = String(formData.get('proof') ?? '').slice(0, 1024);
  if (!proof.trim()) return { ok: false, status: 422, errors: { proof: ['Enter a current code or your password.'] } };
  const db = getDb();
  const byCode = await verifySecondFactor(db, {
    userId: user.id,
    encryptionKey: getEnv().APP_ENCRYPTION_KEY,
    code: proof.trim(),
  });
  const credentials = byCode ? null : await getUserCredentialsByEmail(db, { email: user.email });
  const byPassword = Boolean(credentials?.passwordHash && (await verifyPassword(proof, credentials.passwordHash)));
  if (!byCode && !byPassword) {
    return { ok: false, status: 422, errors: { proof: ['That is neither a current code nor your password.'] } };
  }
  await disableTotp(db, { userId: user.id });
  logger.info({ userId: user.id }, 'two-factor sign-in disabled');
  revalidatePath('/settings/security');
  return { ok: true, message: 'Two-factor sign-in is off.' };
}

/** Admins: members of this workspace must sign in with a second factor (those without one are sent to enrol). */
export const setRequireTwoFactorAction = workspaceAction(
  {
    name: 'setRequireTwoFactor',
    can: 'manageWorkspace',
    schema: z.object({ requireTwoFactor: z.enum(['on']).optional() }),
  },
  async ({ requireTwoFactor }, { workspace, user }) => {
    // As GitHub does: who requires it has it, so the rule never locks its own admin out of the page that lifts it.
    if (requireTwoFactor === 'on' && !hasSecondFactor(await secondFactorsOf(getDb(), user.id)))
      return {
        ok: false,
        status: 409,
        message: 'Set up two-factor sign-in for yourself first; then you can require it of the members.',
      };
    await setWorkspaceRequireTwoFactor(getDb(), { workspaceId: workspace.id, required: requireTwoFactor === 'on' });
    logger.info({ userId: user.id, workspaceId: workspace.id, required: requireTwoFactor === 'on' }, 'require 2FA');
    revalidatePath('/settings/security');
    return {
      ok: true,
      message:
        requireTwoFactor === 'on'
          ? 'Members now need two-factor sign-in; those without it set it up at their next page.'
          : 'Two-factor sign-in is no longer required.',
    };
  },
);

const emailChangeSchema = z.object({
  email: z.string().trim().toLowerCase().email('Enter an email address.').max(320, 'At most 320 characters.'),
  password: z.string().min(1, 'Enter your current password.').max(1024),
});

/** Sends a confirmation link to the new address; the email changes when it is followed (app/email-change). */
export const requestEmailChangeAction = workspaceAction(
  { name: 'requestEmailChange', can: 'read', schema: emailChangeSchema },
  async ({ email, password }, { user, workspace }) => {
    const env = getEnv();
    const result = await requestEmailChange(getDb(), {
      user,
      newEmail: email,
      password,
      workspaceId: workspace.id,
      origin: (env.NEXTAUTH_URL ?? 'http://localhost:3000').replace(/\/$/, ''),
      smtpUrl: env.SMTP_URL ?? null,
    });
    if (!result.ok) {
      if ('limited' in result) {
        logger.warn({ userId: user.id }, 'email change refused: rate limit');
        return { ok: false, status: 429, message: result.message };
      }
      return { ok: false, status: 422, errors: { [result.field]: [result.message] } };
    }
    logger.info({ userId: user.id }, 'email change requested');
    return {
      ok: true,
      message: `We sent a link to ${email}. Your email changes when you follow it (within 24 hours).`,
    };
  },
);
