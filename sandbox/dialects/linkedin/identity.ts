import { randomBytes } from 'node:crypto';
import type { Platform } from '@/sandbox/store/types';

// LinkedIn identities on the sandbox. As on LinkedIn, a token belongs to a member (urn:li:person:…), who posts
// as themself or as an organization page they administer. Sandbox rule: member `sbx<digits>` administers the
// page with the same digits. Each author is its own sandbox account (its posts, its faults); a page's row
// holds no usable token, so only its administrator's token acts for it.

const MEMBER = /^urn:li:person:sbx(\d+)$/;
const ORGANIZATION = /^urn:li:organization:(\d+)$/;

export const linkedinMemberUrn = (digits: string) => `urn:li:person:sbx${digits}`;
export const linkedinOrganizationUrn = (digits: string) => `urn:li:organization:${digits}`;

/** The page a sandbox member administers, or null. */
export function administeredOrganization(memberUrn: string): string | null {
  const digits = MEMBER.exec(memberUrn)?.[1];
  return digits ? linkedinOrganizationUrn(digits) : null;
}

/** The member who administers a sandbox page, or null when the URN is not a page. */
export function administratorOf(organizationUrn: string): string | null {
  const digits = ORGANIZATION.exec(organizationUrn)?.[1];
  return digits ? linkedinMemberUrn(digits) : null;
}

/** Whether a member's token may publish (and read, delete) as this author. */
export function actsAs(memberUrn: string, authorUrn: string): boolean {
  return authorUrn === memberUrn || authorUrn === administeredOrganization(memberUrn);
}

export type SandboxRegistration = {
  platformUserId: string;
  handle: string;
  displayName: string | null;
  /** The account's token authenticates as this one; the others get a token nobody holds. */
  holdsToken: boolean;
};

/** The sandbox accounts behind one product account: itself, and for a LinkedIn page, first its administrator. */
export function sandboxRegistrations(account: {
  provider: Platform;
  platformUserId: string;
  handle: string;
  displayName: string | null;
}): SandboxRegistration[] {
  const own = { platformUserId: account.platformUserId, handle: account.handle, displayName: account.displayName };
  const admin = account.provider === 'linkedin' ? administratorOf(account.platformUserId) : null;
  if (!admin) return [{ ...own, holdsToken: true }];
  const suffix = admin.slice(-4);
  return [
    {
      platformUserId: admin,
      handle: `Sandbox Admin ${suffix}`,
      displayName: `Sandbox Admin ${suffix}`,
      holdsToken: true,
    },
    { ...own, holdsToken: false },
  ];
}

/** A token nobody is given: the hash stored for an account that must not authenticate on its own. */
export function unheldToken(): string {
  return `sbx_unheld_${randomBytes(24).toString('base64url')}`;
}
