import { callOptions, type CallOptions } from '../call-budget';
import { keptId } from '../kept-state';
import { asString, checkIdentity } from '../read';
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
import { createTiktokApi, type TiktokAccount } from './api';
import { classifyTiktok } from './classifier';
import { readTiktokFollowers, tiktokPostMetrics } from './metrics';
import type { TiktokOptionsInfo } from './options';
import { publishTiktok } from './publish';
import { settledBy } from './settle';

/** A publish still processing this long after its init goes to review. */
const PROCESSING_LIMIT_MS = 24 * 3_600_000;
/** Processing is read again after half its age so far, between these bounds (status reads: 30 a minute per token). */
const PROCESSING_RECHECK_MIN_MS = 1_000;
const PROCESSING_RECHECK_MAX_MS = 15 * 60_000;

/**
 * The TikTok Content Posting API with a user token (OAuth v2). One attempt inits one publish and keeps its publish_id
 * (lib/providers/tiktok/publish.ts); an unknown outcome is settled by that publish's status (`readBack`), never by a
 * second init.
 */
export function createTiktokClient(account: TiktokAccount, send?: ProviderTransport): ProviderClient {
  const api = createTiktokApi(account, send);

  /** The creator's public videos in [since, until], newest first: private, friends-only and inbox posts never show. */
  async function listRecent(input: ListRecentInput): Promise<RecentPost[]> {
    const videos = await api.listVideos({ since: input.since, maxPages: input.maxPages ?? 10, ...callOptions(input) });
    const until = input.until?.getTime() ?? Infinity;
    return videos.filter((v) => v.createdAt.getTime() >= input.since.getTime() - 999 && v.createdAt.getTime() <= until);
  }

  /**
   * A kept publish_id (or one an ambiguous attempt named) is read: PUBLISH_COMPLETE / SEND_TO_USER_INBOX → found;
   * FAILED → absent (nothing was posted; the released attempt reads FAILED and fails with TikTok's reason); still
   * processing → pending (read again later), unreadable → the unreadable backoff. Without a publish_id only a direct, public post can
   * ever be read back (video.list lists public videos only), so an inbox upload or a private post goes to review; a
   * public one is looked for in the list, where the init's lost answer counts as evidence (`isDuplicateEvidence`): not
   * finding it is no proof of absence (TikTok guarantees no time limit for processing and moderation), so it never
   * leads to a second init.
   */
  async function readBack(input: ReadBackInput): Promise<ReadBack> {
    const publishId = keptId(input, 'publishId');
    if (!publishId) {
      const init = [...input.evidence].reverse().find((e) => typeof e.mode === 'string') ?? {};
      const evidence = { publishId: null, mode: init.mode ?? null, privacyLevel: init.privacyLevel ?? null };
      if (init.mode === 'inbox')
        return {
          verdict: 'review',
          reason:
            'An upload to the creator’s TikTok inbox had no answer, and an inbox cannot be read: check the TikTok app’s inbox before sending it again',
          evidence,
        };
      if (init.mode === undefined)
        return {
          verdict: 'review',
          reason:
            'An attempt may have initialised a TikTok post but left no publish_id (the worker lost its claim or stopped): check the account in the TikTok app',
          evidence,
        };
      if (init.listed !== true)
        return {
          verdict: 'review',
          reason: `A ${String(init.privacyLevel ?? 'non-public')} TikTok post had no answer, and TikTok lists public videos only: check the account in the TikTok app`,
          evidence,
        };
      return { verdict: 'list', evidence };
    }
    const read = await api.status(publishId, callOptions(input));
    if (read.kind === 'unreadable') {
      const c = classifyTiktok(read.raw);
      throw new ProviderReadError(`Could not read the TikTok publish status: ${c.reason}`, {
        ...c,
        evidence: { ...c.evidence, publishId },
      });
    }
    if (read.kind === 'missing')
      return {
        verdict: 'review',
        reason: `TikTok does not know the publish ${publishId}: check the account in the TikTok app`,
        evidence: { publishId, missing: true },
      };
    const settled = settledBy(read, publishId, null);
    const evidence = { publishId, status: read.status, failReason: read.failReason };
    if (!settled) return stillProcessing(publishId, read.status, input.state.initAt);
    if (settled.outcome === 'failed') return { verdict: 'absent', evidence };
    const initAt = typeof input.state.initAt === 'string' ? new Date(input.state.initAt) : new Date();
    return {
      verdict: 'found',
      post: { id: settled.externalId!, text: input.text, createdAt: initAt, inReplyTo: null },
      evidence,
    };
  }

  /** user/info names the token's user; the username comes from creator_info (user/info's needs user.info.profile). */
  function whoAmI(options: CallOptions = {}) {
    return checkIdentity(async () => {
      const user = await api.me(options);
      const id = asString(user.open_id) ?? account.platformUserId;
      const creator = await api.creatorInfo(options);
      const username = creator.ok ? creator.info.username : undefined;
      return {
        id,
        handle: `@${username ?? id}`,
        displayName: asString(user.display_name) ?? null,
        url: username ? `https://www.tiktok.com/@${username}` : null,
      };
    });
  }

  /** The Content Posting API has no delete: an extra copy is removed in the TikTok app. */
  async function deletePost(): Promise<DeleteResult> {
    return { ok: false, reason: 'TikTok’s API cannot delete videos: delete it in the TikTok app.' };
  }

  return {
    provider: 'tiktok',
    publish: (input) => publishTiktok(api, input),
    listRecent,
    whoAmI,
    deletePost,
    readBack,
    postOptionsInfo,
    postMetrics: tiktokPostMetrics(api),
    readFollowers: (options) => readTiktokFollowers(api, options),
  };

  /** creator_info/query: the privacy levels and interactions this creator allows now (the composer offers only these). */
  async function postOptionsInfo(options: { timeoutMs?: number; signal?: AbortSignal } = {}) {
    const read = await api.creatorInfo(callOptions(options));
    if (!read.ok) {
      const classification = classifyTiktok(read.raw);
      throw new ProviderReadError(
        `Could not read the TikTok creator’s options: ${classification.reason}`,
        classification,
      );
    }
    return read.info satisfies TiktokOptionsInfo;
  }
}

/**
 * TikTok guarantees no time limit for processing and moderation (hours at times): the publish is read again later, at
 * growing delays, and only a publish still processing a day after its init goes to review.
 */
function stillProcessing(publishId: string, status: string, initAt: unknown): ReadBack {
  const since = typeof initAt === 'string' ? Date.parse(initAt) : NaN;
  const age = Number.isNaN(since) ? 0 : Date.now() - since;
  const evidence = { publishId, status, processingForMs: age };
  if (age > PROCESSING_LIMIT_MS)
    return {
      verdict: 'review',
      reason: `TikTok has been processing the publish ${publishId} (${status}) for over a day`,
      evidence,
    };
  return {
    verdict: 'pending',
    reason: `TikTok is still processing the publish ${publishId} (${status}); read again later, never sent again`,
    retryAt: new Date(Date.now() + Math.min(PROCESSING_RECHECK_MAX_MS, Math.max(PROCESSING_RECHECK_MIN_MS, age / 2))),
    evidence,
  };
}
