import {
  defineRoute,
  idempotencyKeyHeader,
  jsonResponse,
  problemResponse,
  replayedHeader,
  retryAfterHeader,
} from '@/lib/api/contract/define';
import { named, z } from '@/lib/api/contract/zod';
import { templateInput } from '@/lib/templates/schemas';

export const templateSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    text: z.string().openapi({ description: 'With `{{variables}}`.' }),
    firstComment: z.string().nullable(),
    accountIds: z.array(z.uuid()),
    timeOfDay: z.string().nullable().openapi({ description: '`HH:MM` in the workspace’s zone, or null.' }),
    mediaIds: z.array(z.uuid()),
    createdAt: z.iso.datetime({ offset: true }),
  })
  .openapi('Template', {
    description:
      'A post template: its text and first comment with `{{variables}}`, default accounts, time of day and images. It prefills the composer; a CSV row names it in a `template` column, its variables in columns of their names.',
  });

/**
 * A keyed library write's answers (snippets and templates, docs/api.md#idempotency-key-rules): the success and its
 * replay, a missing key, a key still running, and a 422 that also covers a key reused for another body.
 */
export function keyedLibraryResponses(success: { status: 200 | 201; description: string; schema: z.ZodType }) {
  return {
    [success.status]: jsonResponse(
      `${success.description}, or the replay of the first answer for this key`,
      success.schema,
      replayedHeader.extend({ Location: z.string().openapi({ description: 'Where it is.' }) }),
    ),
    400: problemResponse('Missing or malformed Idempotency-Key, or a body that is not JSON (nothing stored)'),
    409: problemResponse(
      'The first request with this key is still running (retry after `Retry-After` seconds)',
      undefined,
      retryAfterHeader,
    ),
  };
}

/** /api/v1/templates — the contract of ./route.ts. */
export const templatesContract = defineRoute('/templates', {
  GET: {
    operationId: 'listTemplates',
    summary: 'Post templates of the workspace',
    scope: 'posts:read',
    responses: { 200: jsonResponse('Templates', z.object({ data: z.array(templateSchema) })) },
  },
  POST: {
    operationId: 'createTemplate',
    summary: 'Add a post template (idempotent)',
    description:
      'Exactly once per Idempotency-Key: a retry with the same key and body is answered the first 201 (`Idempotent-Replayed: true`), never “name taken”. Names are unique per workspace (another request with a name already used is a 422). Accounts and images must be this workspace’s.',
    scope: 'posts:write',
    request: {
      headers: idempotencyKeyHeader,
      body: { required: true, content: { 'application/json': { schema: named('TemplateInput', templateInput) } } },
    },
    responses: {
      ...keyedLibraryResponses({ status: 201, description: 'The template', schema: templateSchema }),
      422: problemResponse(
        'Invalid fields, another workspace’s account or image, a name already used (`errors`), or the key already used with another body; nothing stored',
      ),
    },
  },
});
