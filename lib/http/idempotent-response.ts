import type { KeyRefusal } from '@/lib/idempotency/settle';
import { problem } from './problem';

// A keyed write's answers as HTTP, for every idempotent route (docs/architecture.md#inbound-idempotency).

const REPLAYED = { 'idempotent-replayed': 'true' };

/** The replay marker: the one difference between a replayed answer and the original. */
export const replayedHeader = (replayed: boolean): Record<string, string> => (replayed ? REPLAYED : {});

/** The stored answer, byte for byte: a replay is indistinguishable from the original but for the marker. */
export function storedResponse(
  result: { stored: { status: number; body: string }; replayed: boolean },
  location?: string,
): Response {
  return new Response(result.stored.body, {
    status: result.stored.status,
    headers: {
      'content-type': 'application/json',
      ...(location ? { location } : {}),
      ...replayedHeader(result.replayed),
    },
  });
}

/** A reused key is a 422 (nothing written); a key whose first request still runs is a 409 with Retry-After. */
export function keyProblem(result: KeyRefusal): Response {
  if (result.kind === 'key_reused') {
    return problem({
      status: 422,
      title: 'Idempotency-Key reused',
      detail:
        'This Idempotency-Key was already used with a different request. Nothing was written; use a new key for a new intent.',
    });
  }
  return problem(
    {
      status: 409,
      title: 'Request in progress',
      detail:
        'A request with this Idempotency-Key is still being processed. Retry after the indicated delay to get its result.',
    },
    { 'retry-after': String(result.retryAfterSeconds) },
  );
}
