import { defineRoute, idempotencyKeyHeader, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { named, z } from '@/lib/api/contract/zod';
import { templatePatch } from '@/lib/templates/schemas';
import { keyedLibraryResponses, templateSchema } from '../contract';

const params = z.object({ id: z.uuid().openapi({ description: 'The template id' }) });

/** /api/v1/templates/{id} — the contract of ./route.ts. */
export const templateContract = defineRoute('/templates/{id}', {
  GET: {
    operationId: 'getTemplate',
    summary: 'One post template',
    scope: 'posts:read',
    request: { params },
    responses: { 200: jsonResponse('The template', templateSchema), 404: problemResponse('No such template') },
  },
  PATCH: {
    operationId: 'updateTemplate',
    summary: 'Change a post template (idempotent)',
    description:
      'The fields given replace the template’s (`null` removes its first comment or its time of day); posts made from it before keep their text. Exactly once per Idempotency-Key: a retry with the same key and body is answered the first 200 (`Idempotent-Replayed: true`). A name another template has is a 422; accounts and images must be this workspace’s.',
    scope: 'posts:write',
    request: {
      params,
      headers: idempotencyKeyHeader,
      body: { required: true, content: { 'application/json': { schema: named('TemplatePatch', templatePatch) } } },
    },
    responses: {
      ...keyedLibraryResponses({ status: 200, description: 'The template as it is now', schema: templateSchema }),
      404: problemResponse('No such template in this workspace (nothing stored)'),
      422: problemResponse(
        'No field, invalid fields, another workspace’s account or image, a name another template has (`errors`), or the key already used with another body; nothing stored',
      ),
    },
  },
  DELETE: {
    operationId: 'deleteTemplate',
    summary: 'Delete a post template',
    scope: 'posts:write',
    request: { params },
    responses: { 204: { description: 'Deleted' }, 404: problemResponse('No such template in this workspace') },
  },
});
