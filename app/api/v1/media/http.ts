import { problem } from '@/lib/http/problem';
import type { UploadMediaResult } from '@/lib/media/upload';
import { keyProblem } from '../posts/http';

/** The upload use case's result as HTTP: the stored answer byte for byte (a replay differs only by its marker). */
export function uploadMediaResponse(result: UploadMediaResult): Response {
  switch (result.kind) {
    case 'ok':
      return new Response(result.stored.body, {
        status: result.stored.status,
        headers: {
          'content-type': 'application/json',
          ...(result.replayed ? { 'idempotent-replayed': 'true' } : {}),
        },
      });
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
