import type { ProviderMeta } from '../definition';
import { facebookTextLength } from './text-length';

const MB = 1024 * 1024;
const GB = 1024 * MB;

export const facebookMeta = {
  name: 'facebook',
  label: 'Facebook',
  exactlyOnce:
    'Facebook has no idempotency: an unknown outcome of a post is settled by reading the page’s published posts (the same copy → sent, a similar one → review, none twice after the quiet period → published once more); a video is one resumable upload session kept on the delivery, and its status settles a lost finish, never a second upload. A first comment goes after its post is confirmed (the Page’s own comment); an unknown one is settled by reading that post’s comments.',
  accountNote:
    'One account per Facebook Page you administer; posts go out as the Page, with its page token (it does not expire while the app keeps its permissions).',
  textLimit: 63_206,
  countText: facebookTextLength,
  // A feed post takes up to 10 photos (attached_media) or one video, never both.
  media: {
    maxPerPost: 10,
    maxBytes: 4 * MB,
    types: ['image/jpeg', 'image/png', 'image/gif', 'video/mp4', 'video/quicktime'],
    // developers.facebook.com/docs/video-api/guides/publishing and Facebook's video specifications: MP4 or MOV,
    // up to 10 GB and 240 minutes.
    video: {
      formats: [
        {
          id: 'feed',
          label: 'Facebook video',
          types: ['video/mp4', 'video/quicktime'],
          videoCodecs: ['h264', 'hevc'],
          audioCodecs: ['aac'],
          maxBytes: 10 * GB,
          minDurationMs: 1_000,
          maxDurationMs: 240 * 60_000,
          minAspectRatio: 9 / 16,
          maxAspectRatio: 16 / 9,
          maxFrameRate: 60,
        },
      ],
    },
  },
  // A reply is the Page's own comment on its post (POST /{page-post-id}/comments with the page token): a thread to
  // Facebook is a post and its first comment, and only that. The Graph reference names no length; 8,000 characters is
  // what Facebook takes in a comment, and a comment is text without images here.
  kinds: ['post', 'reply'],
  replies: { noun: 'comment', textLimit: 8_000, media: false, maxThreadParts: 2, threadOnly: true },
  connect: { method: 'oauth', oauth: true, fields: [] },
  sandboxPath: '/api/sandbox/facebook',
  sandboxPostPath: (id) => `/api/sandbox/facebook/v23.0/${id}?fields=id,message,created_time,permalink_url`,
} as const satisfies ProviderMeta;
