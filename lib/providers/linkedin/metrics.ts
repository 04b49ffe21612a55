import { countOf, presentMetrics } from '@/lib/analytics/metrics';
import { callOptions } from '../call-budget';
import { asRecord, asString } from '../read';
import type { PostMetricsRead, PostMetricsReader } from '../types';
import type { CallOptions, LinkedinApi } from './api';
import { ORGANIZATION_URN, POST_URN } from './urn';

/** Shares per statistics call: each URN goes in the query string. */
const SHARES_PER_CALL = 20;

/** A Rest.li 2.0 list parameter: `List(a,b)` with each URN percent-encoded, the syntax itself not. */
const restliList = (urns: string[]) => `List(${urns.map(encodeURIComponent).join(',')})`;

/**
 * An organization page's post statistics: GET /rest/organizationalEntityShareStatistics?q=organizationalEntity
 * (lifetime totals, organic only; rw_organization_admin), shares and ugcPosts by URN: likeCount, commentCount,
 * shareCount, impressionCount, clickCount. A URN the answer leaves out is not answered (read again later): LinkedIn
 * says nothing about deleted posts there. A member's own posts need r_member_postAnalytics, which this app does not
 * ask for: no reader (docs/analytics.md#networks).
 */
export function linkedinPostMetrics(api: LinkedinApi): PostMetricsReader | undefined {
  if (!ORGANIZATION_URN.test(api.author)) return undefined;
  return {
    batchSize: SHARES_PER_CALL,
    calls: (count) => Math.ceil(count / SHARES_PER_CALL),
    async read(input) {
      const shares = input.ids.filter((id) => POST_URN.exec(id)?.[1] === 'share');
      const ugcPosts = input.ids.filter((id) => POST_URN.exec(id)?.[1] === 'ugcPost');
      const query = [
        'q=organizationalEntity',
        `organizationalEntity=${encodeURIComponent(api.author)}`,
        ...(shares.length > 0 ? [`shares=${restliList(shares)}`] : []),
        ...(ugcPosts.length > 0 ? [`ugcPosts=${restliList(ugcPosts)}`] : []),
      ].join('&');
      const found = new Map<string, PostMetricsRead>();
      if (shares.length + ugcPosts.length === 0) return found;
      const { body } = await api.getRest(
        `${api.base}/rest/organizationalEntityShareStatistics?${query}`,
        callOptions(input),
      );
      const elements = asRecord(body).elements;
      for (const element of (Array.isArray(elements) ? elements : []).map(asRecord)) {
        const urn = asString(element.share) ?? asString(element.ugcPost);
        const stats = asRecord(element.totalShareStatistics);
        if (!urn || !input.ids.includes(urn) || !element.totalShareStatistics) continue;
        found.set(urn, {
          status: 'found',
          metrics: presentMetrics({
            views: countOf(stats.impressionCount),
            likes: countOf(stats.likeCount),
            reposts: countOf(stats.shareCount),
            replies: countOf(stats.commentCount),
            quotes: undefined,
            saves: undefined,
            clicks: countOf(stats.clickCount),
          }),
        });
      }
      return found;
    },
  };
}

/**
 * A page's followers: GET /rest/networkSizes/{organization URN}?edgeType=COMPANY_FOLLOWED_BY_MEMBER → firstDegreeSize.
 * A member's follower count needs a scope this app does not ask for: null (read no more).
 */
export async function readLinkedinFollowers(api: LinkedinApi, call: CallOptions = {}): Promise<number | null> {
  if (!ORGANIZATION_URN.test(api.author)) return null;
  const { body } = await api.getRest(
    `${api.base}/rest/networkSizes/${encodeURIComponent(api.author)}?edgeType=COMPANY_FOLLOWED_BY_MEMBER`,
    call,
  );
  return countOf(asRecord(body).firstDegreeSize) ?? null;
}
