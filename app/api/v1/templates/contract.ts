import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';
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
    summary: 'Add a post template',
    description:
      'Names are unique per workspace (the same name again is a 422). Accounts and images must be this workspace’s.',
    scope: 'posts:write',
    request: {
      body: { required: true, content: { 'application/json': { schema: named('TemplateInput', templateInput) } } },
    },
    responses: {
      201: jsonResponse('The template', templateSchema),
      400: problemResponse('A body that is not JSON (nothing stored)'),
      422: problemResponse('Invalid fields, another workspace’s account or image, or a name already used (`errors`)'),
    },
  },
});
