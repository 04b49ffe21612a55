import { callOptions, type CallBudget } from '../call-budget';
import { rejectedInput, withTiming } from '../publish-result';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import {
  ProviderReadError,
  type Classification,
  type ListRecentInput,
  type ProviderClient,
  type ProviderState,
  type PublishInput,
  type PublishMedia,
  type PublishResult,
  type RecentPost,
} from '../types';
import { createContainerClient } from '../meta-graph/client';
import { createGraph, type ContainerParams, type Graph, type GraphAccount } from '../meta-graph/graph';
import { instagramPostMetrics, readFollowersField } from '../meta-graph/insights';
import { INSTAGRAM_NETWORK } from '../meta-graph/network';
import { PUBLISHING_LIMIT_RETRY_MS, classifyInstagram } from './classifier';

const isVideo = (item: PublishMedia) => item.mimeType.startsWith('video/');
/** Instagram fetches each file itself, from a signed URL of this app that expires (lib/media/signed-url.ts). */
const mediaUrl = (item: PublishMedia): ContainerParams =>
  isVideo(item) ? { video_url: item.publicUrl!() } : { image_url: item.publicUrl!(), alt_text: item.altText };
const isStory = (input: Pick<PublishInput, 'format'>) => input.format === 'story';

/**
 * The Instagram API with Instagram Login (graph.instagram.com) for professional accounts: an image, a carousel of
 * up to 10 images and videos, a Reel (a single video always is one) or a Story, each one container made once per
 * delivery and kept (lib/providers/meta-graph/publish.ts). Before publishing, the account's content_publishing_limit
 * is read: a spent limit defers the post, never fails it.
 */
export function createInstagramClient(account: GraphAccount, send?: ProviderTransport): ProviderClient {
  const graph = createGraph(INSTAGRAM_NETWORK, classifyInstagram, account, send);
  const media = createMediaClient(graph);
  return {
    ...media,
    // A reply is a comment of the account's own on a media object (a thread's second part: the first comment).
    publish: (input) => (input.kind === 'reply' ? publishComment(graph, input) : media.publish(input)),
    listRecent: (input) => (input.inReplyTo ? ownComments(graph, input.inReplyTo, input) : media.listRecent(input)),
    // A comment has no container: its copies are found by reading its media's comments (listRecent with the parent).
    readBack: async (input) =>
      input.kind === 'reply'
        ? { verdict: 'list', evidence: { comment: true, on: input.inReplyTo } }
        : media.readBack!(input),
    postMetrics: instagramPostMetrics(graph),
    readFollowers: (options) => readFollowersField(graph, account.platformUserId, options),
  };
}

function createMediaClient(graph: Graph): ProviderClient {
  return createContainerClient(
    {
      graph,
      refuse: (input) => {
        const media = input.media ?? [];
        if (input.kind !== 'post') return 'Instagram’s API publishes posts and comments only: no direct messages.';
        if (media.length === 0) return 'An Instagram post needs an image or a video.';
        if (isStory(input) && media.length > 1) return 'A Story is one image or one video.';
        if (input.format === 'reel' && (media.length > 1 || !isVideo(media[0]!))) return 'A Reel is one video.';
        return null;
      },
      itemParams: (item) => ({
        ...(isVideo(item) ? { media_type: 'VIDEO' } : {}),
        ...mediaUrl(item),
        is_carousel_item: 'true',
      }),
      mainParams: (input, media, children) => {
        if (children) return { media_type: 'CAROUSEL', caption: input.text, children: children.join(',') };
        const only = media[0]!;
        // A Story takes no caption; a single video is a Reel, shown in the feed too.
        if (isStory(input)) return { media_type: 'STORIES', ...mediaUrl(only) };
        if (isVideo(only))
          return { media_type: 'REELS', caption: input.text, share_to_feed: 'true', ...mediaUrl(only) };
        return { caption: input.text, ...mediaUrl(only) };
      },
      // Instagram fetches and processes every file after answering: a container is published once FINISHED, and a
      // carousel can name its items only once they are (kept across attempts meanwhile).
      processesMedia: () => true,
      itemsProcess: () => true,
      beforePublish: (budget) => publishingLimit(graph, budget),
      onExpired: 'prove-absence',
      keep: (input): ProviderState => (isStory(input) ? { format: 'story' } : {}),
      // A Story has no caption and is not in the media listing.
      listable: (state) => state.format !== 'story',
    },
    {
      listings: ['media'],
      cannotDelete:
        'Instagram’s API cannot delete a post: delete the extra copy in the Instagram app (the copies are listed here).',
    },
  );
}

/**
 * GET /{user}/content_publishing_limit: `{ data: [{ quota_usage, config: { quota_total, quota_duration } }] }`.
 * A spent limit is a wait (not_sent); a limit that cannot be read holds nothing (media_publish answers it).
 */
async function publishingLimit(graph: Graph, budget: CallBudget): Promise<Classification | null> {
  let body: Record<string, unknown>;
  try {
    body = await graph.readEdge('content_publishing_limit', { fields: 'quota_usage,config' }, budget.options());
  } catch {
    return null;
  }
  const usage = asRecord(Array.isArray(body.data) ? body.data[0] : undefined);
  const used = Number(usage.quota_usage);
  const total = Number(asRecord(usage.config).quota_total);
  if (!Number.isFinite(used) || !Number.isFinite(total) || used < total) return null;
  return {
    outcome: 'not_sent',
    rule: 'instagram-publishing-limit-read',
    retryAt: new Date(Date.now() + PUBLISHING_LIMIT_RETRY_MS),
    reason: `This account has published ${used} of its ${total} Instagram posts allowed in 24 hours; it is published once the limit frees up.`,
    evidence: { quotaUsage: used, quotaTotal: total },
  };
}

/**
 * POST /{media}/comments?message=…: one call, never repeated by us. Comments have no idempotency and no container
 * to read: an unknown outcome is settled by the media's comments (listRecent), same / similar / absent.
 */
async function publishComment(graph: Graph, input: PublishInput): Promise<PublishResult> {
  const startedAt = new Date();
  if (!input.inReplyTo) return rejectedInput('An Instagram comment names the post it is on.', startedAt);
  if ((input.media ?? []).length > 0) return rejectedInput('An Instagram comment takes no image or video.', startedAt);
  const raw = await graph.comment(input.inReplyTo, input.text, callOptions(input));
  const classification = graph.classify(raw);
  const evidence = { ...classification.evidence, comment: true, on: input.inReplyTo };
  if (classification.outcome !== 'sent') return withTiming({ ...classification, evidence }, raw, startedAt);
  return withTiming(
    { ...classification, reason: 'Commented; Instagram returned the comment’s id.', evidence },
    raw,
    startedAt,
  );
}

/**
 * The account's own comments on one media object, in [since, until]: Graph lists everyone's, so the account's
 * username (from /me) sets the others' aside. Unreadable — no username to compare, a comment whose author Graph
 * does not name (it may be ours, or a stranger's with our words), more comments than the pages read, or a failed
 * read — throws, as every listing does: never a list that proves absence or takes another's comment for ours.
 */
async function ownComments(graph: Graph, mediaId: string, input: ListRecentInput): Promise<RecentPost[]> {
  const options = callOptions(input);
  const username = asString((await graph.me(options)).username);
  if (!username) {
    const reason = 'Instagram did not say this account’s username, so its comments cannot be told from others’';
    throw new ProviderReadError(reason, { outcome: 'ambiguous', rule: 'instagram-username-unknown', reason });
  }
  const comments = await graph.comments(mediaId, { maxPages: input.maxPages ?? 10, ...options });
  if (comments.some((c) => c.author === null)) {
    const reason = `Instagram listed a comment on ${mediaId} without its author, so ours cannot be told from others’`;
    throw new ProviderReadError(reason, { outcome: 'ambiguous', rule: 'instagram-comment-author-unknown', reason });
  }
  const until = input.until?.getTime() ?? Infinity;
  return comments
    .filter((c) => c.author === username)
    .filter((c) => c.createdAt.getTime() >= input.since.getTime() - 999 && c.createdAt.getTime() <= until)
    .map((c): RecentPost => ({ id: c.id, text: c.text, createdAt: c.createdAt, inReplyTo: c.inReplyTo }))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}
