import { asRecord, asString } from '../read';
import { ProviderReadError, type WhoAmIResult } from '../types';
import type { CallOptions, LinkedinApi } from './api';
import { ORGANIZATION_URN } from './urn';

type Identity = { platformUserId: string; handle: string; displayName: string | null };

const ACL_PAGE = 100;
const MAX_ACL_PAGES = 5;

/**
 * Who one member token can publish as: the member, then each organization page they administer
 * (organizationAcls, role ADMINISTRATOR, state APPROVED), named by its organization lookup.
 */
export async function listLinkedinIdentities(
  api: LinkedinApi,
  whoAmI: (call?: CallOptions) => Promise<WhoAmIResult>,
  call: CallOptions = {},
): Promise<Identity[]> {
  const me = await whoAmI(call);
  if (!me.ok) {
    const { outcome, rule, reason, httpStatus } = me;
    throw new ProviderReadError(`Could not read from LinkedIn: ${reason}`, { outcome, rule, reason, httpStatus });
  }
  const organizations: string[] = [];
  for (let page = 0; page < MAX_ACL_PAGES; page++) {
    const query = new URLSearchParams({
      q: 'roleAssignee',
      role: 'ADMINISTRATOR',
      state: 'APPROVED',
      start: String(page * ACL_PAGE),
      count: String(ACL_PAGE),
    });
    const { body } = await api.getRest(`${api.base}/rest/organizationAcls?${query}`, call);
    const elements = Array.isArray(asRecord(body).elements) ? (asRecord(body).elements as unknown[]) : [];
    for (const element of elements) {
      const urn = asString(asRecord(element).organization);
      if (urn && ORGANIZATION_URN.test(urn) && !organizations.includes(urn)) organizations.push(urn);
    }
    if (elements.length < ACL_PAGE) break;
  }
  const pages = await Promise.all(
    organizations.map(async (urn): Promise<Identity> => {
      const id = ORGANIZATION_URN.exec(urn)![1]!;
      const { body } = await api.getRest(`${api.base}/rest/organizations/${id}`, call);
      const org = asRecord(body);
      const name = asString(org.localizedName) ?? asString(org.vanityName) ?? urn;
      return { platformUserId: urn, handle: name, displayName: asString(org.localizedName) ?? null };
    }),
  );
  return [{ platformUserId: me.id, handle: me.handle, displayName: me.displayName }, ...pages];
}
