import type { ProviderName } from '@/lib/providers/types';
import type { SandboxDeps } from '@/sandbox/store/types';
import { handleBlueskyInbox } from './bluesky/inbox';
import { handleFacebookInbox } from './facebook/inbox';
import { handleInstagramInbox } from './instagram/inbox';
import { handleLinkedinInbox } from './linkedin/inbox';
import { handleMastodonInbox } from './mastodon/inbox';
import { handleThreadsInbox } from './threads/inbox';
import { handleXInbox } from './x/inbox';
import { handleYoutubeInbox } from './youtube/inbox';

/**
 * One network's inbox reads (what people said to an account: docs/sandbox.md#inbound), tried before the dialect's
 * own routes: a Response for a path it serves, null for any other.
 */
export type InboxRoutes = (request: Request, path: string, deps: SandboxDeps, root: string) => Promise<Response | null>;

/** Every network, one entry each; null where the network's API lets an account read nothing people send it. */
export const SANDBOX_INBOX_ROUTES: { [P in ProviderName]: InboxRoutes | null } = {
  x: handleXInbox,
  mastodon: handleMastodonInbox,
  bluesky: handleBlueskyInbox,
  linkedin: handleLinkedinInbox,
  threads: handleThreadsInbox,
  instagram: handleInstagramInbox,
  tiktok: null,
  facebook: handleFacebookInbox,
  youtube: handleYoutubeInbox,
};
