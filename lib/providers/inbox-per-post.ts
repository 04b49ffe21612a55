import type { InboundItem, InboxPage, InboxReadInput, InboxStream, OwnMessage } from './inbox-types';

/** One page of one post's comments; `next`: the platform's cursor of the page after it (none: that was the last). */
export type PostPage = { items: InboundItem[]; own: OwnMessage[]; next?: string | null };

/**
 * Where a per-post round is: the post to read next (`post`, `i` its place when it was kept) and, inside it, the
 * platform's cursor of its next page (`after`: a cursor, a page token, a start). Without `after`: its first page.
 */
type Position = { i?: number; post?: string; after?: string };

function positionOf(cursor: string | null): Position {
  if (!cursor) return {};
  try {
    const value = JSON.parse(cursor) as unknown;
    return value && typeof value === 'object' ? (value as Position) : {};
  } catch {
    return {}; // a cursor of another format: the round starts over (items seen again are stored once)
  }
}

/**
 * A stream that reads under the account's recent posts, one page per call (a post's comments, a thread's replies):
 * a post with more than a page is followed page by page with the platform's own cursor before the next post, and the
 * cursor keeps both where the round is and where in that post's comments, so a run stopped by the read budget goes
 * on from that page. Posts are named by id (a new post of ours moves the others down the list); a round starts over
 * once every post was read. Items seen again are stored once all the same (the unique constraint).
 */
export function perPostStream(
  name: string,
  readPost: (postId: string, input: InboxReadInput, after: string | undefined) => Promise<PostPage>,
): InboxStream {
  return {
    name,
    perPost: true,
    async read(input: InboxReadInput): Promise<InboxPage> {
      const at = positionOf(input.cursor);
      const found = at.post ? input.posts.findIndex((p) => p.id === at.post) : -1;
      const kept = Number.isInteger(at.i) && at.i! >= 0 && at.i! < input.posts.length ? at.i! : 0;
      const i = found >= 0 ? found : kept;
      const post = input.posts[i]!;
      // The page inside the post only where the post is the one it was kept for (else its first page).
      const after = found >= 0 && typeof at.after === 'string' && at.after !== '' ? at.after : undefined;
      const { items, own, next } = await readPost(post.id, input, after);
      if (next) return { items, own, cursor: JSON.stringify({ i, post: post.id, after: next }), more: true };
      const done = i + 1 >= input.posts.length;
      const cursor: Position = done ? { i: 0 } : { i: i + 1, post: input.posts[i + 1]!.id };
      return { items, own, cursor: JSON.stringify(cursor), more: !done };
    },
  };
}
