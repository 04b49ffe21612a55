import { callOptions } from '../call-budget';
import { rejectedInput, withTiming } from '../publish-result';
import { asRecord, asString } from '../read';
import {
  ProviderReadError,
  type ListRecentInput,
  type PublishInput,
  type PublishResult,
  type ReadBack,
  type ReadBackInput,
  type RecentPost,
} from '../types';
import { graphTimestamp, type Graph } from '../meta-graph/graph';

// A post's first comment on a Facebook Page (docs/networks.md): the Page's own comment on its post, POST
// /{page-post-id}/comments with the page token (developers.facebook.com/docs/graph-api/reference/object/comments).
// No idempotency and no duplicate refusal: an unknown outcome is settled by reading that post's comments, where
// `from` names each comment's author (returned to a page token) and tells the Page's own from its visitors'.

/** A page post's id as Graph names it: `{page-id}_{post-id}`. */
const PAGE_POST_ID = /^\d+_\d+$/;
const PAGE_SIZE = 100;

/** One comment of the Page's own on its post (the thread's part 1): one call, never repeated by us. */
export async function publishFacebookComment(graph: Graph, input: PublishInput): Promise<PublishResult> {
  const startedAt = new Date();
  const parent = input.inReplyTo;
  if (!parent || !PAGE_POST_ID.test(parent))
    return rejectedInput('A Facebook comment names the page post it is on ({page-id}_{post-id}).', startedAt);
  if ((input.media ?? []).length > 0) return rejectedInput('A Facebook comment here takes no image.', startedAt);
  const raw = await graph.postObjectEdge(parent, 'comments', { message: input.text }, callOptions(input));
  const classification = graph.classify(raw);
  const evidence = { ...classification.evidence, comment: true, on: parent };
  if (classification.outcome !== 'sent') return withTiming({ ...classification, evidence }, raw, startedAt);
  return withTiming(
    { ...classification, reason: 'Commented; Facebook returned the comment’s id.', evidence },
    raw,
    startedAt,
  );
}

/**
 * The Page's own comments on one of its posts, in [since, until]: GET /{post}/comments with `filter=stream` (every
 * comment the token may read, not the default ranking's selection), comments on comments set aside. Unreadable
 * (thrown) — a comment without its id, author or time, more comments than the pages read, or a failed read — never a
 * list that proves absence or takes a visitor's comment for the Page's.
 */
export async function listFacebookComments(
  graph: Graph,
  pageId: string,
  parent: string,
  input: ListRecentInput,
): Promise<RecentPost[]> {
  const mine: RecentPost[] = [];
  const until = input.until?.getTime() ?? Infinity;
  let after: string | undefined;
  for (let page = 0; page < (input.maxPages ?? 10); page++) {
    const body = await readComments(
      graph,
      parent,
      {
        fields: 'id,message,created_time,from,parent',
        filter: 'stream',
        order: 'reverse_chronological',
        limit: String(PAGE_SIZE),
        after,
      },
      input,
    );
    for (const item of Array.isArray(body.data) ? body.data : []) {
      const comment = asRecord(item);
      const id = asString(comment.id);
      const author = asString(asRecord(comment.from).id);
      const createdAt = graphTimestamp(comment.created_time);
      if (!id || !author || Number.isNaN(createdAt.getTime())) throw unreadable('facebook-comment-unnamed', parent);
      // A comment on a comment answers someone, not the post: never a copy of ours.
      if (comment.parent !== undefined || author !== pageId) continue;
      if (createdAt.getTime() < input.since.getTime() - 999 || createdAt.getTime() > until) continue;
      mine.push({ id, text: String(comment.message ?? ''), createdAt, inReplyTo: parent });
    }
    const paging = asRecord(body.paging);
    after = asString(asRecord(paging.cursors).after);
    if (!asString(paging.next) || !after) return mine.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }
  // More comments than the pages read: ours may be on a page not read, so this listing proves nothing.
  throw unreadable('facebook-comments-truncated', parent);
}

/** A comment leaves no evidence of its own: the post's comments settle it (`list`). */
export function facebookCommentReadBack(input: ReadBackInput): ReadBack {
  return { verdict: 'list', evidence: { comment: true, on: input.inReplyTo } };
}

async function readComments(
  graph: Graph,
  parent: string,
  query: Record<string, string | undefined>,
  input: ListRecentInput,
): Promise<Record<string, unknown>> {
  const raw = await graph.getObjectEdge(parent, 'comments', query, callOptions(input));
  if (raw.type === 'response' && raw.status >= 200 && raw.status < 300 && raw.body !== null) return asRecord(raw.body);
  const classification = graph.classify(raw);
  throw new ProviderReadError(`Could not read from Facebook: ${classification.reason}`, classification);
}

function unreadable(rule: string, parent: string): ProviderReadError {
  const reason =
    rule === 'facebook-comments-truncated'
      ? `Facebook lists more comments on ${parent} than the pages read: ours may be among those not read`
      : `Facebook listed a comment on ${parent} without its id, author or time, so ours cannot be told from others’`;
  return new ProviderReadError(reason, { outcome: 'ambiguous', rule, reason });
}
