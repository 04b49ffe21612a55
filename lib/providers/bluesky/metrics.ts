import { countOf, presentMetrics } from '@/lib/analytics/metrics';
import { callOptions } from '../call-budget';
import { asRecord, asString, readJson } from '../read';
import { ProviderReadError, type PostMetricsRead, type PostMetricsReader } from '../types';
import { BLUESKY_RULES } from './classifier';
import type { CallOptions, Repo } from './repo';

/** app.bsky.feed.getPosts takes at most 25 URIs. */
const GET_POSTS_MAX = 25;

/**
 * app.bsky.feed.getPosts?uris=… (the AppView, through the account's PDS: up to 25 URIs a call): likeCount,
 * repostCount, replyCount, quoteCount. Bluesky counts no views. A URI the answer leaves out is `missing`, not gone: the
 * AppView omits posts it cannot show — deleted or taken down, but also not indexed yet (its lag behind the PDS) — so
 * the job marks it deleted only when a read a delay later misses it too.
 */
export function blueskyPostMetrics(repo: Repo): PostMetricsReader {
  return {
    batchSize: GET_POSTS_MAX,
    calls: (count) => Math.ceil(count / GET_POSTS_MAX),
    async read(input) {
      const query = new URLSearchParams(input.ids.map((uri) => ['uris', uri]));
      const { body } = await readJson(
        {
          url: `${repo.xrpc('app.bsky.feed.getPosts')}?${query}`,
          headers: repo.auth,
          outbound: repo.outbound,
          ...callOptions(input),
        },
        BLUESKY_RULES,
        repo.send,
      );
      const posts = asRecord(body).posts;
      if (!Array.isArray(posts))
        throw new ProviderReadError('Not a getPosts answer', {
          outcome: 'failed',
          rule: 'not-a-post-list',
          reason: 'The answer has no `posts` list.',
        });
      const found = new Map<string, PostMetricsRead>(input.ids.map((uri) => [uri, { status: 'missing' }]));
      for (const post of posts.map(asRecord)) {
        const uri = asString(post.uri);
        if (!uri || !found.has(uri)) continue;
        found.set(uri, {
          status: 'found',
          metrics: presentMetrics({
            views: undefined,
            likes: countOf(post.likeCount),
            reposts: countOf(post.repostCount),
            replies: countOf(post.replyCount),
            quotes: countOf(post.quoteCount),
            saves: undefined,
            clicks: undefined,
          }),
        });
      }
      return found;
    },
  };
}

/** app.bsky.actor.getProfile?actor=<did>: `followersCount`. */
export async function readBlueskyFollowers(repo: Repo, options: CallOptions = {}): Promise<number | null> {
  const { body } = await readJson(
    {
      url: repo.xrpc('app.bsky.actor.getProfile', { actor: repo.did }),
      headers: repo.auth,
      outbound: repo.outbound,
      ...options,
    },
    BLUESKY_RULES,
    repo.send,
  );
  return countOf(asRecord(body).followersCount) ?? null;
}
