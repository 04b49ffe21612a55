import { describe, expect, it } from 'vitest';
import type { IdempotentOutcome } from './run-idempotent';
import { settleIdempotent } from './settle';

const response = { status: 201, body: '{"id":"p1"}', resourceId: 'p1' };
const settle = (outcome: IdempotentOutcome<{ kind: 'invalid' }>) =>
  settleIdempotent(outcome, {
    answered: (stored, replayed) => ({ kind: 'ok' as const, stored, replayed }),
    rejected: (rejection) => rejection,
  });

describe('settleIdempotent: one keyed run’s outcome as a use case’s result', () => {
  it('a run now is the stored answer, not replayed', () => {
    expect(settle({ kind: 'executed', response })).toEqual({ kind: 'ok', stored: response, replayed: false });
  });

  it('a replay is the same stored answer, marked replayed', () => {
    expect(settle({ kind: 'replayed', response })).toEqual({ kind: 'ok', stored: response, replayed: true });
  });

  it('a rejection (nothing stored) goes through the use case’s own mapping', () => {
    expect(settle({ kind: 'rejected', rejection: { kind: 'invalid' } })).toEqual({ kind: 'invalid' });
    const mapped = settleIdempotent<{ message: string }, never, { kind: 'check_failed'; message: string }>(
      { kind: 'rejected', rejection: { message: 'No answer' } },
      {
        answered: () => {
          throw new Error('not answered');
        },
        rejected: (r) => ({ kind: 'check_failed', message: r.message }),
      },
    );
    expect(mapped).toEqual({ kind: 'check_failed', message: 'No answer' });
  });

  it('the same key with another request is key_reused (the 422), whatever the use case', () => {
    expect(settle({ kind: 'mismatch' })).toEqual({ kind: 'key_reused' });
  });

  it('the same key while its first run is on is in_flight with its Retry-After (the 409)', () => {
    expect(settle({ kind: 'in_flight', retryAfterSeconds: 7 })).toEqual({ kind: 'in_flight', retryAfterSeconds: 7 });
  });
});
