import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { mediaSchema } from '@/lib/api/contract/schemas';
import { z } from '@/lib/api/contract/zod';
import { tusResumable } from '../contract';

const params = z.object({ id: z.string().openapi({ description: 'The upload id (the last segment of `Location`)' }) });
const offsets = tusResumable.extend({
  'Upload-Offset': z.string().regex(/^\d+$/),
  'Upload-Length': z.string().regex(/^\d+$/),
});
const mediaId = z.object({
  'Semel-Media-Id': z.uuid().optional().openapi({ description: 'The media the finished upload made.' }),
});
const notFound = problemResponse("No such upload in this workspace (another workspace's is the same 404)");
const gone = problemResponse('The upload was refused at its finish (the reason in `detail`) or canceled');

const uploadStatusSchema = z
  .object({
    id: z.string(),
    status: z.enum(['uploading', 'finished', 'failed']),
    offset: z.int(),
    length: z.int(),
    error: z.string().nullable(),
    media: mediaSchema.nullable(),
  })
  .openapi('Upload');

/** /api/v1/uploads/{id} — the contract of ./route.ts. */
export const uploadContract = defineRoute('/uploads/{id}', {
  GET: {
    operationId: 'getUpload',
    summary: 'Where a video upload stands',
    description: 'Its offset and status and, once finished, the media it made (with the video’s facts).',
    scope: 'posts:write',
    request: { params },
    responses: { 200: jsonResponse('The upload', uploadStatusSchema), 404: notFound },
  },
  HEAD: {
    operationId: 'getUploadOffset',
    summary: 'The offset to resume at (tus)',
    description:
      'After a dropped connection: PATCH again from `Upload-Offset`. An upload whose bytes are all here but whose finish was lost is finished by this request.',
    scope: 'posts:write',
    request: { params },
    responses: {
      200: { description: 'The offset; `Semel-Media-Id` once finished', headers: offsets.merge(mediaId) },
      404: notFound,
      410: gone,
      422: problemResponse('The complete file is not a video we take (nothing stored)'),
    },
  },
  PATCH: {
    operationId: 'appendUpload',
    summary: 'Send bytes at the offset (tus)',
    description:
      '`Content-Type: application/offset+octet-stream` and `Upload-Offset` equal to the current offset. The bytes stream to disk as they arrive (what arrived before a dropped connection is kept). The last byte finishes the upload: probe, store once, one media row (`Semel-Media-Id`); a repeated last PATCH answers the same.',
    scope: 'posts:write',
    request: {
      params,
      headers: tusResumable.extend({ 'Upload-Offset': z.string().regex(/^\d+$/) }),
      body: { content: { 'application/offset+octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
    },
    responses: {
      204: {
        description: 'Stored up to `Upload-Offset`',
        headers: offsets.pick({ 'Tus-Resumable': true, 'Upload-Offset': true }).merge(mediaId),
      },
      404: notFound,
      409: { description: '`Upload-Offset` is not the current offset (HEAD, then resume)' },
      410: gone,
      413: { description: 'More bytes than the declared length' },
      422: problemResponse(
        'The file is not a video we take: MP4 or MOV, H.264 or HEVC, AAC or no sound (`detail` says what to change; nothing stored)',
      ),
    },
  },
  DELETE: {
    operationId: 'cancelUpload',
    summary: 'Cancel an upload (tus termination)',
    description: 'Its file is removed. A finished upload’s media stays (removed after 24 h unless a post uses it).',
    scope: 'posts:write',
    request: { params },
    responses: { 204: { description: 'Canceled', headers: tusResumable }, 404: notFound },
  },
});
