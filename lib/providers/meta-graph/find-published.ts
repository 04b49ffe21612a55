import { compareWithPlatform } from '@/lib/reconcile/match';
import type { RecentPost } from '../types';
import type { CallOptions, Graph } from './graph';

/** How far back to look when the container's creation time is not known (a container lives 24 h). */
const CONTAINER_LIFETIME_MS = 25 * 3_600_000;

export type WantedPost = {
  text: string;
  kind: 'post' | 'reply';
  inReplyTo: string | null;
  containerCreatedAt: string | null;
};

/** The account's listing a post of this kind appears in (Threads lists replies apart; Instagram has one). */
const listingOf = (graph: Graph, kind: WantedPost['kind']) =>
  graph.network.name === 'threads' ? (kind === 'reply' ? 'replies' : 'threads') : 'media';

export type CopiesLook =
  | { kind: 'same'; post: RecentPost }
  | { kind: 'many'; ids: string[] }
  | { kind: 'similar'; ids: string[] }
  | { kind: 'absent' }
  | { kind: 'unreadable' };

/**
 * The account's posts since the container was made, compared with ours: the same three answers as every
 * text-matched read (lib/reconcile/match.ts). Only `absent` proves absence: a similar post, more than one copy or
 * a listing that could not be read never does.
 */
export async function lookForCopies(graph: Graph, wanted: WantedPost, options: CallOptions): Promise<CopiesLook> {
  const created = wanted.containerCreatedAt ? Date.parse(wanted.containerCreatedAt) : NaN;
  // Listings are to the second: start a minute before the container, as the reconciler's window does.
  const since = new Date(Number.isNaN(created) ? Date.now() - CONTAINER_LIFETIME_MS : created - 60_000);
  let listed: RecentPost[];
  try {
    listed = await graph.list(listingOf(graph, wanted.kind), { since, maxPages: 3, ...options });
  } catch {
    return { kind: 'unreadable' };
  }
  const { same, similar } = compareWithPlatform(listed, {
    text: wanted.text,
    kind: wanted.kind,
    inReplyTo: wanted.inReplyTo,
    windowStart: since,
    windowEnd: new Date(Date.now() + 60_000),
  });
  if (same.length === 1) return { kind: 'same', post: same[0]! };
  if (same.length > 1) return { kind: 'many', ids: same.map((p) => p.id) };
  if (similar.length > 0) return { kind: 'similar', ids: similar.map((p) => p.id) };
  return { kind: 'absent' };
}

/**
 * The post a PUBLISHED container became. The container's status does not name the post's media id, so it
 * is found in the account's own posts (or replies): same text (and parent), published after the container
 * was made. Null when it is not listed yet, the listing fails, or more than one post could be it.
 */
export async function findPublishedPost(
  graph: Graph,
  wanted: WantedPost,
  options: CallOptions,
): Promise<RecentPost | null> {
  const look = await lookForCopies(graph, wanted, options);
  return look.kind === 'same' ? look.post : null;
}
