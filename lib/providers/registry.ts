import { blueskyProvider } from './bluesky';
import { facebookProvider } from './facebook';
import type { ProviderDefinition } from './definition';
import { instagramProvider } from './instagram';
import { linkedinProvider } from './linkedin';
import { mastodonProvider } from './mastodon';
import { threadsProvider } from './threads';
import { tiktokProvider } from './tiktok';
import type { ProviderName } from './types';
import { xProvider } from './x';
import { youtubeProvider } from './youtube';

/**
 * Every network, one entry each (docs/architecture.md#add-a-network). `satisfies` makes the compiler
 * refuse a missing network (the name type comes from the database enum) or an incomplete entry.
 */
export const PROVIDERS = {
  x: xProvider,
  mastodon: mastodonProvider,
  bluesky: blueskyProvider,
  linkedin: linkedinProvider,
  threads: threadsProvider,
  instagram: instagramProvider,
  tiktok: tiktokProvider,
  facebook: facebookProvider,
  youtube: youtubeProvider,
} as const satisfies { [P in ProviderName]: ProviderDefinition & { name: P } };

export function providerDefinition(name: ProviderName): ProviderDefinition {
  return PROVIDERS[name];
}
