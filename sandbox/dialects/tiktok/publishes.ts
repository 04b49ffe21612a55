import { randomInt } from 'node:crypto';
import type { NewSandboxPost, SandboxTiktokPublish } from '@/sandbox/store/types';

// A TikTok publish's life, written once for the dialect and both stores
// (developers.tiktok.com/doc/content-posting-api-reference-get-video-status).

export type PublishStatus =
  'PROCESSING_UPLOAD' | 'PROCESSING_DOWNLOAD' | 'SEND_TO_USER_INBOX' | 'PUBLISH_COMPLETE' | 'FAILED';

export function publishStatus(publish: SandboxTiktokPublish, now: Date): PublishStatus {
  if (publish.failReason) return 'FAILED';
  if (!publish.readyAt || now < publish.readyAt)
    return publish.source === 'FILE_UPLOAD' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD';
  return publish.mode === 'inbox' ? 'SEND_TO_USER_INBOX' : 'PUBLISH_COMPLETE';
}

/** Ids shaped like TikTok's (`v_pub_url~v2-1.7…`): opaque to clients, never a post id. */
export function newTiktokPublishId(): string {
  return `v_pub~v2-1.${randomInt(1e9, 1e10 - 1)}${String(randomInt(0, 1e9)).padStart(9, '0')}`;
}

/** A FILE_UPLOAD chunk is taken whole, in order, while the publish waits for bytes, and never past the declared size. */
export function chunkFits(publish: SandboxTiktokPublish, first: number, length: number): boolean {
  return (
    publish.source === 'FILE_UPLOAD' &&
    !publish.readyAt &&
    !publish.failReason &&
    first === publish.uploadedBytes &&
    length > 0 &&
    first + length <= (publish.videoSize ?? 0)
  );
}

/**
 * The post a complete publish becomes, dated when processing ends. Only a direct, public post is listed
 * (`record.tiktok.listed`): video.list shows public videos only, never a private one or an inbox draft.
 */
export function tiktokPostOf(publish: SandboxTiktokPublish, readyAt: Date): Omit<NewSandboxPost, 'account'> {
  return {
    kind: 'post',
    text: publish.title,
    media: publish.media,
    createdAt: readyAt,
    record: {
      tiktok: {
        mode: publish.mode,
        privacyLevel: publish.privacyLevel,
        listed: publish.mode === 'direct' && publish.privacyLevel === 'PUBLIC_TO_EVERYONE',
      },
    },
  };
}
