import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { z } from '@/lib/api/contract/zod';
import { templateSchema } from '../contract';

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
  DELETE: {
    operationId: 'deleteTemplate',
    summary: 'Delete a post template',
    scope: 'posts:write',
    request: { params },
    responses: { 204: { description: 'Deleted' }, 404: problemResponse('No such template in this workspace') },
  },
});
