import { describe, expect, it } from 'vitest';
import { keyProblem, replayedHeader, storedResponse } from './idempotent-response';

const headersOf = (response: Response) => Object.fromEntries(response.headers.entries());
const stored = { status: 201, body: '{"id":"p1","text":"hi"}' };

describe('keyed writes as HTTP (every idempotent route answers through these)', () => {
  it('created: the stored status and bytes, with its location, no replay marker', async () => {
    const response = storedResponse({ stored, replayed: false }, '/api/v1/posts/p1');
    expect(response.status).toBe(201);
    expect(await response.text()).toBe(stored.body);
    expect(headersOf(response)).toEqual({ 'content-type': 'application/json', location: '/api/v1/posts/p1' });
  });

  it('replayed: the same status and bytes, marked idempotent-replayed', async () => {
    const response = storedResponse({ stored, replayed: true });
    expect(response.status).toBe(201);
    expect(await response.text()).toBe(stored.body);
    expect(headersOf(response)).toEqual({ 'content-type': 'application/json', 'idempotent-replayed': 'true' });
    expect(replayedHeader(true)).toEqual({ 'idempotent-replayed': 'true' });
    expect(replayedHeader(false)).toEqual({});
  });

  it('a stored refusal (a 409 kept under the key) replays as it was stored', async () => {
    const response = storedResponse({ stored: { status: 409, body: '{"reason":"already_sent"}' }, replayed: true });
    expect(response.status).toBe(409);
    expect(await response.text()).toBe('{"reason":"already_sent"}');
  });

  it('key reused with another request: a 422 problem, nothing written', async () => {
    const response = keyProblem({ kind: 'key_reused' });
    expect(response.status).toBe(422);
    expect(headersOf(response)).toEqual({ 'content-type': 'application/problem+json' });
    expect(await response.json()).toEqual({
      type: 'about:blank',
      status: 422,
      title: 'Idempotency-Key reused',
      detail:
        'This Idempotency-Key was already used with a different request. Nothing was written; use a new key for a new intent.',
    });
  });

  it('in progress: a 409 problem with Retry-After', async () => {
    const response = keyProblem({ kind: 'in_flight', retryAfterSeconds: 3 });
    expect(response.status).toBe(409);
    expect(headersOf(response)).toEqual({ 'content-type': 'application/problem+json', 'retry-after': '3' });
    expect(await response.json()).toEqual({
      type: 'about:blank',
      status: 409,
      title: 'Request in progress',
      detail:
        'A request with this Idempotency-Key is still being processed. Retry after the indicated delay to get its result.',
    });
  });
});
