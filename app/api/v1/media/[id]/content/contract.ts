import { defineRoute, problemResponse } from '@/lib/api/contract/define';
import { z } from '@/lib/api/contract/zod';
import { IMAGE_TYPES, VIDEO_TYPES } from '@/lib/media/sniff';

const contentType = z.object({ 'Content-Type': z.enum([...IMAGE_TYPES, ...VIDEO_TYPES]) });

/** /api/v1/media/{id}/content — the contract of ./route.ts. */
export const mediaContentContract = defineRoute('/media/{id}/content', {
  GET: {
    operationId: 'getMediaContent',
    summary: "A media file's bytes",
    description:
      "The stored image (metadata removed) or video that a post's, a thread part's or an upload's `media[].url` names, with its own `Content-Type`. One `Range: bytes=a-b` (or `a-`, or `-n`) is answered 206 with `Content-Range`; the bytes stream from the storage.",
    scope: 'posts:read',
    request: {
      params: z.object({ id: z.uuid().openapi({ description: 'The media id' }) }),
      headers: z.object({
        Range: z.string().optional().openapi({ description: 'One byte range, e.g. `bytes=0-1048575`.' }),
      }),
    },
    responses: {
      // Not JSON: the conformance test checks the status and Content-Type only.
      200: { description: 'The whole file', headers: contentType },
      206: { description: 'The asked range (`Content-Range: bytes a-b/size`)', headers: contentType },
      404: problemResponse("No such media in this workspace (another workspace's is the same 404)"),
      416: { description: 'The range starts past the end (`Content-Range: bytes */size`)' },
    },
  },
});
