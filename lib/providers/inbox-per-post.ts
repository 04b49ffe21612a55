import type { InboundItem, InboxPage, InboxReadInput, InboxStream, OwnMessage } from './inbox-types';

/**
 * A stream that reads under the account's recent posts, one post per page (a page's comments, a thread's replies):
 * the cursor is where the round is (`{ i }`), so a run goes on from the post the last one stopped at and a round
 * starts over once every post was read. Items seen again are stored once all the same (the unique constraint).
 */
export function perPostStream(
  name: string,
  readPost: (postId: string, input: InboxReadInput) => Promise<{ items: InboundItem[]; own: OwnMessage[] }>,
): InboxStream {
  return {
    name,
    perPost: true,
    async read(input: InboxReadInput): Promise<InboxPage> {
      const at = input.cursor ? Number((JSON.parse(input.cursor) as { i?: number }).i ?? 0) : 0;
      const i = at < input.posts.length ? at : 0;
      const { items, own } = await readPost(input.posts[i]!.id, input);
      const done = i + 1 >= input.posts.length;
      return { items, own, cursor: JSON.stringify({ i: done ? 0 : i + 1 }), more: !done };
    },
  };
}
