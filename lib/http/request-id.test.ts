import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { proxy } from '@/proxy';
import { requestIdOf } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
// How Next's proxy hands an overridden request header on to the route (NextResponse.next({ request: { headers } })).
const forwarded = (response: Response) => response.headers.get('x-middleware-request-x-request-id');

describe('requestIdOf', () => {
  const table: [string, string | null, 'kept' | 'generated'][] = [
    ['a UUID is kept', '0b6e1f6e-3d55-4f0e-9a51-1f0d4c1f2e3a', 'kept'],
    ['a trace-style id is kept', 'req_01J9Z:abc.def-1', 'kept'],
    ['no header: a new id', null, 'generated'],
    ['blank: a new id', '', 'generated'],
    ['spaces and quotes (log forging): a new id', 'x" level=error msg="forged', 'generated'],
    ['longer than 128 characters: a new id', 'a'.repeat(129), 'generated'],
  ];
  for (const [name, given, expected] of table) {
    it(name, () => {
      const id = requestIdOf(new Headers(given === null ? {} : { 'x-request-id': given }));
      if (expected === 'kept') expect(id).toBe(given);
      else expect(id).toMatch(UUID);
    });
  }
});

describe('proxy: X-Request-Id', () => {
  it('passes a given id on to the handler and echoes it on the response', async () => {
    const response = await proxy(
      new NextRequest('http://localhost/api/v1/posts', { headers: { 'x-request-id': 'client-42' } }),
    );
    expect(response.headers.get('x-request-id')).toBe('client-42');
    expect(forwarded(response)).toBe('client-42');
  });

  it('generates one when missing: the same id reaches the handler and the client', async () => {
    const response = await proxy(new NextRequest('http://localhost/api/health'));
    expect(response.headers.get('x-request-id')).toMatch(UUID);
    expect(forwarded(response)).toBe(response.headers.get('x-request-id'));
  });

  it('echoes it on the sign-in redirect too', async () => {
    const response = await proxy(new NextRequest('http://localhost/queue', { headers: { 'x-request-id': 'page-7' } }));
    expect(response.status).toBe(307);
    expect(response.headers.get('x-request-id')).toBe('page-7');
  });
});
