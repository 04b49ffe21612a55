import type { ProviderName } from '@/lib/providers/types';
import type { SandboxDeps } from '@/sandbox/store/types';
import { handleBlueskyInbox } from './bluesky/inbox';
import { handleInstagramInbox } from './instagram/inbox';
import { handleMastodonInbox } from './mastodon/inbox';
import { handleThreadsInbox } from './threads/inbox';
import { handleXInbox } from './x/inbox';
import { handleYoutubeInbox } from './youtube/inbox';

/**
 * One network's inbox reads (what people said to an account: docs/sandbox.md#inbound), tried before the dialect's
 * own routes: a Response for a path it serves, null for any other.
 */
export type InboxRoutes = (request: Request, path: string, deps: SandboxDeps, root: string) => Promise<Response | null>;

/**
 * Every network, one entry each; null where the dialect's own routes serve the reads (LinkedIn's and Facebook's
 * comment listings, which first comments read too, materialise what people said themselves) or where the network's
 * API lets an account read nothing people send it (TikTok).
 */
export const SANDBOX_INBOX_ROUTES: { [P in ProviderName]: InboxRoutes | null } = {
  x: handleXInbox,
  mastodon: handleMastodonInbox,
  bluesky: handleBlueskyInbox,
  linkedin: null,
  threads: handleThreadsInbox,
  instagram: handleInstagramInbox,
  tiktok: null,
  facebook: null,
  youtube: handleYoutubeInbox,
};
