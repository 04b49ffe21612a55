import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { ApiKeyScope } from '@/db/schema';
import { IDEMPOTENCY_KEY_PATTERN } from '@/lib/idempotency/key';
import { problemSchema } from './schemas';
import { z } from './zod';

// HEAD for tus (an upload's offset), where a route answers it itself.
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** What an API key may be allowed to do; `null` marks a public operation (no key). */
export type ApiScope = ApiKeyScope;

/** A response: its zod body schema (validated in tests against real answers) and headers. */
export type ResponseContract = {
  description: string;
  schema?: z.ZodType;
  mediaType?: 'application/json' | 'application/problem+json';
  headers?: z.ZodObject;
};

export type OperationContract = {
  operationId: string;
  summary: string;
  description?: string;
  scope: ApiScope | null;
  request?: RouteConfig['request'];
  responses: Record<number, ResponseContract>;
};

/** One route file's contract: its path (relative to /api/v1, OpenAPI style) and one operation per exported method. */
export type RouteContract = { path: `/${string}`; operations: Partial<Record<HttpMethod, OperationContract>> };

export function defineRoute(path: RouteContract['path'], operations: RouteContract['operations']): RouteContract {
  return { path, operations };
}

export const jsonResponse = (description: string, schema: z.ZodType, headers?: z.ZodObject): ResponseContract => ({
  description,
  schema,
  headers,
});
export const problemResponse = (
  description: string,
  schema: z.ZodType = problemSchema,
  headers?: z.ZodObject,
): ResponseContract => ({ description, schema, mediaType: 'application/problem+json', headers });

export const idempotencyKeyHeader = z.object({
  'Idempotency-Key': z.string().regex(IDEMPOTENCY_KEY_PATTERN).openapi({
    description: 'One key per intent (1–255 printable ASCII characters), reused on every retry of it.',
    example: '4f1c9a52-7d0e-4c43-9d0b-5b3c2e8a1f00',
  }),
});

export const replayedHeader = z.object({
  'Idempotent-Replayed': z
    .literal('true')
    .optional()
    .openapi({ description: 'Present when this is the stored answer to an earlier request with the same key.' }),
});

const retryAfter = z.string().regex(/^\d+$/).openapi({ description: 'Seconds to wait before retrying.', example: '1' });
export const retryAfterHeader = z.object({ 'Retry-After': retryAfter });

const rateLimitHeaders = z.object({
  'Retry-After': retryAfter,
  'RateLimit-Limit': z.string().regex(/^\d+$/).openapi({ description: 'Requests allowed in the current window.' }),
  'RateLimit-Remaining': z
    .string()
    .regex(/^\d+$/)
    .openapi({ description: 'Requests left in the current window (0 here).' }),
  'RateLimit-Reset': z.string().regex(/^\d+$/).openapi({ description: 'Seconds until the window resets.' }),
});

/**
 * Responses every operation shares, added in one place so no route can leave them out: 429 (rate
 * limited) and 500 everywhere; 401 and 403 (missing scope) where an API key is required.
 */
export function sharedResponses(scope: ApiScope | null): Record<number, ResponseContract> {
  const authenticated: Record<number, ResponseContract> = scope
    ? {
        401: problemResponse('Missing, invalid or revoked API key (with `WWW-Authenticate: Bearer`).'),
        403: problemResponse(`The API key lacks the \`${scope}\` scope.`),
      }
    : {};
  return {
    ...authenticated,
    429: problemResponse(
      'Too many requests: wait `Retry-After` seconds. `RateLimit-*` describe the window.',
      problemSchema,
      rateLimitHeaders,
    ),
    500: problemResponse(
      'Unexpected server error; nothing about it is exposed. A keyed write may be retried with the same Idempotency-Key.',
    ),
  };
}

/** The operation's own responses plus the shared ones (its own win on a clash). */
export function allResponses(operation: OperationContract): Record<number, ResponseContract> {
  return { ...sharedResponses(operation.scope), ...operation.responses };
}

export function toResponseConfig(response: ResponseContract): ResponseConfig {
  return {
    description: response.description,
    ...(response.headers && { headers: response.headers }),
    ...(response.schema && { content: { [response.mediaType ?? 'application/json']: { schema: response.schema } } }),
  };
}
