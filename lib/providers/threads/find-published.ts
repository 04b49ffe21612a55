import { findMatchingPosts } from '@/lib/reconcile/match';
import type { RecentPost } from '../types';
import type { CallOptions, ThreadsGraph } from './graph';

/** How far back to look when the container's creation time is not known (a container lives 24 h). */
const CONTAINER_LIFETIME_MS = 25 * 3_600_000;

/**
 * The post a PUBLISHED container became. The container's status does not name the post's media id, so it
 * is found in the account's own threads (or replies): same text (and parent), published after the container
 * was made. Null when it is not listed yet, the listing fails, or more than one post could be it.
 */
export async function findPublishedPost(
  graph: ThreadsGraph,
  wanted: { text: string; kind: 'post' | 'reply'; inReplyTo: string | null; containerCreatedAt: string | null },
  options: CallOptions,
): Promise<RecentPost | null> {
  const created = wanted.containerCreatedAt ? Date.parse(wanted.containerCreatedAt) : NaN;
  // Listings are to the second: start a minute before the container, as the reconciler's window does.
  const since = new Date(Number.isNaN(created) ? Date.now() - CONTAINER_LIFETIME_MS : created - 60_000);
  let listed: RecentPost[];
  try {
    listed = await graph.list(wanted.kind === 'reply' ? 'replies' : 'threads', { since, maxPages: 3, ...options });
  } catch {
    return null;
  }
  const matches = findMatchingPosts(listed, {
    text: wanted.text,
    kind: wanted.kind,
    inReplyTo: wanted.inReplyTo,
    windowStart: since,
    windowEnd: new Date(Date.now() + 60_000),
  });
  return matches.length === 1 ? matches[0]! : null;
}
