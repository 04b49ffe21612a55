import { sandboxCredentials } from './connect';
import {
  linkedinMemberUrn,
  linkedinOrganizationUrn,
  sandboxRegistrations,
  unheldToken,
} from '@/sandbox/dialects/linkedin/identity';
import { newSandboxIdentity } from '@/sandbox/oauth/tokens';
import type { Platform, SandboxAccount, SandboxStore } from '@/sandbox/store/types';

/** LinkedIn only: post as an organization page (the default, as the app connects it) or as the member. */
export type ConnectOptions = { linkedinAuthor?: 'organization' | 'person' };

/**
 * A new platform identity registered on a sandbox store the way the app does it (tests, the chaos run): for a
 * LinkedIn page, its administering member holds the token; a Bluesky account keeps a session opened with its app
 * password. `sandboxAccount` is the author's own (its posts, its faults); `credentials` are what the product seals.
 */
export async function registerSandboxIdentity(
  store: SandboxStore,
  platform: Platform,
  prefix: string,
  options: ConnectOptions = {},
) {
  const identity = newSandboxIdentity(platform);
  const { token, suffix } = identity;
  const platformUserId =
    platform !== 'linkedin'
      ? identity.platformUserId
      : options.linkedinAuthor === 'person'
        ? linkedinMemberUrn(identity.platformUserId)
        : linkedinOrganizationUrn(identity.platformUserId);
  const handle = identityHandle(platform, suffix, prefix);
  let sandboxAccount: SandboxAccount | undefined;
  for (const r of sandboxRegistrations({ provider: platform, platformUserId, handle, displayName: null })) {
    const registered = await store.registerAccount({
      platform,
      platformUserId: r.platformUserId,
      handle: r.handle,
      displayName: r.displayName,
      token: r.holdsToken ? token : unheldToken(),
    });
    if (r.platformUserId === platformUserId) sandboxAccount = registered;
  }
  const credentials = sandboxCredentials(platform, { platformUserId, handle, token });
  return { platformUserId, token, handle, credentials, sandboxAccount: sandboxAccount! };
}

/** A registered account's handle; a Bluesky one is a domain name (resolveHandle and createSession take it). */
function identityHandle(platform: Platform, suffix: string, prefix: string): string {
  return platform === 'bluesky' ? `@${prefix}-${suffix}.bsky.sandbox` : `@${prefix}_${suffix}`;
}
