import type { Database } from '@/db/client';
import { readKeyedRequest } from '@/lib/api/handler';
import { idempotentResponse } from '@/lib/api/idempotent-response';
import type { ApiPrincipal } from '@/lib/auth/api-key';
import { problem } from '@/lib/http/problem';
import { requestIdOf } from '@/lib/http/request-id';
import { logger } from '@/lib/logging/logger';
import { fingerprint } from '@/lib/idempotency/fingerprint';
import { runIdempotent } from '@/lib/idempotency/run-idempotent';
import { createPostOperation, type CreatePostRejection } from './create-post';
import { createPostRequestSchema, fingerprintInput } from './post-input';

export const CREATE_POST_OPERATION = 'posts.create';

/** POST /api/v1/posts: key check → body validation (not stored) → the idempotent create. */
export async function createPost(db: Database, request: Request, principal: ApiPrincipal): Promise<Response> {
  const input = await readKeyedRequest(request, createPostRequestSchema);
  if (!input.ok) return input.response;
  const requestId = requestIdOf(request.headers);

  const outcome = await runIdempotent(
    db,
    { workspaceId: principal.workspaceId, operation: CREATE_POST_OPERATION, key: input.key, fingerprint: fingerprint(fingerprintInput(input.data)) },
    (tx) => createPostOperation(tx, input.data, {
      workspaceId: principal.workspaceId, source: 'api', idempotencyKey: input.key, actor: `api_key:${principal.apiKeyId}`, apiKeyId: principal.apiKeyId, requestId,
    }),
  );
  if (outcome.kind === 'executed') logger.info({ requestId, postId: outcome.response.resourceId, workspaceId: principal.workspaceId, source: 'api' }, 'post created');

  return idempotentResponse(outcome, {
    location: (id) => `/api/v1/posts/${id}`,
    rejected: (response) => {
      const rejection = JSON.parse(response.body) as CreatePostRejection;
      if (rejection.reason === 'invalid') {
        return problem({ status: 422, title: 'Unprocessable Content', detail: 'The request has invalid fields; nothing was stored.', errors: rejection.errors });
      }
      return problem({ status: 409, title: 'Possible duplicate', detail: 'The same text was scheduled recently.', matches: rejection.matches });
    },
  });
}
