'use server';

import { after } from 'next/server';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { formDataToObject, type ActionState } from '@/lib/auth/action';
import { requestPasswordReset, setPasswordWithToken } from '@/lib/auth/password-reset';
import { requestAddress } from '@/lib/auth/request-address';

const forgotSchema = z.object({ email: z.string().trim().toLowerCase().email('Enter an email address').max(320) });

/** The answer to every well-formed request, known email or not, within the limits or not. */
const SENT = 'If an account uses this email, a reset link is on its way. It works once, for one hour.';

/**
 * "Forgot password" (public): the same answer whether or not the email exists and whether or not a limit was
 * reached; the email itself goes out after the answer, so its timing does not tell either.
 */
export async function forgotPasswordAction(
  _previous: ActionState | undefined,
  formData: FormData,
): Promise<ActionState> {
  if (!(formData instanceof FormData)) return { ok: false, status: 400, message: 'This action takes a form.' };
  const parsed = forgotSchema.safeParse(formDataToObject(formData));
  if (!parsed.success)
    return {
      ok: false,
      status: 422,
      errors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]>,
      message: 'Please fix the highlighted fields.',
    };
  const { deliver } = await requestPasswordReset(getDb(), { email: parsed.data.email, address: requestAddress() });
  after(deliver);
  return { ok: true, message: SENT };
}

const setSchema = z.object({ token: z.string().min(1).max(200), password: z.string().max(2048) });

/** Sets a password through a one-time link (public: the link's token is the only authority). */
export async function setPasswordAction(_previous: ActionState | undefined, formData: FormData): Promise<ActionState> {
  if (!(formData instanceof FormData)) return { ok: false, status: 400, message: 'This action takes a form.' };
  const parsed = setSchema.safeParse(formDataToObject(formData));
  if (!parsed.success)
    return { ok: false, status: 422, message: 'This link is incomplete. Open it from the email again.' };
  const result = await setPasswordWithToken(getDb(), parsed.data);
  switch (result.kind) {
    case 'done':
      return { ok: true, message: 'Your password is set. Every other session is signed out. Sign in with it now.' };
    case 'invalid':
      return {
        ok: false,
        status: 422,
        errors: { password: [result.error] },
        message: 'Please fix the highlighted field.',
      };
    case 'ended':
      return {
        ok: false,
        status: 409,
        message: 'This link has been used or has expired. Ask for a new one from “Forgot password”.',
      };
  }
}
