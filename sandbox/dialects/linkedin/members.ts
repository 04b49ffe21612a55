import { json } from '@/sandbox/behaviour/faults';
import { accessDenied, error } from './errors';
import { actsAs, administeredOrganization } from './identity';
import type { SandboxAccount, SandboxDeps } from '@/sandbox/store/types';

// Who a LinkedIn token is, and the pages it administers: OpenID userinfo, organizationAcls, organizations.

/** GET /v2/userinfo (OpenID Connect, scopes openid profile). */
export function userinfo(member: SandboxAccount) {
  const name = member.displayName ?? member.handle;
  const [given, ...family] = name.split(' ');
  return {
    sub: member.platformUserId.replace(/^urn:li:person:/, ''),
    name,
    given_name: given,
    family_name: family.join(' '),
    locale: { country: 'US', language: 'en' },
  };
}

/** GET /rest/organizationAcls?q=roleAssignee[&role][&state]: the pages the token's member administers. */
export async function organizationAcls(request: Request, member: SandboxAccount, deps: SandboxDeps) {
  const query = new URL(request.url).searchParams;
  if (query.get('q') !== 'roleAssignee') return error(400, 'Invalid query parameters passed to request');
  const start = Number(query.get('start') ?? 0);
  const count = Number(query.get('count') ?? 10);
  const organization = administeredOrganization(member.platformUserId);
  const page = organization ? await deps.store.getAccount('linkedin', organization) : null;
  const wanted =
    page &&
    (query.get('role') ?? 'ADMINISTRATOR') === 'ADMINISTRATOR' &&
    (query.get('state') ?? 'APPROVED') === 'APPROVED';
  const elements = wanted
    ? [{ roleAssignee: member.platformUserId, state: 'APPROVED', role: 'ADMINISTRATOR', organization }]
    : [];
  return json(200, { paging: { start, count, links: [] }, elements: elements.slice(start, start + count) });
}

/** GET /rest/organizations/{id}: an administered page's names. */
export async function getOrganization(member: SandboxAccount, id: string, deps: SandboxDeps) {
  const urn = `urn:li:organization:${id}`;
  const page = actsAs(member.platformUserId, urn) ? await deps.store.getAccount('linkedin', urn) : null;
  if (!page) return accessDenied(`Not enough permissions to access: organizations.GET`);
  const name = page.handle;
  return json(200, {
    id: Number(id),
    localizedName: name,
    vanityName: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    name: { localized: { en_US: name }, preferredLocale: { country: 'US', language: 'en' } },
  });
}
