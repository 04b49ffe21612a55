import { blueskyMeta } from './bluesky/meta';
import type { ProviderMeta } from './definition';
import { facebookMeta } from './facebook/meta';
import { instagramMeta } from './instagram/meta';
import { linkedinMeta } from './linkedin/meta';
import { mastodonMeta } from './mastodon/meta';
import { threadsMeta } from './threads/meta';
import { tiktokMeta } from './tiktok/meta';
import type { ProviderName } from './types';
import { xMeta } from './x/meta';
import { youtubeMeta } from './youtube/meta';

/**
 * What the browser may know of each network (labels, limits, connect fields). The server-side registry
 * (lib/providers/registry.ts) extends each entry; a network missing here fails to compile.
 */
export const PROVIDER_META: { [P in ProviderName]: ProviderMeta & { name: P } } = {
  x: xMeta,
  mastodon: mastodonMeta,
  bluesky: blueskyMeta,
  linkedin: linkedinMeta,
  threads: threadsMeta,
  instagram: instagramMeta,
  tiktok: tiktokMeta,
  facebook: facebookMeta,
  youtube: youtubeMeta,
};

/** Who this app is to each sandbox dialect's OAuth server (sandbox/oauth/): its one client, public (PKCE, no secret). */
export const SANDBOX_OAUTH_CLIENT_ID = 'semel-sandbox';

export const PROVIDER_NAMES = Object.keys(PROVIDER_META) as ProviderName[];

/** How each provider is named to people. */
export const PROVIDER_LABEL = Object.fromEntries(PROVIDER_NAMES.map((p) => [p, PROVIDER_META[p].label])) as Record<
  ProviderName,
  string
>;
