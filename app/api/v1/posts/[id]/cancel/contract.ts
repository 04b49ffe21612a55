import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { canceledPostSchema, notCancelableProblemSchema } from '@/lib/api/contract/schemas';
import { postIdParams } from '../contract';

/** /api/v1/posts/{id}/cancel — the contract of ./route.ts. */
export const cancelPostContract = defineRoute('/posts/{id}/cancel', {
  POST: {
    operationId: 'cancelPost',
    summary: 'Cancel the deliveries still scheduled (idempotent)',
    description: 'Repeating it changes nothing. Deliveries already publishing or settled are left alone.',
    scope: 'posts:write',
    request: { params: postIdParams },
    responses: {
      200: jsonResponse('The post after canceling', canceledPostSchema),
      404: problemResponse('No such post in this workspace'),
      409: problemResponse(
        'Every delivery is already publishing or settled; nothing was changed',
        notCancelableProblemSchema,
      ),
    },
  },
});
