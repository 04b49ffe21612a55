import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { named, z } from '@/lib/api/contract/zod';
import { SNIPPET_KINDS } from '@/db/schema';
import { snippetInput } from '@/lib/templates/schemas';

export const snippetSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: z.enum(SNIPPET_KINDS),
    text: z.string(),
    createdAt: z.iso.datetime({ offset: true }),
  })
  .openapi('Snippet', { description: 'A reusable text (hashtag group, signature, disclaimer) the composer inserts.' });

/** /api/v1/snippets — the contract of ./route.ts. */
export const snippetsContract = defineRoute('/snippets', {
  GET: {
    operationId: 'listSnippets',
    summary: 'Snippets of the workspace',
    scope: 'posts:read',
    responses: { 200: jsonResponse('Snippets', z.object({ data: z.array(snippetSchema) })) },
  },
  POST: {
    operationId: 'createSnippet',
    summary: 'Add a snippet',
    description: 'Names are unique per workspace: the same name again is a 422, so a retry never makes a second one.',
    scope: 'posts:write',
    request: {
      body: { required: true, content: { 'application/json': { schema: named('SnippetInput', snippetInput) } } },
    },
    responses: {
      201: jsonResponse('The snippet', snippetSchema),
      400: problemResponse('A body that is not JSON (nothing stored)'),
      422: problemResponse('Invalid fields, or a name already used (`errors`; nothing stored)'),
    },
  },
});
