import { countOf, presentMetrics } from '@/lib/analytics/metrics';
import { callOptions, type CallOptions } from '../call-budget';
import { asString } from '../read';
import type { PostMetricsRead, PostMetricsReader } from '../types';
import type { TiktokApi } from './api';

/** video/query takes at most 20 ids. */
const QUERY_MAX = 20;
/** A public video's id (int64 digits); a delivery of a private or inbox post keeps its publish_id instead. */
const VIDEO_ID = /^\d{1,20}$/;

/**
 * video/query (video.list): view_count, like_count, comment_count, share_count of the creator's own videos. An id the
 * answer leaves out is no longer shown (deleted, or made private): read no more. A publish_id (a private or inbox
 * post, which never gets a public video id) has no metrics TikTok gives.
 */
export function tiktokPostMetrics(api: TiktokApi): PostMetricsReader {
  return {
    batchSize: QUERY_MAX,
    calls: (count) => Math.ceil(count / QUERY_MAX),
    async read(input) {
      const found = new Map<string, PostMetricsRead>();
      const videoIds = input.ids.filter((id) => VIDEO_ID.test(id));
      for (const id of input.ids)
        if (!VIDEO_ID.test(id))
          found.set(id, { status: 'unsupported', reason: 'TikTok gives no metrics for a post without a public video' });
      if (videoIds.length === 0) return found;
      for (const id of videoIds) found.set(id, { status: 'gone' });
      for (const video of await api.queryVideos(videoIds, callOptions(input))) {
        const id = asString(video.id) ?? (typeof video.id === 'number' ? String(video.id) : undefined);
        if (!id || !found.has(id)) continue;
        found.set(id, {
          status: 'found',
          metrics: presentMetrics({
            views: countOf(video.view_count),
            likes: countOf(video.like_count),
            reposts: countOf(video.share_count),
            replies: countOf(video.comment_count),
            quotes: undefined,
            saves: undefined,
            clicks: undefined,
          }),
        });
      }
      return found;
    },
  };
}

/** user/info's follower_count (user.info.stats). */
export async function readTiktokFollowers(api: TiktokApi, options: CallOptions = {}) {
  return countOf(await api.followerCount(options)) ?? null;
}
