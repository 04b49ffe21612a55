import type { ProviderMeta, VideoFormat } from '../definition';
import { youtubeOptionsSchema } from './options';
import { youtubeDescriptionBytes } from './settings';

const GB = 1024 ** 3;
const VIDEO_TYPES = ['video/mp4', 'video/quicktime'] as const;
// support.google.com/youtube/answer/1722171 (encoding settings) and /answer/71673 (longer than 15 minutes: a verified
// account; at most 12 hours or 256 GB); ffprobe names of the codecs YouTube lists.
const VIDEO_CODECS = ['h264', 'hevc', 'vp9', 'av1', 'mpeg4', 'prores'];
const AUDIO_CODECS = ['aac', 'mp3', 'opus', 'pcm_s16le', 'alac'];

const YOUTUBE_VIDEO_FORMATS: readonly VideoFormat[] = [
  {
    id: 'video',
    label: 'YouTube video',
    types: VIDEO_TYPES,
    videoCodecs: VIDEO_CODECS,
    audioCodecs: AUDIO_CODECS,
    maxBytes: 256 * GB,
    minDurationMs: 1_000,
    maxDurationMs: 12 * 3_600_000,
    minAspectRatio: 0.1,
    maxAspectRatio: 10,
  },
  {
    // support.google.com/youtube/answer/15424877: a Short is a square or vertical video up to 3 minutes; YouTube
    // makes one of every such upload (the Data API has no Short flag).
    id: 'short',
    label: 'YouTube Short',
    types: VIDEO_TYPES,
    videoCodecs: VIDEO_CODECS,
    audioCodecs: AUDIO_CODECS,
    maxBytes: 256 * GB,
    minDurationMs: 1_000,
    maxDurationMs: 180_000,
    minAspectRatio: 0.1,
    maxAspectRatio: 1,
  },
];

export const youtubeMeta = {
  name: 'youtube',
  label: 'YouTube',
  exactlyOnce:
    'YouTube has no idempotency: a delivery starts one resumable upload session and keeps its URI before the first byte; an interrupted upload asks that session how far it got and continues, and a lost answer to the last chunk is settled by the session, then the channel’s uploads playlist — never a second videos.insert.',
  accountNote:
    'YouTube’s quota is 10,000 units a day per Google Cloud project, and every upload costs 1,600: about 6 videos a day for all accounts of this app together (Semel defers the rest, never fails them). Videos longer than 15 minutes need a verified channel.',
  // The post's text is the video's description (at most 5,000 bytes); its title is derived from the first line.
  textLimit: 5_000,
  countText: youtubeDescriptionBytes,
  media: {
    maxPerPost: 1,
    maxBytes: 256 * GB,
    types: [...VIDEO_TYPES],
    // A YouTube post is its video: one without is refused when it is created, not when it is due.
    required: true,
    video: { formats: YOUTUBE_VIDEO_FORMATS },
  },
  formats: [{ id: 'short', label: 'Short', help: 'a square or vertical video up to 3 minutes' }],
  formatDefaultHelp: 'a video',
  // Title, privacy, tags and a scheduled release, per account (`options`); each has a default but the release.
  options: youtubeOptionsSchema,
  kinds: ['post'],
  connect: { method: 'oauth', oauth: true, fields: [] },
  sandboxPath: '/api/sandbox/youtube',
  sandboxPostPath: (id) => `/api/sandbox/youtube/youtube/v3/videos?part=snippet,status&id=${id}`,
} as const satisfies ProviderMeta;
