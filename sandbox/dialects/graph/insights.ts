import { json } from '@/sandbox/behaviour/faults';
import { engagementOf, followersOf, type Engagement } from '@/sandbox/behaviour/engagement';
import { graphError, unsupportedRequest } from '@/sandbox/dialects/threads/errors';
import type { Platform, SandboxPost } from '@/sandbox/store/types';
import type { MediaEdgeCall } from './api';

// Insights as Threads and Instagram serve them (developers.facebook.com/docs/threads/insights, …/instagram-platform/
// reference/instagram-media/insights): GET /{media}/insights?metric=… answers one entry per metric asked, a lifetime
// value each; an unknown metric is refused whole (error 100), a deleted or someone else's media is Graph's "unsupported",
// an Instagram comment (an IG Comment, not media) has no such edge.

type Metric = { name: string; title: string; value: (e: Engagement) => number };

const THREADS_MEDIA: Metric[] = [
  { name: 'views', title: 'Views', value: (e) => e.views },
  { name: 'likes', title: 'Likes', value: (e) => e.likes },
  { name: 'replies', title: 'Replies', value: (e) => e.replies },
  { name: 'reposts', title: 'Reposts', value: (e) => e.reposts },
  { name: 'quotes', title: 'Quotes', value: (e) => e.quotes },
  { name: 'shares', title: 'Shares', value: (e) => Math.floor(e.reposts / 2) },
];
// No `impressions` or `plays`: retired for media made since July 2024 (April 2025 for every version).
const INSTAGRAM_MEDIA: Metric[] = [
  { name: 'views', title: 'Views', value: (e) => e.views },
  { name: 'reach', title: 'Accounts reached', value: (e) => Math.floor(e.views * 0.6) },
  { name: 'likes', title: 'Likes', value: (e) => e.likes },
  { name: 'comments', title: 'Comments', value: (e) => e.replies },
  { name: 'shares', title: 'Shares', value: (e) => e.reposts },
  { name: 'saved', title: 'Saved', value: (e) => e.saves },
  { name: 'total_interactions', title: 'Interactions', value: (e) => e.likes + e.replies + e.reposts + e.saves },
];

/** GET /{media}/insights?metric=a,b,…: the account's own post only. */
export function mediaInsights(platform: Extract<Platform, 'threads' | 'instagram'>) {
  const known = platform === 'threads' ? THREADS_MEDIA : INSTAGRAM_MEDIA;
  return async ({ request, params, mediaId, viewer, deps }: MediaEdgeCall): Promise<Response> => {
    if (request.method !== 'GET') return unsupportedRequest('post', mediaId);
    const post = await deps.store.getPost(mediaId);
    if (!post || post.accountId !== viewer.id || post.kind === 'dm') return unsupportedRequest('get', mediaId);
    // An Instagram comment is an IG Comment node, not media: it has no insights edge at all.
    if (platform === 'instagram' && post.kind === 'reply')
      return graphError(400, {
        message: '(#100) Tried accessing nonexisting field (insights) on node type (IGComment)',
        code: 100,
      });
    const asked = (params.get('metric') ?? '').split(',').filter(Boolean);
    const unknown = asked.find((m) => !known.some((k) => k.name === m));
    if (asked.length === 0 || unknown)
      return graphError(400, {
        message: `(#100) metric[${Math.max(0, asked.indexOf(unknown ?? ''))}] must be one of the following values: ${known.map((k) => k.name).join(', ')}`,
        code: 100,
      });
    return json(200, {
      data: asked.map((name) =>
        insight(
          post,
          platform,
          known.find((k) => k.name === name)!,
        ),
      ),
    });
  };
}

function insight(post: SandboxPost, platform: Platform, metric: Metric) {
  return {
    name: metric.name,
    period: 'lifetime',
    values: [{ value: metric.value(engagementOf(post, platform)) }],
    title: metric.title,
    description: `${metric.title} of the media object.`,
    id: `${post.id}/insights/${metric.name}/lifetime`,
  };
}

/** Threads: GET /{user}/threads_insights?metric=followers_count → a total value (no time series). */
export async function threadsUserInsights({ params, viewer }: Omit<MediaEdgeCall, 'mediaId'>): Promise<Response> {
  const asked = (params.get('metric') ?? '').split(',').filter(Boolean);
  if (asked.length === 0 || asked.some((m) => m !== 'followers_count'))
    return graphError(400, {
      message: '(#100) This sandbox answers threads_insights for the metric followers_count only.',
      code: 100,
    });
  return json(200, {
    data: [
      {
        name: 'followers_count',
        period: 'day',
        title: 'followers_count',
        description: "The number of followers on the user's Threads profile.",
        total_value: { value: followersOf(viewer, 'threads') },
        id: `${viewer.platformUserId}/insights/followers_count/day`,
      },
    ],
  });
}
