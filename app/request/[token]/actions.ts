'use server';

import { getDb } from '@/db/client';
import { formDataToObject, type ActionState } from '@/lib/auth/action';
import { requestAddress } from '@/lib/auth/request-address';
import { logger } from '@/lib/logging/logger';
import { submitPostRequest } from '@/lib/requests/submit';

export type RequestFormData = { replayed: boolean };

/**
 * The client's submit, without a session (a public POST endpoint): the link's token, from the form, is the only
 * authority; the use case checks it, the rate limits and every field before anything is written.
 */
export async function submitRequestAction(
  _previous: ActionState<RequestFormData> | undefined,
  formData: FormData,
): Promise<ActionState<RequestFormData>> {
  if (!(formData instanceof FormData)) return { ok: false, status: 400, message: 'This action takes a form.' };
  const { token, ...fields } = formDataToObject(formData);
  try {
    const result = await submitPostRequest(getDb(), typeof token === 'string' ? token : '', fields, {
      address: requestAddress(),
    });
    switch (result.kind) {
      case 'received':
        return { ok: true, message: 'Thank you: your request was received.', data: { replayed: false } };
      case 'already_received':
        return {
          ok: true,
          message: 'Already received: this request reached the team before, nothing was sent twice.',
          data: { replayed: true },
        };
      case 'invalid':
        return { ok: false, status: 422, errors: result.errors, message: 'Please fix the highlighted fields.' };
      case 'refused':
        return { ok: false, message: `${result.title}: ${result.detail}` };
    }
  } catch (error) {
    logger.error({ err: error }, 'post request failed');
    return { ok: false, message: 'Something went wrong on our side; please send it again (it will not arrive twice).' };
  }
}
