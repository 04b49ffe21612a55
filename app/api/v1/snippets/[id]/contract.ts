import { defineRoute, problemResponse } from '@/lib/api/contract/define';
import { z } from '@/lib/api/contract/zod';

/** /api/v1/snippets/{id} — the contract of ./route.ts. */
export const snippetContract = defineRoute('/snippets/{id}', {
  DELETE: {
    operationId: 'deleteSnippet',
    summary: 'Delete a snippet',
    scope: 'posts:write',
    request: { params: z.object({ id: z.uuid().openapi({ description: 'The snippet id' }) }) },
    responses: { 204: { description: 'Deleted' }, 404: problemResponse('No such snippet in this workspace') },
  },
});
