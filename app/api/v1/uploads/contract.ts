import { defineRoute, problemResponse } from '@/lib/api/contract/define';
import { z } from '@/lib/api/contract/zod';

export const tusResumable = z.object({
  'Tus-Resumable': z.literal('1.0.0').openapi({ description: 'The tus protocol version (https://tus.io).' }),
});

/** /api/v1/uploads — the contract of ./route.ts. */
export const uploadsContract = defineRoute('/uploads', {
  POST: {
    operationId: 'createUpload',
    summary: 'Start a resumable video upload (tus creation)',
    description:
      'A tus 1.0 creation for an MP4 or MOV video up to `MEDIA_VIDEO_MAX_BYTES` (1 GiB by default). Send `Upload-Length` and `Upload-Metadata` (`filename`, `filetype` video/mp4 or video/quicktime, optional `altText`, each base64), then PATCH the bytes to the `Location` in chunks; any tus client works (tus-js-client, tus-py-client…). The last byte finishes the upload: the file is probed, stored once by its SHA-256 with a cover frame, and one media row is made, its id in `Semel-Media-Id`. Use it in `mediaIds` on POST /posts.',
    scope: 'posts:write',
    request: {
      headers: tusResumable.extend({
        'Upload-Length': z.string().regex(/^\d+$/).openapi({ description: 'The video’s size in bytes.' }),
        'Upload-Metadata': z
          .string()
          .openapi({ description: 'tus metadata: `filetype dmlkZW8vbXA0,filename Y2xpcC5tcDQ=`' }),
      }),
    },
    responses: {
      201: {
        description: 'Created: PATCH the bytes to `Location` (`/api/v1/uploads/{id}`)',
        headers: tusResumable.extend({ Location: z.string() }),
      },
      400: problemResponse('No `Upload-Length` (deferred lengths are not taken), or alt text too long'),
      413: problemResponse(
        'Longer than `MEDIA_VIDEO_MAX_BYTES`, or past the workspace’s storage quota (nothing stored)',
      ),
      415: problemResponse('Not a video type (images go to POST /media)'),
    },
  },
});
