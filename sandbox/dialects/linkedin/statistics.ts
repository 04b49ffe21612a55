import { json } from '@/sandbox/behaviour/faults';
import { engagementOf, followersOf } from '@/sandbox/behaviour/engagement';
import type { SandboxAccount, SandboxDeps } from '@/sandbox/store/types';
import { accessDenied, error } from './errors';
import { actsAs } from './identity';
import { shareId } from './posts';

// A page's analytics as LinkedIn's Community Management API serves them: organizationalEntityShareStatistics (lifetime
// totals per share) and networkSizes (its followers). Only an administrator of the page reads them.

/** `List(urn%3Ali%3Ashare%3A1,…)` as the query string's value decodes: the URNs, or null when it is not a list. */
function restliList(value: string | null): string[] | null {
  if (value === null) return [];
  const inner = /^List\((.*)\)$/.exec(value)?.[1];
  return inner === undefined ? null : inner.split(',').filter(Boolean).map(decodeURIComponent);
}

/** GET /rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=…&shares=List(…). */
export async function shareStatistics(request: Request, member: SandboxAccount, deps: SandboxDeps) {
  const query = new URL(request.url).searchParams;
  if (query.get('q') !== 'organizationalEntity') return error(400, 'Invalid query parameters passed to request');
  const organization = query.get('organizationalEntity') ?? '';
  if (!/^urn:li:organization:\d+$/.test(organization))
    return error(400, 'organizationalEntity must be an organization URN');
  const page = actsAs(member.platformUserId, organization)
    ? await deps.store.getAccount('linkedin', organization)
    : null;
  if (!page) return accessDenied('Not enough permissions to access: organizationalEntityShareStatistics.GET');
  const shares = restliList(query.get('shares'));
  if (!shares) return error(400, 'shares must be a List of share URNs');
  const elements = [];
  for (const urn of shares) {
    const id = shareId(urn);
    const post = id ? await deps.store.getPost(id) : null;
    // Deleted or not the page's: LinkedIn leaves it out of the answer.
    if (!post || post.accountId !== page.id) continue;
    const e = engagementOf(post, 'linkedin');
    const engaged = e.likes + e.replies + e.reposts + e.clicks;
    elements.push({
      organizationalEntity: organization,
      share: urn,
      totalShareStatistics: {
        uniqueImpressionsCount: Math.floor(e.views * 0.7),
        shareCount: e.reposts,
        engagement: e.views > 0 ? engaged / e.views : 0,
        clickCount: e.clicks,
        likeCount: e.likes,
        impressionCount: e.views,
        commentCount: e.replies,
      },
    });
  }
  return json(200, { paging: { start: 0, count: 10, links: [] }, elements });
}

/** GET /rest/networkSizes/{organization URN}?edgeType=COMPANY_FOLLOWED_BY_MEMBER: the page's followers. */
export async function networkSizes(request: Request, member: SandboxAccount, urn: string, deps: SandboxDeps) {
  if (new URL(request.url).searchParams.get('edgeType') !== 'COMPANY_FOLLOWED_BY_MEMBER')
    return error(400, 'edgeType must be COMPANY_FOLLOWED_BY_MEMBER');
  const page = actsAs(member.platformUserId, urn) ? await deps.store.getAccount('linkedin', urn) : null;
  if (!page) return accessDenied('Not enough permissions to access: networkSizes.GET');
  return json(200, { firstDegreeSize: followersOf(page, 'linkedin') });
}
