import { describe, expect, it } from 'vitest';
import { codeChallengeOf, CODE_VERIFIER, hashState, newCodeVerifier, newState } from './pkce';

describe('PKCE S256 and state', () => {
  it('matches RFC 7636 Appendix B', () => {
    expect(codeChallengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('verifiers are 43 unreserved characters and never repeat; states are unguessable and stored hashed', () => {
    const verifiers = new Set(Array.from({ length: 200 }, newCodeVerifier));
    expect(verifiers.size).toBe(200);
    for (const v of verifiers) expect(v).toMatch(CODE_VERIFIER);
    const state = newState();
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hashState(state)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashState(state)).not.toContain(state);
  });
});
