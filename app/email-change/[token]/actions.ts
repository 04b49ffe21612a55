'use server';

import { getDb } from '@/db/client';
import type { ActionState } from '@/lib/auth/action';
import { confirmEmailChange } from '@/lib/auth/email-change';
import { getSession, getUser } from '@/lib/auth/session';
import { logger } from '@/lib/logging/logger';

/** Follows the link with a POST (a mail scanner's GET changes nothing); only for the user who asked. */
export async function confirmEmailChangeAction(
  _previous: ActionState | undefined,
  formData: FormData,
): Promise<ActionState> {
  const [user, session] = await Promise.all([getUser(), getSession()]);
  if (!user) return { ok: false, status: 401, message: 'Sign in to confirm your new email.' };
  if (!(formData instanceof FormData)) return { ok: false, status: 400, message: 'This action takes a form.' };
  const token = String(formData.get('token') ?? '');
  // Every other session of the user ends with the change; this browser's stays signed in.
  const result = await confirmEmailChange(getDb(), {
    token,
    userId: user.id,
    keepSessionId: session?.sessionId ?? null,
  });
  if (!result.changed) {
    return result.reason === 'taken'
      ? {
          ok: false,
          status: 409,
          errors: { email: ['Another account now uses this email.'] },
          message: 'Another account now uses this email.',
        }
      : {
          ok: false,
          status: 404,
          message: 'This link is invalid, expired or already used. Ask for a new one in Settings → Security.',
        };
  }
  logger.info({ userId: user.id }, 'email changed');
  return { ok: true, message: `Your email is now ${result.email}. Your other sessions are signed out.` };
}
