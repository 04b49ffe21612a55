import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HTTP_METHODS } from '@/lib/api/contract/define';
import { apiV1Contracts } from './contracts';
import * as openApiRoute from './openapi.json/route';

const V1_DIR = import.meta.dirname;
const NEXT_METHODS = [...HTTP_METHODS, 'OPTIONS'] as const; // HEAD is one of HTTP_METHODS (tus)

/** Every route.ts under app/api/v1 as its OpenAPI path: `posts/[id]/cancel/route.ts` → `/posts/{id}/cancel`. */
function routeFiles(): { file: string; path: string }[] {
  return readdirSync(V1_DIR, { recursive: true, encoding: 'utf8' })
    .filter((f) => path.basename(f) === 'route.ts')
    .map((f) => {
      const segments = path
        .dirname(f)
        .split(path.sep)
        .filter((s) => s !== '.' && !/^\(.*\)$/.test(s));
      return { file: f, path: `/${segments.map((s) => s.replace(/^\[(\w+)\]$/, '{$1}')).join('/')}` };
    });
}

/** `METHOD /path` for each exported HTTP method function of each route file. */
async function implementedOperations(): Promise<string[]> {
  const found: string[] = [];
  for (const route of routeFiles()) {
    const mod = (await import(path.join(V1_DIR, route.file))) as Record<string, unknown>;
    for (const method of NEXT_METHODS) if (typeof mod[method] === 'function') found.push(`${method} ${route.path}`);
  }
  return found.sort();
}

async function servedDocument(
  url = 'https://semel.example.test/api/v1/openapi.json',
  headers: Record<string, string> = {},
) {
  const response = openApiRoute.GET(new Request(url, { headers }));
  expect(response.status).toBe(200);
  return (await response.json()) as {
    openapi: string;
    info: { title: string };
    servers: { url: string }[];
    paths: Record<string, Record<string, Operation>>;
  };
}

type Operation = {
  security: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  responses: Record<string, { headers?: Record<string, { required?: boolean }>; content?: Record<string, unknown> }>;
};

function documentedOperations(doc: Awaited<ReturnType<typeof servedDocument>>): string[] {
  return Object.entries(doc.paths)
    .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
    .sort();
}

describe('the OpenAPI document covers app/api/v1 route by route', () => {
  it('finds the route files it walks (the walk itself works)', () => {
    const paths = routeFiles().map((r) => r.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/posts', '/posts/{id}', '/posts/{id}/cancel', '/accounts', '/openapi.json']),
    );
  });

  it('documents every exported method of every route.ts, and nothing that is not served', async () => {
    const implemented = await implementedOperations();
    expect(implemented).toContain('PATCH /posts/{id}');
    expect(documentedOperations(await servedDocument())).toEqual(implemented);
  });

  it('keeps one contract per route file (none documented twice)', () => {
    const paths = apiV1Contracts.map((c) => c.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual(
      routeFiles()
        .map((r) => r.path)
        .sort(),
    );
  });
});

describe('GET /api/v1/openapi.json', () => {
  it("is rendered per request, with the caller's origin as the server URL", async () => {
    expect(openApiRoute.dynamic).toBe('force-dynamic');
    const doc = await servedDocument('http://10.0.0.7:8080/api/v1/openapi.json');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Semel API');
    expect(doc.servers).toEqual([{ url: 'http://10.0.0.7:8080/api/v1' }]);
    expect((await servedDocument('https://semel.example.test/api/v1/openapi.json')).servers[0]!.url).toBe(
      'https://semel.example.test/api/v1',
    );
    // Behind `next start` request.url names localhost: the Host the caller sent is what counts.
    expect(
      (await servedDocument('http://localhost:3000/api/v1/openapi.json', { host: '127.0.0.1:3501' })).servers[0]!.url,
    ).toBe('http://127.0.0.1:3501/api/v1');
  });

  it('is public itself; every other operation needs an API key with a scope, and documents 401 and 403', async () => {
    const doc = await servedDocument();
    expect(doc.paths['/openapi.json']!.get!.security).toEqual([]);
    for (const [p, ops] of Object.entries(doc.paths)) {
      if (p === '/openapi.json') continue;
      for (const [method, op] of Object.entries(ops)) {
        expect(op.security, `${method} ${p}`).toEqual([
          {
            bearer: [
              expect.stringMatching(
                /^((posts|accounts|inbox):(read|write)|webhooks:write|workspace:write|posts:approve)$/,
              ),
            ],
          },
        ]);
        expect(Object.keys(op.responses), `${method} ${p}`).toEqual(expect.arrayContaining(['401', '403', '500']));
        expect(op.responses['401']!.content, `${method} ${p}`).toHaveProperty(['application/problem+json']);
      }
    }
  });

  it('documents 429 with Retry-After and RateLimit-* on every operation', async () => {
    for (const [p, ops] of Object.entries((await servedDocument()).paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const headers = op.responses['429']?.headers ?? {};
        expect(Object.keys(headers), `${method} ${p}`).toEqual([
          'Retry-After',
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
        ]);
        expect(headers['Retry-After']!.required).toBe(true);
      }
    }
  });

  it('requires an Idempotency-Key on the keyed writes and documents their replay and in-flight headers', async () => {
    const { paths } = await servedDocument();
    for (const op of [paths['/posts']!.post!, paths['/posts/{id}']!.patch!]) {
      expect(op.parameters).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: true }),
      );
      const success = op.responses['201'] ?? op.responses['200']!;
      expect(success.headers).toHaveProperty('Idempotent-Replayed');
      expect(op.responses['409']!.headers).toHaveProperty('Retry-After');
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '409', '422']));
    }
    expect(paths['/posts']!.post!.responses['201']!.headers).toHaveProperty('Location');
  });
});
