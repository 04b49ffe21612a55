import { defineRoute, problemResponse } from '@/lib/api/contract/define';
import { z } from '@/lib/api/contract/zod';

/** /api/v1/media/{id}/content — the contract of ./route.ts. */
export const mediaContentContract = defineRoute('/media/{id}/content', {
  GET: {
    operationId: 'getMediaContent',
    summary: "An image's bytes",
    description:
      "The stored image (metadata removed) that a post's, a thread part's or an upload's `media[].url` names, with its own `Content-Type`.",
    scope: 'posts:read',
    request: { params: z.object({ id: z.uuid().openapi({ description: 'The media id' }) }) },
    responses: {
      200: {
        description: 'The image',
        // Not JSON: the conformance test checks the status and Content-Type only.
        headers: z.object({ 'Content-Type': z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']) }),
      },
      404: problemResponse("No such image in this workspace (another workspace's is the same 404)"),
    },
  },
});
