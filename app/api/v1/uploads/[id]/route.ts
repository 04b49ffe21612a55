import { getDb } from '@/db/client';
import {
  failMediaUpload,
  getUploadMedia,
  getWorkspaceMediaUpload,
  setMediaUploadOffset,
} from '@/db/queries/media-uploads';
import type { MediaUpload } from '@/db/schema';
import { json } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';
import { serializeMedia } from '@/lib/media/serialize';
import { getMediaStorage } from '@/lib/media/storage';
import { finishCompleteUpload, handleTus, MEDIA_ID_HEADER, TUS_HEADERS as TUS } from '@/lib/media/tus';
import { uploadsMethod, type Uploader } from '../uploader';

export const dynamic = 'force-dynamic';

const refused = (detail: string) =>
  problem({ status: 422, title: 'Unprocessable Content', detail: `${detail} Nothing was stored.` }, TUS);

const context = () => ({ db: getDb(), storage: getMediaStorage() });

/** A method on one upload of the caller's workspace; another workspace's id is a 404 like a missing one (I6). */
function uploadMethod(handler: (request: Request, upload: MediaUpload, uploader: Uploader) => Promise<Response>) {
  return uploadsMethod(async (request, uploader, id) => {
    const upload = await getWorkspaceMediaUpload(getDb(), { workspaceId: uploader.workspaceId, id });
    if (!upload) return problem({ status: 404, title: 'Not Found', detail: 'No such upload in this workspace.' }, TUS);
    return handler(request, upload, uploader);
  });
}

/**
 * What HEAD and PATCH answer once an upload is settled: a refused one stays refused (its file is gone: 410, a new
 * upload starts over); a finished one has all its bytes and its media id (a retried last PATCH whose answer was
 * lost hears it again). Null while bytes are still coming.
 */
function settledAnswer(upload: MediaUpload, status: 200 | 204): Response | null {
  if (upload.status === 'failed')
    return problem({ status: 410, title: 'Gone', detail: upload.error ?? 'This upload was refused or canceled.' }, TUS);
  if (upload.status !== 'finished') return null;
  return finishedAnswer(upload, upload.mediaId!, status);
}

const finishedAnswer = (upload: MediaUpload, mediaId: string, status: 200 | 204) =>
  new Response(null, {
    status,
    headers: {
      ...TUS,
      'Upload-Offset': String(upload.length),
      'Upload-Length': String(upload.length),
      [MEDIA_ID_HEADER]: mediaId,
    },
  });

/** Where an upload stands (the composer asks after its last byte): offset, status, and the media it made. */
export const GET = uploadMethod(async (_request, upload, uploader) => {
  const media =
    upload.status === 'finished'
      ? await getUploadMedia(getDb(), { workspaceId: uploader.workspaceId, id: upload.id })
      : null;
  return json(
    {
      id: upload.id,
      status: upload.status,
      offset: upload.offset,
      length: upload.length,
      error: upload.error,
      media: media ? serializeMedia(media) : null,
    },
    200,
    { 'cache-control': 'no-store' },
  );
});

/** The offset to resume at. Complete bytes whose finish was lost (the server stopped, the answer was lost) finish here. */
export const HEAD = uploadMethod(async (request, upload) => {
  const settled = settledAnswer(upload, 200);
  if (settled) return settled;
  const { response } = await handleTus(request, { ...context(), upload });
  if (!response.ok || response.headers.get('upload-offset') !== String(upload.length)) return response;
  const finished = await finishCompleteUpload({ ...context(), upload });
  if (finished.kind === 'refused') return refused(finished.message);
  return finishedAnswer(upload, finished.media.id, 200);
});

/** Bytes at the offset, streamed to the upload's file; the last byte finishes it (probe, store, one media row). */
export const PATCH = uploadMethod(async (request, upload) => {
  const settled = settledAnswer(upload, 204);
  if (settled) return settled;
  const { response, finished } = await handleTus(request, { ...context(), upload });
  if (finished?.kind === 'refused') return refused(finished.message);
  const offset = response.headers.get('upload-offset');
  if (response.ok && !finished && offset)
    await setMediaUploadOffset(getDb(), { id: upload.id, offset: Number(offset) });
  return response;
});

/** tus termination (the composer's cancel): the file goes; a finished upload's media stays (pruned unless used). */
export const DELETE = uploadMethod(async (request, upload) => {
  if (upload.status !== 'uploading') return new Response(null, { status: 204, headers: TUS });
  const { response } = await handleTus(request, { ...context(), upload });
  if (response.ok) await failMediaUpload(getDb(), { id: upload.id, error: 'Canceled by the uploader.' });
  return response;
});
