import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import { sendOnce } from '@/lib/net/send';
import type { CallOptions } from '../call-budget';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import { ProviderReadError, type RawOutcome, type RecentPost } from '../types';
import { classifyTiktok, tiktokError } from './classifier';

// The TikTok API v2 (open.tiktokapis.com) as developers.tiktok.com documents it: Content Posting API (creator_info/query,
// video/init, inbox/video/init, the upload URL's PUT, status/fetch) and Display API (user/info, video/list). Every answer
// is the envelope `{ data, error: { code, message, log_id } }`; `error.code` is "ok" on success.

export type TiktokAccount = {
  baseUrl: string;
  platformUserId: string;
  accessToken: string;
  outbound?: OutboundPolicy;
};

export type CreatorInfo = {
  username: string | null;
  privacyLevels: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxDurationSec: number | null;
};

export type PublishStatus =
  'PROCESSING_UPLOAD' | 'PROCESSING_DOWNLOAD' | 'SEND_TO_USER_INBOX' | 'PUBLISH_COMPLETE' | 'FAILED';
const STATUSES = new Set<string>([
  'PROCESSING_UPLOAD',
  'PROCESSING_DOWNLOAD',
  'SEND_TO_USER_INBOX',
  'PUBLISH_COMPLETE',
  'FAILED',
]);

export type StatusRead =
  | {
      kind: 'status';
      status: PublishStatus;
      failReason: string | null;
      postIds: string[];
      uploadedBytes: number | null;
      raw: RawOutcome;
    }
  /** TikTok does not know this publish_id (any more). */
  | { kind: 'missing'; raw: RawOutcome }
  | { kind: 'unreadable'; raw: RawOutcome };

export type VideoSource =
  | { source: 'PULL_FROM_URL'; videoUrl: string }
  | { source: 'FILE_UPLOAD'; videoSize: number; chunkSize: number; totalChunkCount: number };

export type InitInput = {
  /** Direct post: the post's settings; absent for an inbox upload (the creator finishes it in the app). */
  post?: {
    title: string;
    privacyLevel: string;
    disableComment: boolean;
    disableDuet: boolean;
    disableStitch: boolean;
  };
  source: VideoSource;
};

/** The video list's fields we read (video.list scope): only public videos are listed. */
const VIDEO_FIELDS = 'id,title,video_description,create_time,share_url';

/** One request per call through the transport (never retried); the token travels in the header. */
export function createTiktokApi(account: TiktokAccount, send: ProviderTransport = sendOnce) {
  const base = account.baseUrl.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${account.accessToken}` };
  const post = (path: string, json: unknown, options: CallOptions) =>
    send({ method: 'POST', url: `${base}${path}`, headers, json, outbound: account.outbound, ...options });

  /** A read whose `ok` envelope's data is returned; anything else throws ProviderReadError with its classification. */
  async function read(raw: RawOutcome): Promise<Record<string, unknown>> {
    if (raw.type === 'response' && raw.status >= 200 && raw.status < 300 && tiktokError(raw)?.code === 'ok')
      return asRecord(asRecord(raw.body).data);
    const classification = classifyTiktok(raw);
    throw new ProviderReadError(`Could not read from TikTok: ${classification.reason}`, classification);
  }

  return {
    /** POST creator_info/query: what this creator may post now (privacy levels, interactions, longest video). */
    async creatorInfo(
      options: CallOptions,
    ): Promise<{ ok: true; info: CreatorInfo; raw: RawOutcome } | { ok: false; raw: RawOutcome }> {
      const raw = await post('/v2/post/publish/creator_info/query/', {}, options);
      if (raw.type !== 'response' || raw.status >= 300 || tiktokError(raw)?.code !== 'ok') return { ok: false, raw };
      const data = asRecord(asRecord(raw.body).data);
      const levels = Array.isArray(data.privacy_level_options) ? data.privacy_level_options : [];
      const max = Number(data.max_video_post_duration_sec);
      return {
        ok: true,
        raw,
        info: {
          username: asString(data.creator_username) ?? null,
          privacyLevels: levels.filter((l): l is string => typeof l === 'string'),
          commentDisabled: data.comment_disabled === true,
          duetDisabled: data.duet_disabled === true,
          stitchDisabled: data.stitch_disabled === true,
          maxDurationSec: Number.isFinite(max) && max > 0 ? max : null,
        },
      };
    },

    /** POST video/init (direct post) or inbox/video/init: one call makes one publish on TikTok, every time. */
    init(input: InitInput, options: CallOptions) {
      const source_info =
        input.source.source === 'PULL_FROM_URL'
          ? { source: 'PULL_FROM_URL', video_url: input.source.videoUrl }
          : {
              source: 'FILE_UPLOAD',
              video_size: input.source.videoSize,
              chunk_size: input.source.chunkSize,
              total_chunk_count: input.source.totalChunkCount,
            };
      if (!input.post) return post('/v2/post/publish/inbox/video/init/', { source_info }, options);
      const p = input.post;
      return post(
        '/v2/post/publish/video/init/',
        {
          post_info: {
            title: p.title,
            privacy_level: p.privacyLevel,
            disable_comment: p.disableComment,
            disable_duet: p.disableDuet,
            disable_stitch: p.disableStitch,
          },
          source_info,
        },
        options,
      );
    },

    /** PUT one chunk to the upload URL init answered (`Content-Range: bytes first-last/total`). */
    uploadChunk(
      uploadUrl: string,
      chunk: { data: Uint8Array; first: number; total: number; contentType: string },
      options: CallOptions,
    ) {
      return send({
        method: 'PUT',
        url: uploadUrl,
        headers: { 'content-range': `bytes ${chunk.first}-${chunk.first + chunk.data.length - 1}/${chunk.total}` },
        bytes: { data: chunk.data, contentType: chunk.contentType },
        outbound: account.outbound,
        ...options,
      });
    },

    /** POST status/fetch: a read, safe to repeat (30 a minute per token). */
    async status(publishId: string, options: CallOptions): Promise<StatusRead> {
      const raw = await post('/v2/post/publish/status/fetch/', { publish_id: publishId }, options);
      const error = tiktokError(raw);
      if (raw.type === 'response' && raw.status < 300 && error?.code === 'ok') {
        const data = asRecord(asRecord(raw.body).data);
        const status = asString(data.status);
        if (status && STATUSES.has(status)) {
          const uploaded = Number(data.uploaded_bytes);
          return {
            kind: 'status',
            status: status as PublishStatus,
            failReason: asString(data.fail_reason) ?? null,
            postIds: postIdsOf(raw.bodyText),
            uploadedBytes: Number.isFinite(uploaded) ? uploaded : null,
            raw,
          };
        }
      }
      if (error?.code === 'invalid_publish_id') return { kind: 'missing', raw };
      return { kind: 'unreadable', raw };
    },

    /** POST video/list: the creator's public videos, newest first (20 a page, `cursor` = create_time in ms). */
    async listVideos(input: { since: Date; maxPages: number } & CallOptions): Promise<RecentPost[]> {
      const videos: RecentPost[] = [];
      let cursor: number | undefined;
      for (let page = 0; page < input.maxPages; page++) {
        const raw = await send({
          method: 'POST',
          url: `${base}/v2/video/list/?fields=${VIDEO_FIELDS}`,
          headers,
          json: { max_count: 20, ...(cursor !== undefined ? { cursor } : {}) },
          outbound: account.outbound,
          timeoutMs: input.timeoutMs,
          signal: input.signal,
        });
        const data = await read(raw);
        let older = false;
        for (const item of Array.isArray(data.videos) ? data.videos : []) {
          const video = asRecord(item);
          const id = asString(video.id);
          const createdAt = new Date(Number(video.create_time) * 1000);
          if (!id || Number.isNaN(createdAt.getTime())) continue;
          if (createdAt < input.since) older = true;
          videos.push({
            id,
            // The caption as the list shows it (title, else the description): both are cut at 150 characters.
            text: String(video.title ?? video.video_description ?? ''),
            createdAt,
            inReplyTo: null,
            url: asString(video.share_url),
          });
        }
        cursor = Number(data.cursor);
        if (older || data.has_more !== true || !Number.isFinite(cursor)) break;
      }
      return videos;
    },

    /**
     * POST video/query (video.list): up to 20 of the creator's own video ids; a video TikTok no longer shows (deleted,
     * made private) is left out of `videos`.
     */
    async queryVideos(ids: string[], options: CallOptions): Promise<Record<string, unknown>[]> {
      const raw = await send({
        method: 'POST',
        url: `${base}/v2/video/query/?fields=id,like_count,comment_count,share_count,view_count`,
        headers,
        json: { filters: { video_ids: ids } },
        outbound: account.outbound,
        ...options,
      });
      const data = await read(raw);
      return (Array.isArray(data.videos) ? data.videos : []).map(asRecord);
    },

    /** GET user/info?fields=follower_count (user.info.stats). */
    followerCount: async (options: CallOptions) =>
      asRecord(
        (
          await read(
            await send({
              method: 'GET',
              url: `${base}/v2/user/info/?fields=open_id,follower_count`,
              headers,
              outbound: account.outbound,
              ...options,
            }),
          )
        ).user,
      ).follower_count,

    /** GET user/info: who the token belongs to (user.info.basic fields only: `username` needs user.info.profile). */
    me: async (options: CallOptions) =>
      asRecord(
        (
          await read(
            await send({
              method: 'GET',
              url: `${base}/v2/user/info/?fields=open_id,union_id,display_name`,
              headers,
              outbound: account.outbound,
              ...options,
            }),
          )
        ).user,
      ),
  };
}

export type TiktokApi = ReturnType<typeof createTiktokApi>;

/**
 * `publicaly_available_post_id` is an array of int64 JSON numbers: past 2^53 JSON.parse rounds them (a wrong id), so
 * the digits are read from the body text as TikTok wrote them.
 */
function postIdsOf(bodyText: string): string[] {
  const list = /"publicaly_available_post_id"\s*:\s*\[([^\]]*)\]/.exec(bodyText)?.[1] ?? '';
  return list
    .split(',')
    .map((item) => item.trim().replace(/^"|"$/g, ''))
    .filter((id) => /^\d+$/.test(id));
}
