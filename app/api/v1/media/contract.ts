import {
  defineRoute,
  idempotencyKeyHeader,
  jsonResponse,
  problemResponse,
  replayedHeader,
  retryAfterHeader,
} from '@/lib/api/contract/define';
import { mediaSchema } from '@/lib/api/contract/schemas';
import { z } from '@/lib/api/contract/zod';

const uploadSchema = z
  .object({
    file: z.string().openapi({
      format: 'binary',
      description: 'The image: JPEG, PNG, GIF or WebP, at most 5 MB, recognised by its content (not its name).',
    }),
    altText: z.string().max(1000).optional().openapi({
      description: "What the image shows, for people who cannot see it. Required when the workspace's setting says so.",
    }),
  })
  .openapi('MediaUpload');

/** /api/v1/media — the contract of ./route.ts. */
export const mediaContract = defineRoute('/media', {
  POST: {
    operationId: 'uploadMedia',
    summary: 'Upload an image (idempotent)',
    description:
      'Stores one image for later posts (`mediaIds` on POST /posts), exactly once per Idempotency-Key. The type is decided by the content; EXIF and other metadata (GPS position!) are removed, so `size` is that of the stored image.',
    scope: 'posts:write',
    request: {
      headers: idempotencyKeyHeader,
      body: { required: true, content: { 'multipart/form-data': { schema: uploadSchema } } },
    },
    responses: {
      201: jsonResponse('Stored, or the replay of the first answer for this key', mediaSchema, replayedHeader),
      400: problemResponse('Missing or malformed Idempotency-Key, or a body that is not multipart (nothing stored)'),
      409: problemResponse(
        'The first request with this key is still running (retry after `Retry-After` seconds)',
        undefined,
        retryAfterHeader,
      ),
      413: problemResponse('The body is larger than 5 MB (nothing stored)'),
      415: problemResponse('The body is not multipart/form-data (nothing stored)'),
      422: problemResponse(
        'Not a supported image, too large, alt text missing or too long (nothing stored; `errors` per field), or the key was already used with a different request',
      ),
    },
  },
});
