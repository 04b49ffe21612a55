import { countOf, presentMetrics } from '@/lib/analytics/metrics';
import { callOptions, type CallOptions } from '../call-budget';
import { asRecord, asString } from '../read';
import type { PostMetricsRead, PostMetricsReader } from '../types';
import type { YoutubeApi } from './api';

/** videos.list takes up to 50 ids (one quota unit a call). */
const LIST_MAX = 50;

/**
 * videos.list?part=statistics: viewCount, likeCount, commentCount (strings, as Google writes int64). A hidden like
 * count is left out by YouTube: absent. `favoriteCount` is deprecated (always 0) and not read. A video missing from
 * `items` was deleted (or is no longer the channel's).
 */
export function youtubePostMetrics(api: YoutubeApi): PostMetricsReader {
  return {
    batchSize: LIST_MAX,
    calls: (count) => Math.ceil(count / LIST_MAX),
    async read(input) {
      const found = new Map<string, PostMetricsRead>(input.ids.map((id) => [id, { status: 'gone' }]));
      for (const item of await api.videoStatistics(input.ids, callOptions(input))) {
        const id = asString(item.id);
        if (!id || !found.has(id)) continue;
        const stats = asRecord(item.statistics);
        found.set(id, {
          status: 'found',
          metrics: presentMetrics({
            views: countOf(stats.viewCount),
            likes: countOf(stats.likeCount),
            reposts: undefined,
            replies: countOf(stats.commentCount),
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

/** The channel's subscriberCount; null when the channel hides it. */
export async function readYoutubeFollowers(api: YoutubeApi, options: CallOptions = {}) {
  const stats = await api.channelStatistics(options);
  return stats.hiddenSubscriberCount === true ? null : (countOf(stats.subscriberCount) ?? null);
}
