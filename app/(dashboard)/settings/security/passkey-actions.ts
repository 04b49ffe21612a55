'use server';

import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { deletePasskey } from '@/db/queries/passkeys';
import type { ActionState } from '@/lib/auth/action';
import { parseRegistrationResponse, registerPasskey, registrationOptions, relyingParty } from '@/lib/auth/passkeys';
import { getUser } from '@/lib/auth/session';
import { logger } from '@/lib/logging/logger';

const SIGNED_OUT = { ok: false, status: 401, message: 'Your session has ended. Sign in again.' } as const;
const NOT_A_FORM = { ok: false, status: 400, message: 'This action takes a form.' } as const;

/** Step 1 of adding a passkey: options for the browser, with a fresh single-use challenge bound to the caller. */
export async function passkeyRegistrationOptionsAction(): Promise<ActionState<PublicKeyCredentialCreationOptionsJSON>> {
  const user = await getUser();
  if (!user) return SIGNED_OUT;
  const options = await registrationOptions(getDb(), {
    userId: user.id,
    email: user.email,
    name: user.name,
    rp: relyingParty(),
  });
  return { ok: true, data: options };
}

const registerSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the passkey a name (e.g. "Work laptop").')
    .max(60, 'At most 60 characters.')
    .refine((v) => !v.includes('\u0000'), 'Use letters, digits and spaces.'),
  response: z.string().min(1).max(65_536),
});

const REGISTER_REFUSED = {
  challenge: 'The passkey prompt took too long or was already used. Try again.',
  invalid: 'The passkey could not be verified. Try again.',
  duplicate: 'This passkey is already registered.',
} as const;

/** Step 2: verifies the authenticator's response against the caller's own challenge and stores the public key. */
export async function registerPasskeyAction(
  _previous: ActionState | undefined,
  formData: FormData,
): Promise<ActionState> {
  const user = await getUser();
  if (!user) return SIGNED_OUT;
  if (!(formData instanceof FormData)) return NOT_A_FORM;
  const parsed = registerSchema.safeParse({ name: formData.get('name'), response: formData.get('response') });
  if (!parsed.success) {
    return { ok: false, status: 422, message: 'Check the form.', errors: z.flattenError(parsed.error).fieldErrors };
  }
  const response = parseRegistrationResponse(parsed.data.response);
  if (!response) return { ok: false, status: 422, message: REGISTER_REFUSED.invalid };
  const result = await registerPasskey(getDb(), {
    userId: user.id,
    response,
    name: parsed.data.name,
    rp: relyingParty(),
  });
  if (!result.ok)
    return { ok: false, status: result.reason === 'duplicate' ? 409 : 422, message: REGISTER_REFUSED[result.reason] };
  logger.info({ userId: user.id, passkeyId: result.passkeyId }, 'passkey registered');
  revalidatePath('/settings/security');
  revalidatePath('/two-factor'); // the enrol page offers passkeys too
  return { ok: true, message: `Passkey "${parsed.data.name}" added.` };
}

const removeSchema = z.object({ passkeyId: z.uuid() });

/** Removes one of the caller's passkeys (another user's id matches nothing). */
export async function removePasskeyAction(
  _previous: ActionState | undefined,
  formData: FormData,
): Promise<ActionState> {
  const user = await getUser();
  if (!user) return SIGNED_OUT;
  if (!(formData instanceof FormData)) return NOT_A_FORM;
  const parsed = removeSchema.safeParse({ passkeyId: formData.get('passkeyId') });
  if (!parsed.success) return { ok: false, status: 422, message: 'Choose a passkey to remove.' };
  const removed = await deletePasskey(getDb(), { id: parsed.data.passkeyId, userId: user.id });
  if (!removed) return { ok: false, status: 404, message: 'That passkey has already been removed.' };
  logger.info({ userId: user.id, passkeyId: parsed.data.passkeyId }, 'passkey removed');
  revalidatePath('/settings/security');
  revalidatePath('/two-factor'); // the enrol page offers passkeys too
  return { ok: true, message: 'Passkey removed.' };
}
