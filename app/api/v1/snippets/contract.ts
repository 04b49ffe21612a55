import { defineRoute, idempotencyKeyHeader, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { named, z } from '@/lib/api/contract/zod';
import { SNIPPET_KINDS } from '@/db/schema';
import { snippetInput } from '@/lib/templates/schemas';
import { keyedLibraryResponses } from '../templates/contract';

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
    summary: 'Add a snippet (idempotent)',
    description:
      'Exactly once per Idempotency-Key: a retry with the same key and body is answered the first 201 (`Idempotent-Replayed: true`), never “name taken”. Names are unique per workspace: another request with a name already used is a 422.',
    scope: 'posts:write',
    request: {
      headers: idempotencyKeyHeader,
      body: { required: true, content: { 'application/json': { schema: named('SnippetInput', snippetInput) } } },
    },
    responses: {
      ...keyedLibraryResponses({ status: 201, description: 'The snippet', schema: snippetSchema }),
      422: problemResponse(
        'Invalid fields, a name already used (`errors`), or the key already used with another body; nothing stored',
      ),
    },
  },
});
