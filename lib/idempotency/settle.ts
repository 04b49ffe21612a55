import type { IdempotentOutcome, StoredResponse } from './run-idempotent';

/** The refusals every keyed write shares: the key was used for another request (422), or its first run is still on (409). */
export type KeyRefusal = { kind: 'key_reused' } | { kind: 'in_flight'; retryAfterSeconds: number };

/**
 * One keyed run's outcome as the use case's result: the stored answer (run now, or replayed for a retry) through
 * `answered`, a rejection (nothing stored, the key released) through `rejected`, and the key's own refusals as
 * they are, so every caller words them the same (lib/http/idempotent-response.ts).
 */
export function settleIdempotent<R, T, J>(
  outcome: IdempotentOutcome<R>,
  on: { answered: (response: StoredResponse, replayed: boolean) => T; rejected: (rejection: R) => J },
): T | J | KeyRefusal {
  switch (outcome.kind) {
    case 'executed':
    case 'replayed':
      return on.answered(outcome.response, outcome.kind === 'replayed');
    case 'rejected':
      return on.rejected(outcome.rejection);
    case 'mismatch':
      return { kind: 'key_reused' };
    case 'in_flight':
      return { kind: 'in_flight', retryAfterSeconds: outcome.retryAfterSeconds };
  }
}
