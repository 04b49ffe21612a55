import type { ProviderMeta } from '../definition';
import { tiktokOptionsSchema } from './options';
import { tiktokTextLength } from './text-length';

const MB = 1024 * 1024;

export const tiktokMeta = {
  name: 'tiktok',
  label: 'TikTok',
  exactlyOnce:
    'TikTok has no idempotency: a delivery initialises one publish and keeps its publish_id before anything else; its status (PUBLISH_COMPLETE, SEND_TO_USER_INBOX, FAILED) settles every unknown outcome, and an init whose answer was lost is never sent again: it goes to review unless the account’s public videos show it.',
  accountNote:
    'TikTok lets an app it has not audited post only private videos (SELF_ONLY): until this app is audited, a public TikTok account’s posts fail with “unaudited client can only post to private accounts”. Each post needs one video and a privacy level chosen from the creator’s options.',
  textLimit: 2_200,
  countText: tiktokTextLength,
  media: {
    maxPerPost: 1,
    maxBytes: 4 * 1024 * MB,
    types: ['video/mp4', 'video/quicktime', 'video/webm'],
    // A TikTok post is its video: one without is refused when it is created, not when it is due.
    required: true,
    // developers.tiktok.com/doc/content-posting-api-media-transfer-guide (video restrictions); the creator's
    // max_video_post_duration_sec (creator_info) may be lower, and is checked at publishing.
    video: {
      formats: [
        {
          id: 'feed',
          label: 'TikTok video',
          types: ['video/mp4', 'video/quicktime', 'video/webm'],
          videoCodecs: ['h264', 'hevc'],
          audioCodecs: ['aac'],
          maxBytes: 4 * 1024 * MB,
          minDurationMs: 3_000,
          maxDurationMs: 600_000,
          // TikTok sets no aspect ratio; the side limits bound it.
          minAspectRatio: 360 / 4_096,
          maxAspectRatio: 4_096 / 360,
          minFrameRate: 23,
          maxFrameRate: 60,
          maxLongSide: 4_096,
          minShortSide: 360,
        },
      ],
    },
  },
  // The privacy level (required), interactions and direct post or inbox, per post (TikTok's UX rules).
  options: tiktokOptionsSchema,
  kinds: ['post'],
  connect: { method: 'oauth', oauth: true, fields: [] },
  sandboxPath: '/api/sandbox/tiktok',
  sandboxPostPath: (id) => `/api/sandbox/tiktok/v2/video/${id}`,
} as const satisfies ProviderMeta;
