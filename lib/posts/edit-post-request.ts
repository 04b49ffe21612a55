import type { Database } from '@/db/client';
import { readKeyedRequest } from '@/lib/api/handler';
import { idempotentResponse } from '@/lib/api/idempotent-response';
import type { ApiPrincipal } from '@/lib/auth/api-key';
import { problemBody } from '@/lib/http/problem';
import { fingerprint } from '@/lib/idempotency/fingerprint';
import { runIdempotent } from '@/lib/idempotency/run-idempotent';
import { editPostRequestSchema, editScheduledPostInTransaction } from './edit-post';

const EDIT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** PATCH /api/v1/posts/:id — keyed by its own Idempotency-Key; the answer (200 or 409) is stored and replayed. */
export async function editPost(db: Database, request: Request, principal: ApiPrincipal, postId: string): Promise<Response> {
  const input = await readKeyedRequest(request, editPostRequestSchema);
  if (!input.ok) return input.response;

  const outcome = await runIdempotent(
    db,
    { workspaceId: principal.workspaceId, operation: 'posts.update', key: input.key, fingerprint: fingerprint({ postId, ...input.data }) },
    async (tx) => {
      const result = await editScheduledPostInTransaction(tx, { workspaceId: principal.workspaceId, postId, changes: input.data, actor: `api_key:${principal.apiKeyId}` });
      const retainUntil = new Date(Date.now() + EDIT_RETENTION_MS);
      if (result.ok) return { store: true, status: 200, body: JSON.stringify(result.post), resourceId: postId, retainUntil };
      if (result.reason === 'not_found') return { store: false, status: 404, body: problemBody({ status: 404, title: 'Not Found', detail: 'No such post in this workspace.' }) };
      if (result.reason === 'invalid') return { store: false, status: 422, body: problemBody({ status: 422, title: 'Unprocessable Content', detail: 'The edit has invalid fields; nothing changed.', errors: result.errors }) };
      const detail = result.reason === 'already_publishing' ? 'Already publishing: the edit was refused and nothing changed.' : result.reason === 'already_sent' ? 'Already sent: the edit was refused and nothing changed.' : 'Nothing left to edit (canceled).';
      return { store: true, status: 409, body: problemBody({ status: 409, title: 'Not editable', detail, reason: result.reason, deliveries: result.deliveries }), resourceId: postId, retainUntil };
    },
  );
  return idempotentResponse(outcome, {
    rejected: (response) => new Response(response.body, { status: response.status, headers: { 'content-type': 'application/problem+json' } }),
  });
}
