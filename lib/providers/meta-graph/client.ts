import { callOptions } from '../call-budget';
import { keptId } from '../kept-state';
import { asRecord, asString, checkIdentity } from '../read';
import {
  ProviderReadError,
  type DeleteResult,
  type ListRecentInput,
  type ProviderClient,
  type ReadBack,
  type ReadBackInput,
  type RecentPost,
} from '../types';
import { graphError } from './classifier';
import { findPublishedPost } from './find-published';
import type { CallOptions, Graph } from './graph';
import { publishWithContainer, type ContainerFlow } from './publish';

export type ContainerClientOptions = {
  /** The account's listings that together hold its posts (Threads: threads and replies; Instagram: media). */
  listings: readonly string[];
  /** Instagram's API deletes nothing: the sentence a person reads instead. */
  cannotDelete?: string;
};

/**
 * A Meta container network's client (Threads, Instagram) with a long-lived user token. Publishing is two steps
 * around a media container kept on the delivery (publish.ts); an unknown outcome is settled by that container's
 * status (`readBack`), never by publishing again.
 */
export function createContainerClient(flow: ContainerFlow, options: ContainerClientOptions): ProviderClient {
  const { graph } = flow;
  const { name, label } = graph.network;

  const listRecent = (input: ListRecentInput) => listAccountPosts(graph, options.listings, input);

  /**
   * The delivery's container says what happened: PUBLISHED → found, with the post's id from the listing (until it
   * is listed — read lag — the read fails and the reconciler reads again: a `list` verdict could "prove" an absence
   * and publish a second copy, and the container's id is no post to link, reply to or delete); FINISHED or
   * IN_PROGRESS → absent (never published: the usual two reads, then a release publishes the same container);
   * EXPIRED → absent where a new container may replace it at once (Threads), else the listing decides (Instagram:
   * the same three answers as every text-matched read); ERROR → review. No container → the listing decides.
   */
  async function readBack(input: ReadBackInput): Promise<ReadBack> {
    const containerId = keptContainer(input);
    const listable = flow.listable(input.state);
    if (!containerId) return listable ? { verdict: 'list', evidence: { containerId: null } } : unlisted(label, null);
    const read = await graph.containerStatus(containerId, call(input));
    if (read.kind === 'unreadable') {
      const classification = graph.classify(read.raw);
      throw new ProviderReadError(`Could not read the ${label} container: ${classification.reason}`, classification);
    }
    if (read.kind === 'missing')
      return listable
        ? { verdict: 'list', evidence: { containerId, containerMissing: true }, dropOnRelease: KEPT_CONTAINER }
        : unlisted(label, containerId);
    const evidence = { containerId, status: read.status };
    switch (read.status) {
      case 'PUBLISHED': {
        // Published once, for certain; where no listing can name the post (a Story), a person records it.
        if (!listable)
          return {
            verdict: 'review',
            reason: `The media container reads PUBLISHED, so it went out once, but ${label} does not say the post's id: mark it sent`,
            evidence: { ...evidence, listable: false },
          };
        const wanted = {
          text: input.text,
          kind: input.kind === 'reply' ? ('reply' as const) : ('post' as const),
          inReplyTo: input.inReplyTo,
          containerCreatedAt:
            typeof input.state.containerCreatedAt === 'string' ? input.state.containerCreatedAt : null,
        };
        const post = await findPublishedPost(graph, wanted, call(input));
        if (!post) throw publishedNotListed(name, containerId);
        return { verdict: 'found', post, evidence: { ...evidence, listed: true } };
      }
      case 'ERROR':
        return {
          verdict: 'review',
          reason: `${label} could not process the media container (${read.errorMessage ?? 'no reason given'}): nothing was published`,
          evidence: { ...evidence, errorMessage: read.errorMessage },
        };
      case 'EXPIRED':
        if (flow.onExpired === 'new-container') return { verdict: 'absent', evidence };
        return listable ? { verdict: 'list', evidence, dropOnRelease: KEPT_CONTAINER } : unlisted(label, containerId);
      default:
        return { verdict: 'absent', evidence };
    }
  }

  function whoAmI(callOptions: CallOptions = {}) {
    return checkIdentity(async () => {
      const me = await graph.me(callOptions);
      const id = String(me[graph.network.meIdField] ?? me.id);
      const username = asString(me.username);
      return { id, handle: `@${username ?? id}`, displayName: asString(me.name) ?? null };
    });
  }

  async function deletePost(id: string, callOptions: CallOptions = {}): Promise<DeleteResult> {
    if (options.cannotDelete) return { ok: false, reason: options.cannotDelete };
    return deleteGraphObject(graph, id, callOptions);
  }

  return {
    provider: name,
    publish: (input) => publishWithContainer(flow, input),
    listRecent,
    whoAmI,
    deletePost,
    readBack,
  };
}

/** What a delivery keeps of its container (publish.ts): dropped once absence is proven, so a new one is made. */
const KEPT_CONTAINER = ['containerId', 'containerCreatedAt', 'items'];

const call = callOptions;

/** PUBLISHED, but its post is not in the listing (yet): unreadable for now, so the reconciler reads again. */
function publishedNotListed(name: string, containerId: string): ProviderReadError {
  const reason = `The media container ${containerId} reads PUBLISHED, but its post is not listed yet (read lag), so its id is not known`;
  return new ProviderReadError(reason, {
    outcome: 'ambiguous',
    rule: `${name}-published-not-listed`,
    reason,
    evidence: { containerId, status: 'PUBLISHED', listed: false },
  });
}

/** A post no listing shows (an Instagram Story) whose container says nothing certain: a person decides. */
function unlisted(label: string, containerId: string | null): ReadBack {
  return {
    verdict: 'review',
    reason: `${label} lists no such post by its text and its container does not say whether it went out`,
    evidence: { containerId, listable: false },
  };
}

/** The delivery's kept container, else the latest one an ambiguous attempt named in its evidence. */
const keptContainer = (input: ReadBackInput) => keptId(input, 'containerId');

/** The account's posts in every listing (Threads: threads and replies; Instagram: media; Facebook: published_posts), newest first. */
export async function listAccountPosts(
  graph: Graph,
  listings: readonly string[],
  input: ListRecentInput,
): Promise<RecentPost[]> {
  const query = { since: input.since, until: input.until, maxPages: input.maxPages ?? 10, ...call(input) };
  const listed: RecentPost[] = [];
  for (const edge of listings) listed.push(...(await graph.list(edge, query)));
  const until = input.until?.getTime() ?? Infinity;
  return listed
    .filter((p) => p.createdAt.getTime() >= input.since.getTime() - 999 && p.createdAt.getTime() <= until)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/** DELETE /{id} → `{ success: true }`; Graph's "does not exist" (100/33) means already gone. */
export async function deleteGraphObject(graph: Graph, id: string, options: CallOptions = {}): Promise<DeleteResult> {
  const { label } = graph.network;
  const raw = await graph.deleteMedia(id, options);
  if (raw.type !== 'response') return { ok: false, reason: `${label} did not answer the delete: ${raw.message}` };
  if (raw.status >= 200 && raw.status < 300 && asRecord(raw.body).success === true)
    return { ok: true, alreadyGone: false };
  const error = graphError(raw);
  if (error?.code === 100 && error.subcode === 33) return { ok: true, alreadyGone: true };
  return { ok: false, reason: `${label} refused the delete: ${graph.classify(raw).reason}`, httpStatus: raw.status };
}
