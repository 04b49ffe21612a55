import type { Database } from '@/db/client';
import { getWorkspaceMediaUsage, type MediaRow } from '@/db/queries/media';
import {
  createMediaUpload,
  failMediaUpload,
  finishMediaUpload,
  getUploadMedia,
  getWorkspaceMediaUpload,
  getWorkspaceUploadingBytes,
} from '@/db/queries/media-uploads';
import type { MediaUpload } from '@/db/schema';
import { getEnv } from '@/lib/env';
import { logger } from '@/lib/logging/logger';
import { MAX_ALT_TEXT } from './upload';
import { sha256OfFile, type MediaStorage } from './media-storage';
import { VIDEO_TYPES } from './sniff';
import { extractCoverFrame, probeVideo, type VideoFacts } from './video';

/** An unfinished upload is kept this long (as long as an unused upload's media row), then removed. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

export type UploadRefusal = { status: 400 | 413 | 415 | 422; detail: string };

const gibibytes = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GiB`;

/**
 * A new upload's row, after the checks that need no byte of it: a declared length within MEDIA_VIDEO_MAX_BYTES and
 * the workspace's quota (its media plus the lengths its unfinished uploads declared), a video type, alt text within
 * bounds. A refusal stores nothing.
 */
export async function createVideoUpload(
  db: Database,
  params: {
    id: string;
    workspaceId: string;
    actor: string;
    length: number | null;
    metadata: Record<string, string | undefined>;
    now?: Date;
  },
): Promise<{ ok: true } | ({ ok: false } & UploadRefusal)> {
  const env = getEnv();
  const { length, metadata } = params;
  const now = params.now ?? new Date();
  if (length === null || !Number.isSafeInteger(length) || length <= 0)
    return {
      ok: false,
      status: 400,
      detail: 'Declare the video’s size in Upload-Length (deferred lengths are not taken).',
    };
  if (length > env.MEDIA_VIDEO_MAX_BYTES)
    return {
      ok: false,
      status: 413,
      detail: `This video is ${gibibytes(length)}; videos are at most ${gibibytes(env.MEDIA_VIDEO_MAX_BYTES)} (MEDIA_VIDEO_MAX_BYTES).`,
    };
  // What the client declares decides only whether to start; the file is probed at the finish.
  const type = metadata.filetype ?? metadata.type;
  if (!type || !(VIDEO_TYPES as readonly string[]).includes(type))
    return {
      ok: false,
      status: 415,
      detail:
        'Upload an MP4 or MOV video here (Upload-Metadata `filetype` video/mp4 or video/quicktime); images go to POST /api/v1/media.',
    };
  const altText = (metadata.altText ?? '').normalize('NFC').trim();
  if (altText.length > MAX_ALT_TEXT || altText.includes('\u0000'))
    return { ok: false, status: 400, detail: `The alt text must be at most ${MAX_ALT_TEXT} characters, without NUL.` };
  // A soft limit, like an image's: two uploads declared at once may both fit the last bytes.
  const quota = env.MEDIA_QUOTA_BYTES_PER_WORKSPACE;
  const used =
    (await getWorkspaceMediaUsage(db, { workspaceId: params.workspaceId })).bytes +
    (await getWorkspaceUploadingBytes(db, { workspaceId: params.workspaceId, now }));
  if (used + length > quota)
    return {
      ok: false,
      status: 413,
      detail:
        `This workspace's media storage cannot take ${gibibytes(length)} more (${gibibytes(used)} of ${gibibytes(quota)} used). ` +
        'Media no post uses are removed after 24 hours; or ask the admin to raise MEDIA_QUOTA_BYTES_PER_WORKSPACE.',
    };
  await createMediaUpload(db, {
    id: params.id,
    workspaceId: params.workspaceId,
    createdBy: params.actor,
    length,
    metadata: { type, ...(metadata.filename ? { filename: metadata.filename } : {}), ...(altText ? { altText } : {}) },
    expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS),
  });
  return { ok: true };
}

export type FinishResult = { kind: 'ok'; media: MediaRow; created: boolean } | { kind: 'refused'; message: string };

/**
 * Makes the one media row of an upload whose bytes are all in `file`: probe (anything but MP4/MOV with H.264/HEVC and
 * AAC is refused and nothing is stored), SHA-256 and cover frame, both files stored by their hash, then the row, once
 * (`finishMediaUpload`). Everything before the row is content-addressed, so a finish run twice at once stores the same
 * objects and the second finds the first's row. `discard` removes the upload's temporary file, after the row.
 */
export async function finishVideoUpload(
  db: Database,
  upload: Pick<MediaUpload, 'id' | 'workspaceId' | 'createdBy' | 'metadata'>,
  options: { file: string; storage: MediaStorage; discard: () => Promise<void> },
): Promise<FinishResult> {
  let result: FinishResult;
  try {
    result = await storeAndRecord(db, upload, options);
  } catch (error) {
    // A finish that lost the race may find the file already gone: the winner's row is the answer.
    const settled = await settledUpload(db, upload);
    if (settled) return settled;
    throw error;
  }
  if (result.kind === 'refused') {
    const settled = await settledUpload(db, upload);
    if (settled) return settled;
    await failMediaUpload(db, { id: upload.id, error: result.message });
  }
  await options.discard();
  return result;
}

async function storeAndRecord(
  db: Database,
  upload: Pick<MediaUpload, 'id' | 'workspaceId' | 'createdBy' | 'metadata'>,
  options: { file: string; storage: MediaStorage },
): Promise<FinishResult> {
  const probe = await probeVideo(options.file);
  if (!probe.ok) return { kind: 'refused', message: probe.message };
  const stored = await storeVideoFile(options.storage, options.file, probe.facts);
  const finished = await finishMediaUpload(db, {
    id: upload.id,
    media: {
      workspaceId: upload.workspaceId,
      createdBy: upload.createdBy,
      altText: upload.metadata.altText ?? '',
      ...stored,
    },
  });
  if (!finished) return { kind: 'refused', message: 'This upload was refused or removed; start a new one.' };
  if (finished.created)
    logger.info({ uploadId: upload.id, mediaId: finished.media.id, workspaceId: upload.workspaceId }, 'video stored');
  return { kind: 'ok', ...finished };
}

/** The upload's outcome once another finish has settled it (its media row, or its refusal). */
async function settledUpload(
  db: Database,
  upload: Pick<MediaUpload, 'id' | 'workspaceId'>,
): Promise<FinishResult | null> {
  const row = await getWorkspaceMediaUpload(db, { workspaceId: upload.workspaceId, id: upload.id });
  if (row?.status === 'failed') return { kind: 'refused', message: row.error ?? 'This upload was refused.' };
  if (row?.status !== 'finished') return null;
  const media = await getUploadMedia(db, { workspaceId: upload.workspaceId, id: upload.id });
  return media ? { kind: 'ok', media, created: false } : null;
}

/**
 * A probed video's bytes and its cover in the media storage, by SHA-256 (streamed from the file: never whole in
 * memory), and the media row's columns for it.
 */
export async function storeVideoFile(storage: MediaStorage, file: string, facts: VideoFacts) {
  const sha256 = await sha256OfFile(file);
  const cover = await storage.put(await extractCoverFrame(file));
  const { size } = await storage.putFile(file, sha256);
  return {
    sha256,
    type: facts.container === 'mov' ? 'video/quicktime' : 'video/mp4',
    width: facts.width,
    height: facts.height,
    size,
    durationMs: facts.durationMs,
    videoCodec: facts.videoCodec,
    audioCodec: facts.audioCodec,
    frameRate: facts.frameRate,
    rotation: facts.rotation,
    container: facts.container,
    coverSha256: cover.sha256,
  };
}
