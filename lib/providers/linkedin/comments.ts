import { callOptions } from '../call-budget';
import { deleteOnce } from '../delete-post';
import { classifyWith, type ClassifyContext, type Rule } from '../classify';
import { rejectedInput, withTiming } from '../publish-result';
import { asRecord, asString } from '../read';
import {
  ProviderReadError,
  type DeleteResult,
  type ListRecentInput,
  type PublishInput,
  type PublishResult,
  type RawOutcome,
  type ReadBack,
  type ReadBackInput,
  type RecentPost,
} from '../types';
import { REAL_API_HOST, type CallOptions, type LinkedinApi } from './api';
import { LINKEDIN_RULES } from './classifier';
import { POST_URN, authorKind } from './urn';

// A post's first comment on LinkedIn (docs/networks.md): the Comments API (learn.microsoft.com/linkedin/marketing/
// community-management/shares/comments-api). POST /rest/socialActions/{shareUrn|ugcPostUrn}/comments with
// `{ actor, object, message: { text } }` answers 201 with the comment (`commentUrn`, `$URN`); no idempotency and no
// duplicate refusal, so an unknown outcome is settled by reading that post's comments. Reading them needs
// r_organization_social (a page's); a member's need r_member_social, which LinkedIn grants to few apps.

/** A comment's URN: `urn:li:comment:(<thread urn>,<comment id>)`, the thread being the post's activity or ugcPost. */
export const COMMENT_URN = /^urn:li:comment:\((urn:li:(?:activity|ugcPost|share):\d+),(\d+)\)$/;
const PAGE_SIZE = 50;

/** The comment's URN in LinkedIn's answer (`commentUrn`, or the Rest.li `$URN`); undefined when it names none. */
function commentUrnOf(body: unknown): string | undefined {
  const comment = asRecord(body);
  const urn = asString(comment.commentUrn) ?? asString(comment.$URN);
  return urn && COMMENT_URN.test(urn) ? urn : undefined;
}

/**
 * A comment's answers: 201 with the comment, named by its URN, first; then LinkedIn's rows without those that only a
 * post can meet (its URN in x-restli-id, the duplicate refusal). A 201 that names no comment (its body cut off) is
 * unknown: the post's comments settle it.
 */
export const LINKEDIN_COMMENT_RULES: readonly Rule[] = [
  {
    id: 'linkedin-comment-created',
    when: (raw) => raw.type === 'response' && raw.status === 201 && commentUrnOf(raw.body) !== undefined,
    then: (raw) => ({
      outcome: 'sent',
      httpStatus: 201,
      externalId: commentUrnOf((raw as { body: unknown }).body)!,
      reason: 'Commented; LinkedIn returned the comment’s URN.',
    }),
  },
  ...LINKEDIN_RULES.filter((r) => r.id !== 'linkedin-post-created' && r.id !== 'linkedin-duplicate-post'),
];

export const classifyLinkedinComment = (raw: RawOutcome, context?: ClassifyContext) =>
  classifyWith(LINKEDIN_COMMENT_RULES, raw, context);

/** One comment of the account's own on its post (the thread's part 1): one call, never repeated by us. */
export async function publishLinkedinComment(api: LinkedinApi, input: PublishInput): Promise<PublishResult> {
  const startedAt = new Date();
  const parent = input.inReplyTo;
  if (!parent || !POST_URN.test(parent))
    return rejectedInput('A LinkedIn comment names the post it is on (a share or ugcPost URN).', startedAt);
  if ((input.media ?? []).length > 0) return rejectedInput('A LinkedIn comment here takes no image.', startedAt);
  if (!authorKind(api.author))
    return rejectedInput('The account’s id is not a LinkedIn member or organization URN.', startedAt);
  const raw = await api.send({
    method: 'POST',
    url: `${api.base}/rest/socialActions/${encodeURIComponent(parent)}/comments`,
    headers: api.rest,
    outbound: api.outbound,
    // A comment's message is text and attributes, not the little text of a post's commentary: sent as written.
    json: { actor: api.author, object: parent, message: { text: input.text } },
    timeoutMs: input.timeoutMs,
    signal: input.signal,
  });
  const classification = classifyLinkedinComment(raw);
  const evidence = { ...classification.evidence, comment: true, on: parent };
  // LinkedIn shows a comment on its post's page; the sandbox serves no page for one.
  const url =
    classification.externalId && new URL(api.base).host === REAL_API_HOST
      ? `https://www.linkedin.com/feed/update/${parent}?commentUrn=${encodeURIComponent(classification.externalId)}`
      : undefined;
  return withTiming({ ...classification, ...(url ? { url } : {}), evidence }, raw, startedAt);
}

/**
 * The account's own comments on one of its posts, in [since, until]: GET /rest/socialActions/{urn}/comments lists
 * everyone's, so the actor tells ours. Unreadable (thrown) — a member's post (r_member_social), a comment without
 * its actor, URN or time, more comments than the pages read, or a failed read — never a list that proves absence.
 */
export async function listLinkedinComments(
  api: LinkedinApi,
  parent: string,
  input: ListRecentInput,
): Promise<RecentPost[]> {
  if (authorKind(api.author) !== 'organization') throw unreadable('linkedin-member-comments-not-listable', parent);
  const mine: RecentPost[] = [];
  const until = input.until?.getTime() ?? Infinity;
  for (let page = 0; page < (input.maxPages ?? 10); page++) {
    const start = page * PAGE_SIZE;
    const query = new URLSearchParams({ start: String(start), count: String(PAGE_SIZE) });
    const { body } = await api.getRest(
      `${api.base}/rest/socialActions/${encodeURIComponent(parent)}/comments?${query}`,
      callOptions(input),
    );
    const elements = Array.isArray(asRecord(body).elements) ? (asRecord(body).elements as unknown[]) : [];
    for (const element of elements) {
      const comment = asRecord(element);
      const urn = commentUrnOf(comment);
      const actor = asString(comment.actor);
      const createdAt = Number(asRecord(comment.created).time);
      if (!urn || !actor || !Number.isFinite(createdAt)) throw unreadable('linkedin-comment-unnamed', parent);
      if (actor !== api.author || createdAt < input.since.getTime() - 999 || createdAt > until) continue;
      const text = asString(asRecord(comment.message).text) ?? '';
      mine.push({ id: urn, text, createdAt: new Date(createdAt), inReplyTo: parent });
    }
    const total = asRecord(asRecord(body).paging).total;
    if (elements.length < PAGE_SIZE || (typeof total === 'number' && start + elements.length >= total))
      return mine.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }
  // More comments than the pages read: ours may be on a page not read, so this listing proves nothing.
  throw unreadable('linkedin-comments-truncated', parent);
}

/**
 * A comment leaves no evidence of its own (no idempotency, no duplicate refusal): a page's is settled by reading
 * the post's comments (`list`); a member's cannot be read with the granted permissions, so an admin checks (`review`).
 */
export function linkedinCommentReadBack(api: LinkedinApi, input: ReadBackInput): ReadBack {
  const evidence = { comment: true, on: input.inReplyTo };
  if (authorKind(api.author) === 'organization') return { verdict: 'list', evidence };
  return {
    verdict: 'review',
    reason: `LinkedIn member comments cannot be listed with the granted permissions; check the comments under ${input.inReplyTo}.`,
    evidence,
  };
}

/** DELETE /rest/socialActions/{thread}/comments/{id}?actor=…: 204; a comment already gone answers 404. */
export function deleteLinkedinComment(api: LinkedinApi, urn: string, call: CallOptions = {}): Promise<DeleteResult> {
  const [, thread, id] = COMMENT_URN.exec(urn)!;
  const query = new URLSearchParams({ actor: api.author });
  return deleteOnce(
    {
      url: `${api.base}/rest/socialActions/${encodeURIComponent(thread!)}/comments/${id}?${query}`,
      headers: api.rest,
      outbound: api.outbound,
      ...call,
    },
    () => true,
    api.send,
  );
}

function unreadable(rule: string, parent: string): ProviderReadError {
  const reason =
    rule === 'linkedin-member-comments-not-listable'
      ? 'LinkedIn member comments cannot be listed with the granted permissions; check the post.'
      : rule === 'linkedin-comments-truncated'
        ? `LinkedIn lists more comments on ${parent} than the pages read: ours may be among those not read`
        : `LinkedIn listed a comment on ${parent} without its author, URN or time, so ours cannot be told from others’`;
  return new ProviderReadError(reason, {
    outcome: rule === 'linkedin-member-comments-not-listable' ? 'failed' : 'ambiguous',
    rule,
    reason,
  });
}
