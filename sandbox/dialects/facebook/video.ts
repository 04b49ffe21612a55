import { json, withWriteFaults } from '@/sandbox/behaviour/faults';
import { sha256Of, sniffVideoType } from '@/sandbox/http/media';
import { graphError, invalidParameter, unsupportedRequest } from '@/sandbox/dialects/threads/errors';
import { graphTime } from '@/sandbox/dialects/threads/reads';
import type { SandboxAccount, SandboxDeps, SandboxTiktokPublish } from '@/sandbox/store/types';
import { FACEBOOK_MAX_MESSAGE, facebookMessageLength } from './text-length';

// Facebook's resumable video upload as the sandbox serves it (developers.facebook.com/docs/video-api/guides/publishing,
// POST /{page-id}/videos with `upload_phase`): `start` (file_size) opens a session → { video_id, upload_session_id,
// start_offset, end_offset }; `transfer` takes `video_file_chunk` at `start_offset` (it must follow the bytes already
// received) → the next offsets; `finish` (description) publishes the video after processing. As weak as the real thing:
// every start is a new video, nothing is deduplicated, and the bytes are checked (the container is read from the first
// bytes, the size must be exact), never just accepted. A session is kept with the store's chunked-upload primitives
// (the same compare-and-set a TikTok FILE_UPLOAD uses). Write faults apply to `finish`, the step that makes a post.

/** How long the sandbox processes a video after `finish` (Facebook takes seconds to minutes). */
export const FACEBOOK_VIDEO_PROCESSING_MS = 600;
/** The chunk size the answers ask for (Facebook names its own; 1 MB keeps the tests' small videos to a few chunks). */
const CHUNK_BYTES = 1024 * 1024;
/** The largest video the sandbox takes (Facebook's own limit, 10 GB, is checked by the composer). */
const MAX_VIDEO_BYTES = 512 * 1024 * 1024;

export async function videoPhase(
  request: Request,
  params: URLSearchParams,
  file: Uint8Array | null,
  page: SandboxAccount,
  deps: SandboxDeps,
): Promise<Response> {
  const phase = params.get('upload_phase');
  if (phase === 'start') {
    const size = Number(params.get('file_size'));
    if (!Number.isInteger(size) || size <= 0 || size > MAX_VIDEO_BYTES)
      return invalidParameter('file_size must be a positive number of bytes (at most 512 MB on the sandbox).');
    const session = await deps.store.createTiktokPublish({
      accountId: page.id,
      mode: 'direct',
      source: 'FILE_UPLOAD',
      title: '',
      privacyLevel: null,
      videoUrl: null,
      videoSize: size,
      chunkSize: CHUNK_BYTES,
      totalChunkCount: Math.max(1, Math.ceil(size / CHUNK_BYTES)),
    });
    return json(200, {
      video_id: session.id,
      upload_session_id: session.id,
      start_offset: '0',
      end_offset: String(Math.min(size, CHUNK_BYTES)),
    });
  }
  const session = await sessionOf(params.get('upload_session_id'), page, deps);
  if (!session) return unsupportedRequest('post', params.get('upload_session_id') ?? '');
  if (phase === 'transfer') {
    const offset = Number(params.get('start_offset'));
    if (!file || file.length === 0) return invalidParameter('video_file_chunk is required.');
    if (offset !== session.uploadedBytes)
      return graphError(400, {
        message: `(#6001) The start_offset ${offset} does not match the bytes received (${session.uploadedBytes}).`,
        code: 6001,
        subcode: 1363037,
      });
    const taken = await deps.store.takeTiktokChunk({
      id: session.id,
      first: offset,
      length: file.length,
      media:
        offset === 0
          ? [{ type: sniffVideoType(file) ?? 'application/octet-stream', altText: '', sha256: sha256Of(file) }]
          : undefined,
    });
    if (!taken) return invalidParameter('The chunk does not fit the upload session.');
    const next = taken.uploadedBytes;
    return json(200, {
      start_offset: String(next),
      end_offset: String(Math.min(taken.videoSize!, next + CHUNK_BYTES)),
    });
  }
  if (phase === 'finish') {
    const description = params.get('description') ?? '';
    if (facebookMessageLength(description) > FACEBOOK_MAX_MESSAGE)
      return invalidParameter(`The description must be at most ${FACEBOOK_MAX_MESSAGE} characters.`);
    if (session.uploadedBytes !== session.videoSize)
      return graphError(400, {
        message: '(#6000) There was a problem uploading your video file: the upload is incomplete.',
        code: 6000,
      });
    return withWriteFaults(deps, request, { platform: 'facebook', accountId: page.id }, async (context) => {
      // One session, one video: a finish after the first is refused (it never publishes a second copy).
      const video = session.media.filter((m) => m.type.startsWith('video/'));
      const ended = await deps.store.finishTiktokPublish({
        id: session.id,
        account: page,
        readyAt: new Date(Math.max(context.createAt, Date.now()) + FACEBOOK_VIDEO_PROCESSING_MS),
        media: video,
        failReason: video.length > 0 ? null : 'The video file is not a supported format.',
        text: description,
      });
      if (!ended) return invalidParameter('This upload session has already been finished.');
      return json(200, { success: true });
    });
  }
  return invalidParameter('upload_phase must be start, transfer or finish.');
}

async function sessionOf(id: string | null, page: SandboxAccount, deps: SandboxDeps) {
  const session = id ? await deps.store.getTiktokPublish(id) : null;
  return session && session.accountId === page.id && session.source === 'FILE_UPLOAD' && !session.videoUrl
    ? session
    : null;
}

/** GET /{video-id}: the fields asked for, `status` as Facebook's VideoStatus with its three phases. */
export function videoJson(session: SandboxTiktokPublish, page: SandboxAccount, fields: Set<string>, base: string) {
  const now = new Date();
  const uploaded = session.uploadedBytes === session.videoSize;
  const finished = session.readyAt !== null || session.failReason !== null;
  const ready = session.readyAt !== null && now >= session.readyAt && !session.failReason;
  const error = session.failReason ? [{ code: 1363008, message: session.failReason }] : undefined;
  const postId = ready && session.postId ? `${page.platformUserId}_${session.postId}` : null;
  const status = {
    video_status: session.failReason
      ? 'error'
      : ready
        ? 'ready'
        : uploaded && !finished
          ? 'upload_complete'
          : 'processing',
    uploading_phase: uploaded
      ? { status: 'complete', bytes_transferred: session.uploadedBytes }
      : { status: 'in_progress', bytes_transferred: session.uploadedBytes },
    processing_phase: session.failReason
      ? { status: 'error', errors: error }
      : { status: !finished ? 'not_started' : ready ? 'complete' : 'in_progress' },
    publishing_phase: ready
      ? { status: 'complete', publish_status: 'published', publish_time: graphTime(session.readyAt!) }
      : { status: 'not_started' },
  };
  const all: Record<string, unknown> = {
    id: session.id,
    status,
    ...(postId ? { post_id: postId, permalink_url: `${base}/v23.0/${postId}` } : {}),
    created_time: graphTime(session.createdAt),
  };
  return Object.fromEntries(Object.entries(all).filter(([key]) => key === 'id' || fields.has(key)));
}
