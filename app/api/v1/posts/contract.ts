import {
  defineRoute,
  idempotencyKeyHeader,
  jsonResponse,
  problemResponse,
  replayedHeader,
  retryAfterHeader,
} from '@/lib/api/contract/define';
import { postPageSchema, postSchema, possibleDuplicateProblemSchema, problemSchema } from '@/lib/api/contract/schemas';
import { named, z } from '@/lib/api/contract/zod';
import { listPostsQuerySchema } from '@/lib/posts/schemas';
import { createPostRequestSchema } from '@/lib/posts/schemas';

/** /api/v1/posts — the contract of ./route.ts, built from the schemas its handlers validate with. */
export const postsContract = defineRoute('/posts', {
  GET: {
    operationId: 'listPosts',
    summary: 'List posts, newest first, or those scheduled in a time range',
    description:
      'Keyset pagination: pass `nextCursor` back as `cursor` until it is null. With `from` and `to` (ISO-8601, both or neither, at most 100 days apart) only posts scheduled in `[from, to)` are listed, in scheduled-time order; `status`, `account` and `limit` still apply.',
    scope: 'posts:read',
    request: { query: listPostsQuerySchema },
    responses: {
      200: jsonResponse('A page of posts', postPageSchema),
      400: problemResponse('Malformed cursor, a limit outside 1–100, or an invalid filter (nothing read)'),
      422: problemResponse(
        'Invalid time range: only one of `from`/`to`, an unparsable time, `to` not after `from`, or a range over 100 days (nothing read; `errors` per parameter)',
      ),
    },
  },
  POST: {
    operationId: 'createPost',
    summary: 'Create a post (idempotent)',
    description:
      'Creates the post and one delivery per account, exactly once per Idempotency-Key. Every answer that did work (201, 409 possible duplicate) is stored and replayed for the same key. ' +
      'A thread (`kind: "thread"` with 2–25 `parts`, no `text`) has one delivery per account and part: each part is published once, in order, as a reply to the part before it, and an unknown outcome stops the thread at that part until it is settled. Only networks that take replies publish threads (LinkedIn is refused with a field error).',
    scope: 'posts:write',
    request: {
      headers: idempotencyKeyHeader,
      body: {
        required: true,
        content: { 'application/json': { schema: named('CreatePost', createPostRequestSchema) } },
      },
    },
    responses: {
      201: jsonResponse(
        'Created, or the replay of the first answer for this key',
        postSchema,
        replayedHeader.extend({
          Location: z.string().openapi({ description: 'The new post, e.g. `/api/v1/posts/{id}`.' }),
        }),
      ),
      400: problemResponse('Missing or malformed Idempotency-Key, or a body that is not JSON (nothing stored)'),
      409: problemResponse(
        'The first request with this key is still running (retry after `Retry-After` seconds), or the same text was scheduled recently (`matches`, stored and replayed)',
        z.union([possibleDuplicateProblemSchema, problemSchema]),
        retryAfterHeader.partial(),
      ),
      422: problemResponse(
        'Invalid fields (nothing stored; `errors` per field), or the key was already used with a different request',
      ),
    },
  },
});
