import type { z } from 'zod';
import type { ApiKeyScope } from '@/db/schema';
import { checkIdempotencyKey } from '@/lib/idempotency/key';
import { authenticateApiKey, rateLimitHeaders, type ApiPrincipal } from '@/lib/auth/api-key';
import { problem } from '@/lib/http/problem';
import { logger } from '@/lib/logging/logger';

type RouteContext<P> = { params: Promise<P> };

/**
 * Every /api/v1 handler: API-key auth (401 problem+json otherwise), the key's per-minute rate limit (429),
 * the scope the route needs (403 naming it), workspace scoping through the principal, and no stack traces
 * out: an unexpected error is logged and answered with a plain 500.
 */
export function apiHandler<P = Record<string, never>>(
  scope: ApiKeyScope,
  handler: (request: Request, principal: ApiPrincipal, params: P) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const auth = await authenticateApiKey(request);
      if (!auth) {
        return problem(
          {
            status: 401,
            title: 'Unauthorized',
            detail: 'Send a valid API key: Authorization: Bearer <key> (create one with `npm run apikey`).',
          },
          { 'www-authenticate': 'Bearer' },
        );
      }
      const rateHeaders = rateLimitHeaders(auth.rate);
      if (auth.rate.exceeded) {
        return problem(
          {
            status: 429,
            title: 'Too Many Requests',
            detail: `This API key is limited to ${auth.rate.limit} requests per minute; retry after ${auth.rate.resetSeconds} s.`,
          },
          { ...rateHeaders, 'retry-after': String(auth.rate.resetSeconds) },
        );
      }
      if (!auth.principal.scopes.includes(scope)) {
        return problem(
          { status: 403, title: 'Forbidden', detail: `This API key lacks the scope "${scope}".`, missingScope: scope },
          rateHeaders,
        );
      }
      const response = await handler(request, auth.principal, await context.params);
      for (const [name, value] of Object.entries(rateHeaders)) response.headers.set(name, value);
      return response;
    } catch (error) {
      logger.error(
        { err: error, path: new URL(request.url).pathname, requestId: request.headers.get('x-request-id') },
        'api handler failed',
      );
      return problem({
        status: 500,
        title: 'Internal Server Error',
        detail: 'Something went wrong on our side. Retrying with the same Idempotency-Key is safe.',
      });
    }
  };
}

/** JSON body, or a 400 problem when it is not JSON. */
export async function readJson(
  request: Request,
): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  try {
    return { ok: true, value: await request.json() };
  } catch {
    return {
      ok: false,
      response: problem({ status: 400, title: 'Bad Request', detail: 'The body must be valid JSON.' }),
    };
  }
}

export function validationProblem(error: z.ZodError): Response {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) (errors[issue.path.join('.') || '_'] ??= []).push(issue.message);
  return fieldsProblem(errors);
}

/** 422 naming the fields refused (by zod, or by a check that needed the database); nothing was stored. */
export function fieldsProblem(errors: Record<string, string[]>): Response {
  return problem({
    status: 422,
    title: 'Unprocessable Content',
    detail: 'The request has invalid fields; nothing was stored.',
    errors,
  });
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/**
 * A keyed write's preamble: the Idempotency-Key (400 when missing or malformed) and a JSON body valid
 * against `schema` (400/422). Rejections here happen before any work, so nothing is stored.
 */
export async function readKeyedRequest<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<{ ok: true; key: string; data: z.output<S> } | { ok: false; response: Response }> {
  const key = checkIdempotencyKey(request.headers.get('idempotency-key'));
  if (!key.ok) return { ok: false, response: problem({ status: 400, title: 'Bad Request', detail: key.detail }) };
  const body = await readJson(request);
  if (!body.ok) return body;
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) return { ok: false, response: validationProblem(parsed.error) };
  return { ok: true, key: key.key, data: parsed.data };
}
