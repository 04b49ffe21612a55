import { compareWithPlatform } from '@/lib/reconcile/match';
import { callOptions, type CallOptions } from '../call-budget';
import { keptId } from '../kept-state';
import { checkIdentity } from '../read';
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
import { readYoutubeFollowers, youtubePostMetrics } from './metrics';
import { createYoutubeApi, sessionStateOf, type YoutubeAccount } from './api';
import { classifyYoutube } from './classifier';
import { youtubeVideoSettings } from './settings';
import { DEFAULT_CHUNK_BYTES, publishYoutube } from './upload';

/** Every byte arrived and YouTube is still finishing: read again after this long. */
const FINALISING_RECHECK_MS = 5_000;

/**
 * The YouTube Data API v3 with a user token (Google OAuth 2.0). One delivery is one resumable upload session, its URI
 * kept before the first byte (lib/providers/youtube/upload.ts); an unknown outcome is settled by that session, then
 * the channel's uploads playlist (`readBack`), never by a second videos.insert.
 */
export function createYoutubeClient(
  account: YoutubeAccount,
  send?: ProviderTransport,
  options: { chunkBytes?: number } = {},
): ProviderClient {
  const api = createYoutubeApi(account, send);

  /** The channel's uploads playlist in [since, until], newest first (private and scheduled videos too: the owner reads). */
  async function listRecent(input: ListRecentInput): Promise<RecentPost[]> {
    const channel = await api.channel(callOptions(input));
    if (!channel.uploads) return [];
    const until = input.until?.getTime() ?? Infinity;
    return (await api.uploads(channel.uploads, input)).filter(
      (v) => v.createdAt.getTime() >= input.since.getTime() - 999 && v.createdAt.getTime() <= until,
    );
  }

  /**
   * The kept session is asked (`Content-Range: bytes *\/N`): complete → found; incomplete → absent (a session without all
   * its bytes is no video; the released attempt goes on in the same session), all bytes but still finishing → pending.
   * An expired session whose last chunk went out is looked for in the uploads playlist: one same copy → found,
   * anything else → review, never a second upload. No session kept: no byte was ever sent (the URI is kept first).
   */
  async function readBack(input: ReadBackInput): Promise<ReadBack> {
    const sessionUri = keptId(input, 'sessionUri');
    if (!sessionUri) return { verdict: 'absent', evidence: { sessionUri: null } };
    const size = Number(input.state.sizeBytes ?? input.evidence.findLast((e) => e.total !== undefined)?.total);
    const raw = await api.querySession(sessionUri, size, callOptions(input));
    const session = sessionStateOf(raw);
    const evidence = { sessionUri, session: session.kind };
    if (session.kind === 'complete') {
      if (session.uploadStatus === 'failed' || session.uploadStatus === 'rejected')
        return { verdict: 'absent', evidence: { ...evidence, uploadStatus: session.uploadStatus } };
      return {
        verdict: 'found',
        post: {
          id: session.videoId,
          text: input.text,
          createdAt: new Date(),
          inReplyTo: null,
          url: `https://www.youtube.com/watch?v=${session.videoId}`,
        },
        evidence: { ...evidence, videoId: session.videoId },
      };
    }
    if (session.kind === 'incomplete') {
      if (session.received < size) return { verdict: 'absent', evidence: { ...evidence, received: session.received } };
      return {
        verdict: 'pending',
        reason: 'Every byte reached YouTube and it is still finishing the upload; read again, never sent again',
        retryAt: new Date(Date.now() + FINALISING_RECHECK_MS),
        evidence: { ...evidence, received: session.received },
      };
    }
    if (session.kind === 'unknown') {
      const c = classifyYoutube(raw);
      throw new ProviderReadError(`Could not ask the YouTube upload session: ${c.reason}`, {
        ...c,
        evidence: { ...c.evidence, sessionUri },
      });
    }
    const finalSent = Boolean(input.state.finalChunkAt) || input.evidence.some((e) => e.sessionGone === true);
    if (!finalSent) return { verdict: 'absent', evidence: { ...evidence, finalChunkSent: false } };
    return findInUploads(input, evidence);
  }

  /** The session is gone after its last chunk: the uploads playlist is the only evidence left. */
  async function findInUploads(input: ReadBackInput, evidence: Record<string, unknown>): Promise<ReadBack> {
    const videos = await listRecent({ since: input.since, until: input.until, ...callOptions(input) });
    const { same, similar } = compareWithPlatform(videos, {
      text: youtubeVideoSettings(input).description,
      kind: 'post',
      inReplyTo: null,
      windowStart: input.since,
      windowEnd: input.until,
    });
    const found = { ...evidence, same: same.map((v) => v.id), similar: similar.map((v) => v.id) };
    if (same.length === 1 && similar.length === 0) return { verdict: 'found', post: same[0]!, evidence: found };
    return {
      verdict: 'review',
      reason:
        same.length + similar.length === 0
          ? 'The upload session expired after its last chunk and the channel’s uploads show no such video: a missing video is no proof (processing), so check the channel before uploading again'
          : 'The upload session expired after its last chunk and the channel’s uploads show more than one candidate: check them',
      evidence: found,
    };
  }

  /** channels.list?mine=true: the channel is the account (its id, its @handle). */
  function whoAmI(options: CallOptions = {}) {
    return checkIdentity(async () => {
      const channel = await api.channel(options);
      const handle = channel.customUrl
        ? channel.customUrl.startsWith('@')
          ? channel.customUrl
          : `@${channel.customUrl}`
        : channel.id;
      return {
        id: channel.id,
        handle,
        displayName: channel.title,
        url: channel.customUrl ? `https://www.youtube.com/${handle}` : `https://www.youtube.com/channel/${channel.id}`,
      };
    });
  }

  async function deletePost(id: string, options: CallOptions = {}): Promise<DeleteResult> {
    const raw = await api.deleteVideo(id, options);
    if (raw.type === 'response' && raw.status === 204) return { ok: true, alreadyGone: false };
    if (raw.type === 'response' && raw.status === 404) return { ok: true, alreadyGone: true };
    const c = classifyYoutube(raw);
    return { ok: false, reason: c.reason, httpStatus: c.httpStatus };
  }

  return {
    provider: 'youtube',
    publish: (input) => publishYoutube(api, input, { chunkBytes: options.chunkBytes ?? DEFAULT_CHUNK_BYTES }),
    listRecent,
    whoAmI,
    deletePost,
    readBack,
    postMetrics: youtubePostMetrics(api),
    readFollowers: (options) => readYoutubeFollowers(api, options),
  };
}
