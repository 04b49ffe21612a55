import { json } from '@/lib/api/handler';
import { keyProblem, replayedHeader, storedResponse } from '@/lib/http/idempotent-response';
import { problem } from '@/lib/http/problem';
import type { CancelPostResult } from '@/lib/posts/cancel';
import type { CreatePostResult } from '@/lib/posts/create';
import type { EditConflictReason, EditPostResult } from '@/lib/posts/edit';
import type { GetPostResult } from '@/lib/posts/get';
import type { ListPostsResult } from '@/lib/posts/list';

// The posts use cases' results as HTTP (problem+json for every refusal). The use cases know nothing of HTTP.

export const notFound = () => problem({ status: 404, title: 'Not Found', detail: 'No such post in this workspace.' });

const invalid = (errors: Record<string, string[]>, detail: string) =>
  problem({ status: 422, title: 'Unprocessable Content', detail, errors });

export function createPostResponse(result: CreatePostResult): Response {
  switch (result.kind) {
    case 'ok':
      return storedResponse(result, `/api/v1/posts/${result.postId}`);
    case 'invalid':
      return invalid(result.errors, 'The request has invalid fields; nothing was stored.');
    case 'possible_duplicate':
      return problem({
        status: 409,
        title: 'Possible duplicate',
        detail: 'The same text was scheduled recently.',
        matches: result.matches,
      });
    default:
      return keyProblem(result);
  }
}

const NOT_EDITABLE: Record<EditConflictReason, string> = {
  already_publishing: 'Already publishing: the edit was refused and nothing changed.',
  already_sent: 'Already sent: the edit was refused and nothing changed.',
  not_editable: 'Nothing left to edit (canceled).',
};

export function editPostResponse(result: EditPostResult): Response {
  switch (result.kind) {
    case 'ok':
      return json(result.post, 200, replayedHeader(result.replayed));
    case 'not_found':
      return notFound();
    case 'invalid':
      return invalid(result.errors, 'The edit has invalid fields; nothing changed.');
    case 'conflict':
      return problem(
        {
          status: 409,
          title: 'Not editable',
          detail: NOT_EDITABLE[result.reason],
          reason: result.reason,
          deliveries: result.deliveries,
        },
        replayedHeader(result.replayed),
      );
    default:
      return keyProblem(result);
  }
}

export function cancelPostResponse(result: CancelPostResult): Response {
  switch (result.kind) {
    case 'ok':
      return json({ ...result.post, canceledDeliveryIds: result.canceledDeliveryIds });
    case 'not_found':
      return notFound();
    case 'conflict':
      return problem({
        status: 409,
        title: 'Cannot cancel',
        detail: 'These deliveries are already publishing or settled; nothing was changed.',
        deliveries: result.deliveries,
      });
  }
}

export function getPostResponse(result: GetPostResult): Response {
  return result.kind === 'ok' ? json(result.post) : notFound();
}

/**
 * Query parameters are not a request body: a bad one is a 400 (the body's fields answer 422). A time range
 * that is well-formed as parameters but unusable as a range (half of it, reversed, over 100 days) is a 422.
 */
export function listPostsResponse(result: ListPostsResult): Response {
  if (result.kind === 'ok') return json(result.page);
  if (result.kind === 'invalid_range') return invalid(result.errors, 'Invalid time range; nothing was read.');
  return problem({
    status: 400,
    title: 'Bad Request',
    detail: 'Invalid query parameters; nothing was read.',
    errors: result.errors,
  });
}
