import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { allResponses, HTTP_METHODS, toResponseConfig, type RouteContract } from './define';
import { problemSchema } from './schemas';

const DESCRIPTION = [
  'Create and track posts exactly once.',
  'Keyed writes (`POST /posts`, `PATCH /posts/{id}`, `POST /media`, `POST /imports`, `POST /accounts`) require an `Idempotency-Key`: reuse it on every retry of the same intent;',
  'a replay returns the stored response with `Idempotent-Replayed: true`, a retry while the first request still runs gets `409` with `Retry-After`,',
  'and the same key with a different request gets `422`. Errors are RFC 9457 problem details (`application/problem+json`).',
].join(' ');

/** OpenAPI 3.1, generated from the route contracts (the same zod schemas the handlers validate with). */
export function openApiDocument(serverUrl: string, routes: readonly RouteContract[]) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'A workspace API key (Settings → API, or `npm run apikey`). Scopes listed per operation.',
  });
  registry.register('Problem', problemSchema);
  for (const route of routes) {
    for (const method of HTTP_METHODS) {
      const operation = route.operations[method];
      if (!operation) continue;
      const responses = Object.fromEntries(
        Object.entries(allResponses(operation)).map(([status, r]) => [status, toResponseConfig(r)]),
      );
      registry.registerPath({
        method: method.toLowerCase() as Lowercase<typeof method>,
        path: route.path,
        operationId: operation.operationId,
        summary: operation.summary,
        ...(operation.description && { description: operation.description }),
        // For bearer schemes OpenAPI 3.1 lets the array name the roles (here: scopes) the operation needs.
        security: operation.scope ? [{ bearer: [operation.scope] }] : [],
        request: operation.request,
        responses,
      });
    }
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Semel API', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: `${serverUrl}/api/v1` }],
    security: [{ bearer: [] }],
  });
}
