import { keyProblem, storedResponse } from '@/lib/http/idempotent-response';
import { problem } from '@/lib/http/problem';
import type { UploadMediaResult } from '@/lib/media/upload';

/** The upload use case's result as HTTP: the stored answer byte for byte (a replay differs only by its marker). */
export function uploadMediaResponse(result: UploadMediaResult): Response {
  switch (result.kind) {
    case 'ok':
      return storedResponse(result);
    case 'invalid':
      return problem({
        status: 422,
        title: 'Unprocessable Content',
        detail: 'The upload has invalid fields; nothing was stored.',
        errors: result.errors,
      });
    default:
      return keyProblem(result);
  }
}
