import { deleteOnce } from '../delete-post';
import { callBudget } from '../call-budget';
import { uploadImages } from './images';
import { sendOnce } from '@/lib/net/send';
import { rejectedInput, withTiming } from '../publish-result';
import { asRecord, asString, checkIdentity, readJson } from '../read';
import type { ProviderTransport } from '../transport';
import {
  ProviderReadError,
  type ListRecentInput,
  type ProviderClient,
  type PublishInput,
  type PublishResult,
  type RecentPost,
} from '../types';
import { linkedinApi, toRecentPost, type CallOptions, type LinkedinAccount, type LinkedinOptions } from './api';
import { LINKEDIN_RULES, classifyLinkedin } from './classifier';
import { listLinkedinIdentities } from './identities';
import { toLittleText } from './little-text';
import { linkedinPostMetrics, readLinkedinFollowers } from './metrics';
import { linkedinReadBack } from './read-back';
import { authorKind, personUrn } from './urn';

const PAGE_SIZE = 50;

/**
 * LinkedIn Posts API (versioned /rest endpoints) with a member's OAuth token, posting as the member or as an
 * organization page they administer (the account's author URN). LinkedIn has no idempotency key: an unknown
 * outcome is settled by reading back what LinkedIn names (a duplicate's URN) or an organization's posts.
 */
export function createLinkedinClient(
  account: LinkedinAccount,
  send: ProviderTransport = sendOnce,
  options: LinkedinOptions = {},
): ProviderClient {
  const api = linkedinApi(account, send, options);

  async function publish(input: PublishInput): Promise<PublishResult> {
    const startedAt = new Date();
    if (input.kind !== 'post') return rejectedInput('LinkedIn takes posts only (no replies or messages).', startedAt);
    if (!authorKind(account.platformUserId))
      return rejectedInput('The account’s id is not a LinkedIn member or organization URN.', startedAt);
    const budget = callBudget(input.timeoutMs, input.signal);
    let images: string[] = [];
    if (input.media?.length) {
      const uploaded = await uploadImages(api, input.media, budget);
      if (!uploaded.ok) return withTiming(uploaded.classification, uploaded.raw, startedAt);
      images = uploaded.urns;
    }
    const alt = (i: number) => input.media![i]!.altText;
    const content =
      images.length === 1
        ? { media: { id: images[0], ...(alt(0) ? { altText: alt(0) } : {}) } }
        : images.length > 1
          ? { multiImage: { images: images.map((id, i) => ({ id, ...(alt(i) ? { altText: alt(i) } : {}) })) } }
          : undefined;
    const raw = await send({
      method: 'POST',
      url: `${api.base}/rest/posts`,
      headers: api.rest,
      outbound: account.outbound,
      json: {
        ...(content ? { content } : {}),
        author: account.platformUserId,
        commentary: toLittleText(input.text),
        visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        lifecycleState: 'PUBLISHED',
        isReshareDisabledByAuthor: false,
      },
      ...budget.options(),
    });
    const classification = classifyLinkedin(raw);
    if (classification.outcome === 'sent') classification.url = api.postUrl(classification.externalId!);
    return withTiming(classification, raw, startedAt);
  }

  /**
   * An organization's posts, newest change first (GET /rest/posts?q=author&sortBy=LAST_MODIFIED), in [since, until].
   * A post's last change is never before its creation, so the pages stop once changes are older than `since`.
   */
  async function listRecent(input: ListRecentInput): Promise<RecentPost[]> {
    if (authorKind(account.platformUserId) !== 'organization') throw memberNotListable();
    const posts: RecentPost[] = [];
    for (let page = 0; page < (input.maxPages ?? 10); page++) {
      const query = new URLSearchParams({
        author: account.platformUserId,
        q: 'author',
        count: String(PAGE_SIZE),
        start: String(page * PAGE_SIZE),
        sortBy: 'LAST_MODIFIED',
      });
      const { body } = await api.getRest(`${api.base}/rest/posts?${query}`, input);
      const elements = Array.isArray(asRecord(body).elements) ? (asRecord(body).elements as unknown[]) : [];
      let older = false;
      for (const element of elements) {
        const post = toRecentPost(api, element);
        if (!post) continue;
        if (Number(asRecord(element).lastModifiedAt ?? post.createdAt.getTime()) < input.since.getTime()) older = true;
        if (post.createdAt >= input.since && (!input.until || post.createdAt <= input.until)) posts.push(post);
      }
      if (older || elements.length < PAGE_SIZE) break;
    }
    return posts.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }

  /** OpenID Connect userinfo: the member the token belongs to (also for an organization page's account). */
  function whoAmI(call: CallOptions = {}) {
    return checkIdentity(async () => {
      const { body } = await readJson(
        { url: `${api.base}/v2/userinfo`, headers: api.auth, outbound: account.outbound, ...call },
        LINKEDIN_RULES,
        send,
      );
      const me = asRecord(body);
      const sub = asString(me.sub);
      if (!sub || !/^[A-Za-z0-9_-]+$/.test(sub))
        throw new ProviderReadError('Not a LinkedIn member', {
          outcome: 'failed',
          rule: 'not-a-linkedin-member',
          reason: 'The answer is not a LinkedIn member (OpenID userinfo with a `sub`).',
        });
      const name = asString(me.name) ?? ([asString(me.given_name), asString(me.family_name)].join(' ').trim() || sub);
      return { id: personUrn(sub), handle: name, displayName: name };
    });
  }

  /** DELETE /rest/posts/{urn} answers 204; a post already gone answers 404. */
  function deletePost(urn: string, call: CallOptions = {}) {
    return deleteOnce(
      {
        url: api.postPath(urn),
        headers: { ...api.rest, 'x-restli-method': 'DELETE' },
        outbound: account.outbound,
        ...call,
      },
      () => true,
      send,
    );
  }

  return {
    provider: 'linkedin',
    publish,
    listRecent,
    whoAmI,
    deletePost,
    readBack: (input) => linkedinReadBack(api, input),
    listIdentities: (call) => listLinkedinIdentities(api, whoAmI, call),
    postMetrics: linkedinPostMetrics(api),
    readFollowers: (call) => readLinkedinFollowers(api, call),
  };
}

function memberNotListable(): ProviderReadError {
  return new ProviderReadError('LinkedIn member posts cannot be listed', {
    outcome: 'failed',
    rule: 'linkedin-member-not-listable',
    reason: 'LinkedIn member posts cannot be listed with the granted permissions; check the profile.',
  });
}
