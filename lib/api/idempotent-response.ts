import { problem } from '@/lib/http/problem';
import type { IdempotentOutcome } from '@/lib/idempotency/run-idempotent';

/**
 * The HTTP answer to a keyed write (docs/architecture.md#inbound-idempotency): the stored response (marked when replayed), 422 for the
 * key reused with another request, 409 + Retry-After while the first is still running. Rejections
 * (not stored) are the operation's own to describe.
 */
export function idempotentResponse(
  outcome: IdempotentOutcome,
  options: { rejected: (response: { status: number; body: string }) => Response; location?: (resourceId: string) => string },
): Response {
  switch (outcome.kind) {
    case 'executed':
    case 'replayed': {
      const { status, body, resourceId } = outcome.response;
      return new Response(body, {
        status,
        headers: {
          'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
          ...(resourceId && options.location && status < 400 ? { location: options.location(resourceId) } : {}),
          ...(outcome.kind === 'replayed' ? { 'idempotent-replayed': 'true' } : {}),
        },
      });
    }
    case 'rejected':
      return options.rejected(outcome.response);
    case 'mismatch':
      return problem({ status: 422, title: 'Idempotency-Key reused', detail: 'This Idempotency-Key was already used with a different request. Nothing was written; use a new key for a new intent.' });
    case 'in_flight':
      return problem(
        { status: 409, title: 'Request in progress', detail: 'A request with this Idempotency-Key is still being processed. Retry after the indicated delay to get its result.' },
        { 'retry-after': String(outcome.retryAfterSeconds) },
      );
  }
}
