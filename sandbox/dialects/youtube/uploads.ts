import { randomBytes } from 'node:crypto';
import type { NewSandboxPost, SandboxYoutubeUpload } from '@/sandbox/store/types';

// A YouTube resumable upload session's life, written once for the dialect and both stores
// (developers.google.com/youtube/v3/guides/using_resumable_upload_protocol).

/** Session ids shaped like Google's `upload_id` values: opaque, URL-safe. */
export function newYoutubeUploadId(): string {
  return `ADPycd${randomBytes(36).toString('base64url')}`;
}

/** A chunk is taken whole, in order, while the session waits for bytes, and never past the declared size. */
export function chunkFits(upload: SandboxYoutubeUpload, first: number, length: number): boolean {
  return (
    !upload.completedAt &&
    !upload.failReason &&
    first === upload.uploadedBytes &&
    length > 0 &&
    first + length <= upload.declaredBytes
  );
}

/**
 * The video a complete session becomes: the post's text is the description (what the product compares), the title,
 * tags and privacy in its record. Dated when the last byte arrived; a private or scheduled video is the owner's too,
 * and their uploads playlist lists it (the owner reads with their own token).
 */
export function youtubeVideoOf(upload: SandboxYoutubeUpload): Omit<NewSandboxPost, 'account'> {
  return {
    kind: 'post',
    text: upload.description,
    media: upload.media,
    record: {
      youtube: {
        uploadId: upload.id,
        title: upload.title,
        tags: upload.tags,
        privacyStatus: upload.privacyStatus,
        publishAt: upload.publishAt?.toISOString() ?? null,
      },
    },
  };
}

/** The day YouTube's quota counts in: it resets at midnight Pacific Time. */
export function pacificDay(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(now);
}
