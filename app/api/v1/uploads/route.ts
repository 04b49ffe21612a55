import { getDb } from '@/db/client';
import { failMediaUpload } from '@/db/queries/media-uploads';
import { problem } from '@/lib/http/problem';
import { getMediaStorage } from '@/lib/media/storage';
import { handleTus, newUploadId, parseUploadMetadata, TUS_HEADERS } from '@/lib/media/tus';
import { createVideoUpload } from '@/lib/media/video-upload';
import { uploadsMethod } from './uploader';

export const dynamic = 'force-dynamic';

const TITLES = {
  400: 'Bad Request',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
};

/**
 * tus creation of a video upload (docs/publishing.md#video): the checks and the row first (400/413/415 problem+json,
 * nothing stored), then tus makes the empty file; the Location names the upload, `/api/v1/uploads/<id>`.
 */
export const POST = uploadsMethod(async (request, uploader) => {
  const length = request.headers.get('upload-length');
  const id = newUploadId();
  const created = await createVideoUpload(getDb(), {
    id,
    workspaceId: uploader.workspaceId,
    actor: uploader.actor,
    length: length !== null && /^\d{1,16}$/.test(length) ? Number(length) : null,
    metadata: parseUploadMetadata(request.headers.get('upload-metadata')),
  });
  if (!created.ok)
    return problem(
      { status: created.status, title: TITLES[created.status], detail: `${created.detail} Nothing was stored.` },
      TUS_HEADERS,
    );
  const { response } = await handleTus(request, { db: getDb(), storage: getMediaStorage(), newId: id });
  // tus refused what the route let through (a body sent with the creation past the limit): the row no longer counts.
  if (!response.ok) await failMediaUpload(getDb(), { id, error: 'The upload could not be created.' });
  return response;
});
