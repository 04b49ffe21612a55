import type { Database } from '@/db/client';
import { getPostsMedia, type MediaRow } from '@/db/queries/media';
import { serializeMedia } from '@/lib/media/serialize';
import { videoFactsOf } from '@/lib/media/video-limits';
import { signedMediaUrl } from '@/lib/media/signed-url';
import type { MediaStorage } from '@/lib/media/storage';
import { appOrigin } from '@/lib/providers/base-url';
import type { PublishMedia } from '@/lib/providers/types';

/**
 * Where a platform that fetches images itself (Threads) finds them: the sandbox on this app's own origin; a
 * real platform at the app's public address (NEXTAUTH_URL), which must then be reachable from the internet.
 */
function mediaOrigin(baseUrl: string, origin: string | undefined): string {
  const sandbox = /^\/(?![/\\])/.test(baseUrl);
  if (!sandbox && process.env.NEXTAUTH_URL) return new URL(process.env.NEXTAUTH_URL).origin;
  return origin ?? appOrigin();
}

/** A video row's facts and cover as the providers take them; nothing for an image. */
function videoOf(
  m: MediaRow,
  signed: (sha256: string) => () => string,
  storage: MediaStorage,
): Pick<PublishMedia, 'video' | 'coverUrl' | 'readCover'> {
  const facts = videoFactsOf(serializeMedia(m));
  if (!facts || !m.coverSha256) return {};
  const cover = m.coverSha256;
  return {
    video: { ...facts, rotation: m.rotation as 0 | 90 | 180 | 270 },
    coverUrl: signed(cover),
    readCover: async () => {
      const bytes = await storage.get(cover);
      if (!bytes) throw new Error(`the cover of media ${m.id} is missing from the media storage`);
      return bytes;
    },
  };
}

/** The images of each attempt's post part (0: a single post), in order, as the clients upload them. */
export async function loadPublishMedia(
  db: Database,
  attempts: { deliveryId: string; postId: string; part?: number; baseUrl: string; hasMedia: boolean }[],
  options: { storage: MediaStorage; encryptionKey: string; origin?: string },
): Promise<Map<string, PublishMedia[]>> {
  const withMedia = attempts.filter((a) => a.hasMedia);
  if (withMedia.length === 0) return new Map(); // the common case: no statement at all
  const rows = await getPostsMedia(db, { postIds: [...new Set(withMedia.map((a) => a.postId))] });
  const byPost = new Map<string, typeof rows>();
  const keyOf = (postId: string, part: number) => `${postId}\u0000${part}`;
  for (const row of rows) {
    const key = keyOf(row.postId, row.part);
    byPost.set(key, [...(byPost.get(key) ?? []), row]);
  }
  const out = new Map<string, PublishMedia[]>();
  for (const attempt of attempts) {
    const media = byPost.get(keyOf(attempt.postId, attempt.part ?? 0));
    if (!media) continue;
    out.set(
      attempt.deliveryId,
      media.map((m) => {
        const signed = (sha256: string) => () =>
          signedMediaUrl({
            origin: mediaOrigin(attempt.baseUrl, options.origin),
            sha256,
            encryptionKey: options.encryptionKey,
          });
        return {
          id: m.id,
          sha256: m.sha256,
          mimeType: m.type,
          altText: m.altText,
          sizeBytes: m.size,
          read: async () => {
            const bytes = await options.storage.get(m.sha256);
            if (!bytes) throw new Error(`media ${m.id} is missing from the media storage`);
            return bytes;
          },
          stream: async (range) => {
            const opened = await options.storage.open(m.sha256, range);
            if (!opened) throw new Error(`media ${m.id} is missing from the media storage`);
            return opened.body;
          },
          publicUrl: signed(m.sha256),
          ...videoOf(m, signed, options.storage),
        } satisfies PublishMedia;
      }),
    );
  }
  return out;
}
