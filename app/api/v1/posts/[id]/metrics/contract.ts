import { postMetricsSchema } from '@/lib/api/contract/analytics-schemas';
import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { postIdParams } from '../contract';

/** /api/v1/posts/{id}/metrics — the contract of ./route.ts. */
export const postMetricsContract = defineRoute('/posts/{id}/metrics', {
  GET: {
    operationId: 'getPostMetrics',
    summary: 'A post’s metric history: every reading of each delivery (+1 h, +24 h, +7 d, +30 d after publishing)',
    scope: 'posts:read',
    request: { params: postIdParams },
    responses: {
      200: jsonResponse('The readings, per delivery', postMetricsSchema),
      404: problemResponse('No such post in this workspace'),
    },
  },
});
