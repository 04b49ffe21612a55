import {
  defineRoute,
  idempotencyKeyHeader,
  jsonResponse,
  problemResponse,
  replayedHeader,
  retryAfterHeader,
} from '@/lib/api/contract/define';
import { notEditableProblemSchema, postSchema, problemSchema } from '@/lib/api/contract/schemas';
import { named, z } from '@/lib/api/contract/zod';
import { editPostRequestSchema } from '@/lib/posts/schemas';

/** A post id in the path; anything else reads as 404, like another workspace's post (I6). */
export const postId = z.uuid().openapi({ description: 'The post id', example: '0b7e6a4c-2f0d-4b8e-9a51-3c2d1e0f9a7b' });
export const postIdParams = z.object({ id: postId });

const notFound = problemResponse('No such post in this workspace');

/** /api/v1/posts/{id} — the contract of ./route.ts. */
export const postContract = defineRoute('/posts/{id}', {
  GET: {
    operationId: 'getPost',
    summary: 'A post with its deliveries (a thread: each part with its own delivery per account)',
    scope: 'posts:read',
    request: { params: postIdParams },
    responses: { 200: jsonResponse('The post', postSchema), 404: notFound },
  },
  PATCH: {
    operationId: 'editPost',
    summary: 'Edit text (a thread: all its parts), time or targets while nothing is claimed (idempotent)',
    description:
      'Refused with 409 once any delivery is publishing or settled; the answer (200 or that 409) is stored and replayed for the same key.',
    scope: 'posts:write',
    request: {
      params: postIdParams,
      headers: idempotencyKeyHeader,
      body: { required: true, content: { 'application/json': { schema: named('EditPost', editPostRequestSchema) } } },
    },
    responses: {
      200: jsonResponse(
        'The post after the edit, or the replay of the first answer for this key',
        postSchema,
        replayedHeader,
      ),
      400: problemResponse('Missing or malformed Idempotency-Key, or a body that is not JSON (nothing changed)'),
      404: notFound,
      409: problemResponse(
        'Not editable: already publishing, sent or canceled (`reason`, `deliveries`); or the first request with this key is still running (`Retry-After`)',
        z.union([notEditableProblemSchema, problemSchema]),
        retryAfterHeader.partial(),
      ),
      422: problemResponse(
        'Invalid fields (nothing changed; `errors` per field), or the key was already used with a different request',
      ),
    },
  },
});
