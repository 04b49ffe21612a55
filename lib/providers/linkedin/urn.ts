/** LinkedIn author and post URNs: an account's platformUserId is its author URN. */

export const PERSON_URN = /^urn:li:person:([A-Za-z0-9_-]+)$/;
export const ORGANIZATION_URN = /^urn:li:organization:(\d+)$/;
/** What the Posts API names a post by (a share, or a ugcPost for posts made elsewhere). */
export const POST_URN = /^urn:li:(share|ugcPost):(\d+)$/;

export type AuthorKind = 'person' | 'organization';

export function authorKind(urn: string): AuthorKind | null {
  if (PERSON_URN.test(urn)) return 'person';
  if (ORGANIZATION_URN.test(urn)) return 'organization';
  return null;
}

export const personUrn = (id: string) => `urn:li:person:${id}`;
export const organizationUrn = (id: string | number) => `urn:li:organization:${id}`;
