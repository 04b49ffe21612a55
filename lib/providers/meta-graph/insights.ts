import { countOf, presentMetrics, type PostMetrics } from '@/lib/analytics/metrics';
import { callOptions, type CallOptions } from '../call-budget';
import { asRecord, asString } from '../read';
import { ProviderReadError, type PostMetricsRead, type PostMetricsReader, type RawOutcome } from '../types';
import { graphError } from './classifier';
import type { Graph } from './graph';

// Post metrics and follower counts on Meta's Graph APIs (docs/analytics.md#networks): Threads and Instagram give
// a media object's insights, Facebook a page post's reactions, comments and shares. One object a call.

/** "Object … does not exist" (100/33), or Threads' "Media Not Found" (24): the post was deleted. */
function isGone(raw: RawOutcome): boolean {
  const error = graphError(raw);
  return (error?.code === 100 && error.subcode === 33) || error?.code === 24;
}

/** The 2xx body, `gone`, or a read failure classified by the network's rules. */
function answerOf(graph: Graph, raw: RawOutcome): Record<string, unknown> | 'gone' {
  if (raw.type === 'response' && raw.status >= 200 && raw.status < 300 && raw.body !== null) return asRecord(raw.body);
  if (isGone(raw)) return 'gone';
  const classification = graph.classify(raw);
  throw new ProviderReadError(
    `Could not read ${graph.network.label}'s metrics: ${classification.reason}`,
    classification,
  );
}

/** An insights answer's values by metric name: `values[0].value` (lifetime) or `total_value.value`. */
export function insightValues(body: Record<string, unknown>): Map<string, number> {
  const values = new Map<string, number>();
  for (const item of (Array.isArray(body.data) ? body.data : []).map(asRecord)) {
    const name = asString(item.name);
    const first = Array.isArray(item.values) ? asRecord(item.values[0]).value : undefined;
    const value = countOf(first ?? asRecord(item.total_value).value);
    if (name && value !== undefined) values.set(name, value);
  }
  return values;
}

/** One object a call, each read by `read` (its answer's body to metrics). */
function onePerCall(
  graph: Graph,
  read: (id: string, options: CallOptions) => Promise<RawOutcome>,
  toMetrics: (body: Record<string, unknown>) => PostMetrics,
): PostMetricsReader {
  return {
    batchSize: 1,
    calls: (count) => count,
    async read(input) {
      const found = new Map<string, PostMetricsRead>();
      for (const id of input.ids) {
        const answer = answerOf(graph, await read(id, callOptions(input)));
        found.set(id, answer === 'gone' ? { status: 'gone' } : { status: 'found', metrics: toMetrics(answer) });
      }
      return found;
    },
  };
}

/**
 * Threads: GET /{media}/insights?metric=views,likes,replies,reposts,quotes (threads_manage_insights). `shares`
 * (sends to others) is not read: it has no column of its own and is no repost.
 */
export function threadsPostMetrics(graph: Graph): PostMetricsReader {
  return onePerCall(
    graph,
    (id, options) => graph.getObjectEdge(id, 'insights', { metric: 'views,likes,replies,reposts,quotes' }, options),
    (body) => {
      const v = insightValues(body);
      return presentMetrics({
        views: v.get('views'),
        likes: v.get('likes'),
        reposts: v.get('reposts'),
        replies: v.get('replies'),
        quotes: v.get('quotes'),
        saves: undefined,
        clicks: undefined,
      });
    },
  );
}

/**
 * Instagram: GET /{media}/insights?metric=views,likes,comments,shares,saved (instagram_business_manage_insights;
 * `impressions` and `plays` are retired). An empty answer means no data yet: absent, not zero (Meta's words).
 */
export function instagramPostMetrics(graph: Graph): PostMetricsReader {
  return onePerCall(
    graph,
    (id, options) => graph.getObjectEdge(id, 'insights', { metric: 'views,likes,comments,shares,saved' }, options),
    (body) => {
      const v = insightValues(body);
      return presentMetrics({
        views: v.get('views'),
        likes: v.get('likes'),
        reposts: v.get('shares'),
        replies: v.get('comments'),
        quotes: undefined,
        saves: v.get('saved'),
        clicks: undefined,
      });
    },
  );
}

/**
 * Facebook: GET /{page-post}?fields=reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),shares
 * (pages_read_engagement). Graph leaves `shares` out when nobody shared the post: that is a count of 0 it does give.
 */
export function facebookPostMetrics(graph: Graph): PostMetricsReader {
  return onePerCall(
    graph,
    (id, options) =>
      graph.getObjectEdge(
        id,
        null,
        { fields: 'reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),shares' },
        options,
      ),
    (body) =>
      presentMetrics({
        views: undefined,
        likes: countOf(asRecord(asRecord(body.reactions).summary).total_count),
        reposts: body.shares === undefined ? 0 : countOf(asRecord(body.shares).count),
        replies: countOf(asRecord(asRecord(body.comments).summary).total_count),
        quotes: undefined,
        saves: undefined,
        clicks: undefined,
      }),
  );
}

/** Threads: GET /{user}/threads_insights?metric=followers_count → total_value.value. */
export async function readThreadsFollowers(graph: Graph, user: string, options: CallOptions = {}) {
  const answer = answerOf(
    graph,
    await graph.getObjectEdge(user, 'threads_insights', { metric: 'followers_count' }, options),
  );
  return answer === 'gone' ? null : (insightValues(answer).get('followers_count') ?? null);
}

/** Instagram and Facebook: GET /{account}?fields=followers_count. */
export async function readFollowersField(graph: Graph, user: string, options: CallOptions = {}) {
  const answer = answerOf(graph, await graph.getObjectEdge(user, null, { fields: 'followers_count' }, options));
  return answer === 'gone' ? null : (countOf(answer.followers_count) ?? null);
}
