import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import { sendOnce } from '@/lib/net/send';
import { callOptions, type CallOptions } from '../call-budget';
import { asRecord, asString, readJson } from '../read';
import type { ProviderTransport } from '../transport';
import type { ListRecentInput, RawOutcome, RecentPost } from '../types';
import { YOUTUBE_RULES } from './classifier';
import type { YoutubeVideoSettings } from './settings';

// The YouTube Data API v3 (www.googleapis.com) as developers.google.com/youtube/v3 documents it: videos.insert through
// the resumable upload protocol (guides/using_resumable_upload_protocol), channels.list for the uploads playlist,
// playlistItems.list, videos.delete. One request per call through the transport; never retried.

export type YoutubeAccount = {
  baseUrl: string;
  platformUserId: string;
  accessToken: string;
  outbound?: OutboundPolicy;
};

/** What a session says of itself (a status query, or the answer to a chunk). */
export type SessionState =
  /** 308 Resume Incomplete: `received` bytes are stored (from `Range: bytes=0-N`; none without a Range). */
  | { kind: 'incomplete'; received: number }
  /** The upload is complete: the video resource (uploadStatus `failed` with a reason when the file was no video). */
  | { kind: 'complete'; videoId: string; uploadStatus: string | null; failureReason: string | null }
  /** 404 / 410: the session expired or never existed; a session without all its bytes never became a video. */
  | { kind: 'gone' }
  | { kind: 'unknown' };

export function sessionStateOf(raw: RawOutcome): SessionState {
  if (raw.type !== 'response') return { kind: 'unknown' };
  if (raw.status === 308) {
    const range = /^bytes=0-(\d+)$/.exec(raw.headers.range ?? '');
    return { kind: 'incomplete', received: range ? Number(range[1]) + 1 : 0 };
  }
  if (raw.status === 200 || raw.status === 201) {
    const body = asRecord(raw.body);
    const id = asString(body.id);
    if (!id) return { kind: 'unknown' };
    const status = asRecord(body.status);
    return {
      kind: 'complete',
      videoId: id,
      uploadStatus: asString(status.uploadStatus) ?? null,
      failureReason: asString(status.failureReason) ?? asString(status.rejectionReason) ?? null,
    };
  }
  if (raw.status === 404 || raw.status === 410) return { kind: 'gone' };
  return { kind: 'unknown' };
}

export function createYoutubeApi(account: YoutubeAccount, send: ProviderTransport = sendOnce) {
  const base = account.baseUrl.replace(/\/+$/, '');
  const auth = { authorization: `Bearer ${account.accessToken}` };
  const get = (path: string, options: CallOptions) =>
    readJson({ url: `${base}${path}`, headers: auth, outbound: account.outbound, ...options }, YOUTUBE_RULES, send);

  return {
    /**
     * videos.insert?uploadType=resumable: the video resource and the file's size and type; the session URI comes back
     * in `Location`. Every call starts a new session (and spends 1,600 quota units); no byte is sent yet.
     */
    startSession(
      settings: YoutubeVideoSettings,
      file: { sizeBytes: number; contentType: string },
      options: CallOptions,
    ) {
      return send({
        method: 'POST',
        url: `${base}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`,
        headers: {
          ...auth,
          'x-upload-content-length': String(file.sizeBytes),
          'x-upload-content-type': file.contentType,
        },
        json: {
          snippet: { title: settings.title, description: settings.description, tags: settings.tags },
          status: {
            privacyStatus: settings.privacyStatus,
            ...(settings.publishAt ? { publishAt: settings.publishAt } : {}),
            selfDeclaredMadeForKids: false,
          },
        },
        outbound: account.outbound,
        ...options,
      });
    },

    /** PUT one chunk to the session (`Content-Range: bytes first-last/total`): 308 until the last byte, then the video. */
    putChunk(
      sessionUri: string,
      chunk: { data: Uint8Array; first: number; total: number; contentType: string },
      options: CallOptions,
    ) {
      return send({
        method: 'PUT',
        url: sessionUri,
        headers: { 'content-range': `bytes ${chunk.first}-${chunk.first + chunk.data.length - 1}/${chunk.total}` },
        bytes: { data: chunk.data, contentType: chunk.contentType },
        outbound: account.outbound,
        ...options,
      });
    },

    /** An empty PUT with `Content-Range: bytes *\/total`: how far the session got (308 + Range), or its video. */
    querySession(sessionUri: string, total: number, options: CallOptions) {
      return send({
        method: 'PUT',
        url: sessionUri,
        headers: { 'content-range': `bytes */${total}` },
        bytes: { data: new Uint8Array(0), contentType: 'application/octet-stream' },
        outbound: account.outbound,
        ...options,
      });
    },

    /** channels.list?mine=true: the channel and its uploads playlist (contentDetails.relatedPlaylists.uploads). */
    async channel(options: CallOptions) {
      const { body } = await get('/youtube/v3/channels?part=snippet,contentDetails&mine=true', options);
      const item = asRecord((asRecord(body).items as unknown[] | undefined)?.[0]);
      const snippet = asRecord(item.snippet);
      return {
        id: asString(item.id) ?? account.platformUserId,
        title: asString(snippet.title) ?? null,
        customUrl: asString(snippet.customUrl) ?? null,
        uploads: asString(asRecord(asRecord(item.contentDetails).relatedPlaylists).uploads) ?? null,
      };
    },

    /** playlistItems.list on the uploads playlist, newest first, until a page reaches before `since`. */
    async uploads(playlistId: string, input: ListRecentInput): Promise<RecentPost[]> {
      const videos: RecentPost[] = [];
      let pageToken: string | undefined;
      for (let page = 0; page < (input.maxPages ?? 10); page++) {
        const query = new URLSearchParams({ part: 'snippet,contentDetails', playlistId, maxResults: '50' });
        if (pageToken) query.set('pageToken', pageToken);
        const { body } = await get(`/youtube/v3/playlistItems?${query}`, callOptions(input));
        const data = asRecord(body);
        let older = false;
        for (const item of Array.isArray(data.items) ? data.items : []) {
          const snippet = asRecord(asRecord(item).snippet);
          const id = asString(asRecord(asRecord(item).contentDetails).videoId);
          const createdAt = new Date(String(snippet.publishedAt));
          if (!id || Number.isNaN(createdAt.getTime())) continue;
          if (createdAt < input.since) older = true;
          // The description is the post's text; the title (its first line) is shown with it in the evidence.
          videos.push({
            id,
            text: String(snippet.description ?? ''),
            createdAt,
            inReplyTo: null,
            url: `https://www.youtube.com/watch?v=${id}`,
          });
        }
        pageToken = asString(data.nextPageToken);
        if (older || !pageToken) break;
      }
      return videos;
    },

    /** videos.list?part=statistics&id=a,b (up to 50): each video's `statistics` (counts as strings), by id. */
    async videoStatistics(ids: string[], options: CallOptions) {
      const query = new URLSearchParams({ part: 'statistics', id: ids.join(','), maxResults: '50' });
      const { body } = await get(`/youtube/v3/videos?${query}`, options);
      const items = asRecord(body).items;
      return (Array.isArray(items) ? items : []).map(asRecord);
    },

    /** channels.list?part=statistics&mine=true: the channel's `statistics` (subscriberCount, hiddenSubscriberCount). */
    async channelStatistics(options: CallOptions) {
      const { body } = await get('/youtube/v3/channels?part=statistics&mine=true', options);
      return asRecord(asRecord((asRecord(body).items as unknown[] | undefined)?.[0]).statistics);
    },

    /** thumbnails.set?videoId=…: the image's bytes as the body (JPEG or PNG, at most 2 MB). */
    setThumbnail(videoId: string, image: Uint8Array, options: CallOptions) {
      return send({
        method: 'POST',
        url: `${base}/upload/youtube/v3/thumbnails/set?videoId=${encodeURIComponent(videoId)}`,
        headers: auth,
        bytes: { data: image, contentType: 'image/jpeg' },
        outbound: account.outbound,
        ...options,
      });
    },

    deleteVideo(id: string, options: CallOptions) {
      return send({
        method: 'DELETE',
        url: `${base}/youtube/v3/videos?id=${encodeURIComponent(id)}`,
        headers: auth,
        outbound: account.outbound,
        ...options,
      });
    },
  };
}

export type YoutubeApi = ReturnType<typeof createYoutubeApi>;
