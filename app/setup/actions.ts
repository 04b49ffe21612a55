'use server';

import { z } from 'zod';
import { getDb } from '@/db/client';
import { formDataToObject, type ActionState } from '@/lib/auth/action';
import { runSetup, setupFormSchema } from '@/lib/auth/first-run';
import { logger } from '@/lib/logging/logger';

export type SetupFormData = { email: string };

/**
 * The first run's submit, without a session (a public POST endpoint): the setup token from the server log is the
 * only authority. Every field is checked before anything is written; the setup itself is one transaction.
 */
export async function setupAction(
  _previous: ActionState<SetupFormData> | undefined,
  formData: FormData,
): Promise<ActionState<SetupFormData>> {
  if (!(formData instanceof FormData)) return { ok: false, status: 400, message: 'This action takes a form.' };
  const parsed = setupFormSchema.safeParse(formDataToObject(formData));
  if (!parsed.success) {
    return {
      ok: false,
      status: 422,
      errors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]>,
      message: 'Please fix the highlighted fields.',
    };
  }
  const { setupToken, ...input } = parsed.data;
  const result = await runSetup(getDb(), input, setupToken);
  switch (result.kind) {
    case 'done':
      logger.info({ userId: result.userId, workspace: result.workspaceSlug }, 'first run: set up');
      return {
        ok: true,
        message: 'Semel is set up. Sign in with your email and password.',
        data: { email: input.email },
      };
    case 'bad_token':
      logger.warn('first run: setup refused (wrong or missing setup token)');
      return {
        ok: false,
        status: 403,
        errors: { setupToken: ['This is not the setup token from the server log (or `npm run setup`).'] },
        message: 'The setup token is wrong. Nothing was saved.',
      };
    case 'already_set_up':
      return { ok: false, status: 409, message: 'Semel is already set up. Sign in instead.' };
    case 'slug_taken':
      return {
        ok: false,
        status: 409,
        errors: { slug: ['This slug is taken'] },
        message: 'Please fix the highlighted fields.',
      };
  }
}
