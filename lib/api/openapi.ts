import { z } from 'zod';
import { deliveryStatusEnum } from '@/db/schema';
import { createPostRequestSchema } from '@/lib/posts/post-input';

const deliverySchema = z.object({
  id: z.uuid(), accountId: z.uuid(), status: z.enum(deliveryStatusEnum.enumValues), externalId: z.string().nullable(), url: z.string().nullable(),
});
const postSchema = z.object({
  id: z.uuid(),
  status: z.union([z.enum(deliveryStatusEnum.enumValues), z.literal('partial')]),
  kind: z.enum(['post', 'reply', 'dm']),
  text: z.string(),
  inReplyTo: z.string().nullable(),
  recipient: z.string().nullable(),
  scheduledAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  deliveries: z.array(deliverySchema),
});
const problemSchema = z.object({
  type: z.string(), title: z.string(), status: z.number().int(), detail: z.string().optional(), errors: z.record(z.string(), z.array(z.string())).optional(),
});
const accountSchema = z.object({ id: z.uuid(), provider: z.enum(['x', 'mastodon', 'bluesky']), sandbox: z.boolean(), handle: z.string(), displayName: z.string().nullable() });

const schema = (s: z.ZodType, io: 'input' | 'output' = 'output') => z.toJSONSchema(s, { io, target: 'draft-2020-12' });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const problemResponse = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

/** OpenAPI 3.1, generated from the same zod schemas the handlers validate with. */
export function openApiDocument(serverUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Postonce API',
      version: '1.0.0',
      description: 'Create and track posts exactly once. POST /posts requires an Idempotency-Key: reuse it on every retry of the same intent; a replay returns the stored response with `Idempotent-Replayed: true`.',
    },
    servers: [{ url: `${serverUrl}/api/v1` }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http', scheme: 'bearer',
          description: 'A workspace API key (Settings → API, or `npm run apikey -- --scopes posts:read,posts:write,accounts:read`). '
            + 'Reading posts needs `posts:read`, creating, editing and canceling `posts:write`, listing accounts `accounts:read`: a missing scope answers 403. '
            + 'Each key has a per-minute request limit: beyond it 429 with Retry-After; every answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset.',
        },
      },
      schemas: { CreatePost: schema(createPostRequestSchema, 'input'), Post: schema(postSchema), Delivery: schema(deliverySchema), Account: schema(accountSchema), Problem: schema(problemSchema) },
    },
    paths: {
      '/posts': {
        post: {
          summary: 'Create a post (idempotent)',
          parameters: [{ name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' } }],
          requestBody: { required: true, content: { 'application/json': { schema: ref('CreatePost') } } },
          responses: {
            201: { description: 'Created (or replayed, with Idempotent-Replayed: true)', content: { 'application/json': { schema: ref('Post') } } },
            400: problemResponse('Missing or malformed Idempotency-Key, or a body that is not JSON'),
            401: problemResponse('Missing or invalid API key'),
            409: problemResponse('The first request with this key is still running; retry after Retry-After seconds'),
            422: problemResponse('Invalid fields (nothing stored), or the key was used with a different request'),
          },
        },
        get: {
          summary: 'List posts, newest first',
          parameters: [
            { name: 'status', in: 'query', schema: { type: 'string', enum: deliveryStatusEnum.enumValues } },
            { name: 'account', in: 'query', schema: { type: 'string', format: 'uuid' } },
            { name: 'cursor', in: 'query', schema: { type: 'string' } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
          ],
          responses: {
            200: { description: 'A page of posts', content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'array', items: ref('Post') }, nextCursor: { type: ['string', 'null'] } } } } } },
            401: problemResponse('Missing or invalid API key'),
            400: problemResponse('Malformed cursor or a limit outside 1–100'),
          },
        },
      },
      '/posts/{id}': {
        get: { summary: 'A post with its deliveries', parameters: [idParam], responses: { 200: { description: 'The post', content: { 'application/json': { schema: ref('Post') } } }, 404: problemResponse('No such post in this workspace') } },
      },
      '/posts/{id}/cancel': {
        post: {
          summary: 'Cancel the deliveries still scheduled (idempotent)',
          parameters: [idParam],
          responses: { 200: { description: 'The post after canceling', content: { 'application/json': { schema: ref('Post') } } }, 404: problemResponse('No such post'), 409: problemResponse('Every delivery is already publishing or settled') },
        },
      },
      '/accounts': {
        get: { summary: 'Social accounts of the workspace', responses: { 200: { description: 'Accounts', content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'array', items: ref('Account') } } } } } } } },
      },
    },
  };
}
