import { fieldsProblem } from '@/lib/api/handler';
import { keyProblem, storedResponse } from '@/lib/http/idempotent-response';
import { problem } from '@/lib/http/problem';
import type { KeyedLibraryResult } from '@/lib/templates/keyed';

/** A keyed library write as HTTP (snippets and templates): the stored answer byte for byte, or why nothing was written. */
export function keyedLibraryResponse(result: KeyedLibraryResult, location: (id: string) => string): Response {
  switch (result.kind) {
    case 'ok':
      return storedResponse(result, location(result.resourceId));
    case 'invalid':
      return fieldsProblem(result.errors);
    case 'not_found':
      return problem({ status: 404, title: 'Not Found', detail: 'No such template in this workspace.' });
    default:
      return keyProblem(result);
  }
}
