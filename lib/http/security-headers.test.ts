import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, newNonce, securityHeaders } from './security-headers';

describe('content security policy', () => {
  it('production: scripts only with the nonce, no eval, no framing', () => {
    const csp = contentSecurityPolicy({ nonce: 'abc', dev: false, https: false });
    expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it("development adds only 'unsafe-eval' (React's dev tooling)", () => {
    const dev = contentSecurityPolicy({ nonce: 'abc', dev: true, https: false });
    expect(dev.replace(" 'unsafe-eval'", '')).toBe(contentSecurityPolicy({ nonce: 'abc', dev: false, https: false }));
  });

  it('nonces are fresh and 128 bits', () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    expect(Buffer.from([...nonces][0]!, 'base64')).toHaveLength(16);
  });

  it('HSTS only over https', () => {
    expect(securityHeaders({ https: false })).not.toHaveProperty('Strict-Transport-Security');
    expect(securityHeaders({ https: true })['Strict-Transport-Security']).toMatch(/^max-age=63072000/);
    expect(securityHeaders({ https: false })).toMatchObject({
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    });
  });
});
