import { asRecord, asString, checkIdentity } from '../read';
import type { ProviderTransport } from '../transport';
import {
  ProviderReadError,
  type DeleteResult,
  type ListRecentInput,
  type ProviderClient,
  type ReadBack,
  type ReadBackInput,
  type RecentPost,
} from '../types';
import { classifyThreads, graphError } from './classifier';
import { findPublishedPost } from './find-published';
import { createGraph, type CallOptions, type ThreadsAccount } from './graph';
import { publishThread } from './publish';

/**
 * The Threads API (graph.threads.net, v1.0) with a long-lived user token. Publishing is two steps around a
 * media container kept on the delivery (lib/providers/threads/publish.ts); an unknown outcome is settled by
 * that container's status (`readBack`), never by publishing again.
 */
export function createThreadsClient(account: ThreadsAccount, send?: ProviderTransport): ProviderClient {
  const graph = createGraph(account, send);

  /** The account's threads and replies (two listings: GET /threads shows no replies), newest first. */
  async function listRecent(input: ListRecentInput): Promise<RecentPost[]> {
    const options = { since: input.since, until: input.until, maxPages: input.maxPages ?? 10, ...call(input) };
    const [threads, replies] = [await graph.list('threads', options), await graph.list('replies', options)];
    const until = input.until?.getTime() ?? Infinity;
    return [...threads, ...replies]
      .filter((p) => p.createdAt.getTime() >= input.since.getTime() - 999 && p.createdAt.getTime() <= until)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }

  /**
   * The delivery's container says what happened: PUBLISHED → found, with the post's id from the listing (until it
   * is listed — read lag — the read fails and the reconciler reads again: a `list` verdict could "prove" an absence
   * and publish a second copy, and the container's id is no post to link, reply to or delete); FINISHED,
   * IN_PROGRESS or EXPIRED → absent (never published: the usual two reads, then a release publishes the same
   * container, or a new one for an expired container); ERROR → review. No container → the listing decides.
   */
  async function readBack(input: ReadBackInput): Promise<ReadBack> {
    const containerId = keptContainer(input);
    if (!containerId) return { verdict: 'list', evidence: { containerId: null } };
    const read = await graph.containerStatus(containerId, call(input));
    if (read.kind === 'unreadable') {
      const classification = classifyThreads(read.raw);
      throw new ProviderReadError(`Could not read the Threads container: ${classification.reason}`, classification);
    }
    if (read.kind === 'missing') return { verdict: 'list', evidence: { containerId, containerMissing: true } };
    const evidence = { containerId, status: read.status };
    switch (read.status) {
      case 'PUBLISHED': {
        const wanted = {
          text: input.text,
          kind: input.kind === 'reply' ? ('reply' as const) : ('post' as const),
          inReplyTo: input.inReplyTo,
          containerCreatedAt:
            typeof input.state.containerCreatedAt === 'string' ? input.state.containerCreatedAt : null,
        };
        const post = await findPublishedPost(graph, wanted, call(input));
        if (!post) throw publishedNotListed(containerId);
        return { verdict: 'found', post, evidence: { ...evidence, listed: true } };
      }
      case 'ERROR':
        return {
          verdict: 'review',
          reason: `Threads could not process the media container (${read.errorMessage ?? 'no reason given'}): nothing was published`,
          evidence: { ...evidence, errorMessage: read.errorMessage },
        };
      default:
        return { verdict: 'absent', evidence };
    }
  }

  function whoAmI(options: CallOptions = {}) {
    return checkIdentity(async () => {
      const me = await graph.me(options);
      const username = asString(me.username);
      return { id: String(me.id), handle: `@${username ?? String(me.id)}`, displayName: asString(me.name) ?? null };
    });
  }

  /** DELETE /{media-id} → `{ success: true }`; Graph's "does not exist" (100/33) means already gone. */
  async function deletePost(id: string, options: CallOptions = {}): Promise<DeleteResult> {
    const raw = await graph.deleteMedia(id, options);
    if (raw.type !== 'response') return { ok: false, reason: `Threads did not answer the delete: ${raw.message}` };
    if (raw.status >= 200 && raw.status < 300 && asRecord(raw.body).success === true)
      return { ok: true, alreadyGone: false };
    const error = graphError(raw);
    if (error?.code === 100 && error.subcode === 33) return { ok: true, alreadyGone: true };
    return {
      ok: false,
      reason: `Threads refused the delete: ${classifyThreads(raw).reason}`,
      httpStatus: raw.status,
    };
  }

  return {
    provider: 'threads',
    publish: (input) => publishThread(graph, input),
    listRecent,
    whoAmI,
    deletePost,
    readBack,
  };
}

const call = (input: { timeoutMs?: number; signal?: AbortSignal }): CallOptions => ({
  timeoutMs: input.timeoutMs,
  signal: input.signal,
});

/** PUBLISHED, but its post is not in the listing (yet): unreadable for now, so the reconciler reads again. */
function publishedNotListed(containerId: string): ProviderReadError {
  const reason = `The media container ${containerId} reads PUBLISHED, but its post is not listed yet (read lag), so its id is not known`;
  return new ProviderReadError(reason, {
    outcome: 'ambiguous',
    rule: 'threads-published-not-listed',
    reason,
    evidence: { containerId, status: 'PUBLISHED', listed: false },
  });
}

/** The delivery's kept container, else the latest one an ambiguous attempt named in its evidence. */
function keptContainer(input: ReadBackInput): string | null {
  if (typeof input.state.containerId === 'string') return input.state.containerId;
  for (const evidence of [...input.evidence].reverse())
    if (typeof evidence.containerId === 'string') return evidence.containerId;
  return null;
}
