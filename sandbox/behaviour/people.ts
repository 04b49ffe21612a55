import { createHash } from 'node:crypto';
import { didPlcFrom } from '@/sandbox/oauth/tokens';
import { unheldToken } from '@/sandbox/dialects/linkedin/identity';
import { SANDBOX_MASTODON_DOMAIN } from '@/sandbox/dialects/mastodon/json';
import type { Platform, SandboxAccount, SandboxStore } from '@/sandbox/store/types';

// The people who talk to sandbox accounts (sandbox/behaviour/inbound.ts): a fixed cast, one platform user each per
// network, with ids shaped like the network's own and derived from their name, so every store and every run knows the
// same people. They are ordinary sandbox accounts whose token nobody holds: their posts are read like anyone's.

export type Person = { key: string; name: string; username: string };

export const PEOPLE: readonly Person[] = [
  { key: 'ana', name: 'Ana Rivera', username: 'ana_rivera' },
  { key: 'ben', name: 'Ben Okafor', username: 'ben_okafor' },
  { key: 'chloe', name: 'Chloé Martin', username: 'chloe_martin' },
  { key: 'dev', name: 'Dev Patel', username: 'dev_patel' },
  { key: 'emi', name: 'Emi Tanaka', username: 'emi_tanaka' },
  { key: 'farah', name: 'Farah Haddad', username: 'farah_haddad' },
  { key: 'gus', name: 'Gus Lindqvist', username: 'gus_lindqvist' },
  { key: 'hana', name: 'Hana Kim', username: 'hana_kim' },
];

const digest = (platform: Platform, person: Person) =>
  createHash('sha256').update(`sandbox-person:${platform}:${person.key}`).digest();

/** The person's platform user id and handle on one network, as that network shapes them. */
export function personIdentity(platform: Platform, person: Person): { platformUserId: string; handle: string } {
  const bytes = digest(platform, person);
  const digits = String(100_000_000_000_000_000n + (bytes.readBigUInt64BE(0) % 800_000_000_000_000_000n));
  switch (platform) {
    case 'bluesky':
      return { platformUserId: didPlcFrom(bytes), handle: `@${person.username.replace('_', '-')}.people.bsky.sandbox` };
    case 'linkedin':
      return { platformUserId: `urn:li:person:ppl${digits.slice(0, 12)}`, handle: person.name };
    case 'youtube':
      return { platformUserId: `UC${bytes.toString('base64url').slice(0, 22)}`, handle: `@${person.username}` };
    case 'mastodon':
      return { platformUserId: digits, handle: `@${person.username}@${SANDBOX_MASTODON_DOMAIN}` };
    case 'facebook':
      return { platformUserId: digits, handle: person.name };
    default:
      return { platformUserId: digits, handle: `@${person.username}` };
  }
}

/** Whether a sandbox account is one of these people (their records are readable by anyone, as a public profile's). */
export function isPerson(account: Pick<SandboxAccount, 'platform' | 'platformUserId'>): boolean {
  return PEOPLE.some((p) => personIdentity(account.platform, p).platformUserId === account.platformUserId);
}

/** The person's sandbox account on a network, registered on first use (no token anyone holds). */
export async function personAccount(store: SandboxStore, platform: Platform, person: Person): Promise<SandboxAccount> {
  const { platformUserId, handle } = personIdentity(platform, person);
  const known = await store.getAccount(platform, platformUserId);
  if (known) return known;
  return store.registerAccount({
    platform,
    platformUserId,
    handle,
    displayName: person.name,
    token: unheldToken(),
  });
}
