import type { Database } from '@/db/client';
import { readKeyedRequest } from '@/lib/api/handler';
import type { ApiPrincipal } from '@/lib/auth/api-key';
import { problem } from '@/lib/http/problem';
import { fingerprint } from '@/lib/idempotency/fingerprint';
import { runIdempotent } from '@/lib/idempotency/run-idempotent';
import { createPostOperation, type CreatePostRejection } from './create-post';
import { createPostRequestSchema, fingerprintInput } from './post-input';

export const CREATE_POST_OPERATION = 'posts.create';

/** POST /api/v1/posts: key check → body validation (not stored) → the idempotent create. */
export async function createPost(db: Database, request: Request, principal: ApiPrincipal): Promise<Response> {
  const input = await readKeyedRequest(request, createPostRequestSchema);
  if (!input.ok) return input.response;

  const outcome = await runIdempotent(
    db,
    { workspaceId: principal.workspaceId, operation: CREATE_POST_OPERATION, key: input.key, fingerprint: fingerprint(fingerprintInput(input.data)) },
    (tx) => createPostOperation(tx, input.data, {
      workspaceId: principal.workspaceId, source: 'api', idempotencyKey: input.key, actor: `api_key:${principal.apiKeyId}`, apiKeyId: principal.apiKeyId,
    }),
  );

  switch (outcome.kind) {
    case 'executed':
    case 'replayed':
      return new Response(outcome.response.body, {
        status: outcome.response.status,
        headers: {
          'content-type': 'application/json',
          ...(outcome.response.resourceId ? { location: `/api/v1/posts/${outcome.response.resourceId}` } : {}),
          ...(outcome.kind === 'replayed' ? { 'idempotent-replayed': 'true' } : {}),
        },
      });
    case 'mismatch':
      return problem({ status: 422, title: 'Idempotency-Key reused', detail: 'This Idempotency-Key was already used with a different request. Nothing was written; use a new key for a new post.' });
    case 'in_flight':
      return problem(
        { status: 409, title: 'Request in progress', detail: 'A request with this Idempotency-Key is still being processed. Retry after the indicated delay to get its result.' },
        { 'retry-after': String(outcome.retryAfterSeconds) },
      );
    case 'rejected': {
      const rejection = JSON.parse(outcome.response.body) as CreatePostRejection;
      if (rejection.reason === 'invalid') {
        return problem({ status: 422, title: 'Unprocessable Content', detail: 'The request has invalid fields; nothing was stored.', errors: rejection.errors });
      }
      return problem({ status: 409, title: 'Possible duplicate', detail: 'The same text was scheduled recently.', matches: rejection.matches });
    }
  }
}
