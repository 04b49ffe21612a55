import { defineRoute, jsonResponse } from '@/lib/api/contract/define';
import { z } from '@/lib/api/contract/zod';

/** /api/v1/openapi.json — public, like the reference page built from it. */
export const openApiContract = defineRoute('/openapi.json', {
  GET: {
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI 3.1 document',
    description: 'Public (no API key). Its server URL is the origin of the request.',
    scope: null,
    responses: { 200: jsonResponse('The document', z.looseObject({ openapi: z.literal('3.1.0') })) },
  },
});
