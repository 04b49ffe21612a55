'use server';

import { z } from 'zod';
import { getDb } from '@/db/client';
import type { ActionState } from '@/lib/auth/action';
import { getUser } from '@/lib/auth/session';
import { confirmTotp } from '@/lib/auth/two-factor';
import { getEnv } from '@/lib/env';
import { logger } from '@/lib/logging/logger';

const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{3} ?\d{3}$/, 'Enter the 6-digit code from your app.'),
});

/** Turns TOTP on with a current code; the ten recovery codes come back once, to be shown and never again. */
export async function confirmTotpAction(
  _previous: ActionState<{ recoveryCodes: string[] }> | undefined,
  formData: FormData,
): Promise<ActionState<{ recoveryCodes: string[] }>> {
  const user = await getUser();
  if (!user) return { ok: false, status: 401, message: 'Your session has ended. Sign in again.' };
  if (!(formData instanceof FormData)) return { ok: false, status: 400, message: 'This action takes a form.' };
  const parsed = codeSchema.safeParse({ code: formData.get('code') ?? '' });
  if (!parsed.success) return { ok: false, status: 422, errors: { code: [parsed.error.issues[0]!.message] } };
  const result = await confirmTotp(getDb(), {
    userId: user.id,
    encryptionKey: getEnv().APP_ENCRYPTION_KEY,
    code: parsed.data.code,
  });
  if (!result.ok) {
    return result.reason === 'not_pending'
      ? { ok: false, status: 409, message: 'Two-factor sign-in is already on (or the setup expired): reload the page.' }
      : {
          ok: false,
          status: 422,
          errors: { code: ['That code does not match. Enter the current code from your app.'] },
        };
  }
  logger.info({ userId: user.id }, 'two-factor sign-in enabled');
  return { ok: true, message: 'Two-factor sign-in is on.', data: { recoveryCodes: result.recoveryCodes } };
}
