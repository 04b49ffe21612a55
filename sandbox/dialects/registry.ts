import type { ProviderName } from '@/lib/providers/types';
import type { SandboxDeps } from '@/sandbox/store/types';
import { handleBluesky } from './bluesky/api';
import { handleFacebook } from './facebook/api';
import { handleInstagram } from './instagram/api';
import { handleLinkedin } from './linkedin/api';
import { handleMastodon } from './mastodon/api';
import { handleThreads } from './threads/api';
import { handleTiktok } from './tiktok/api';
import { handleX } from './x/api';
import { handleYoutube } from './youtube/api';

export type Dialect = {
  /** One request under `/api/sandbox/<network>`: `path` is the rest, `root` that prefix on the caller's origin. */
  handle(request: Request, path: string, deps: SandboxDeps, root: string): Promise<Response>;
  /** Whether the dialect runs the sandbox's OAuth server (`/<network>/oauth/…`), as the network's connect needs. */
  oauth: boolean;
};

/**
 * Every network's dialect, one entry each (docs/architecture.md#add-a-network), mirroring lib/providers/registry.ts:
 * the name type is the provider enum's, so a network without a dialect does not compile.
 */
export const SANDBOX_DIALECTS: { [P in ProviderName]: Dialect } = {
  x: { handle: handleX, oauth: true },
  mastodon: { handle: handleMastodon, oauth: false },
  bluesky: { handle: handleBluesky, oauth: false },
  linkedin: { handle: handleLinkedin, oauth: true },
  threads: { handle: handleThreads, oauth: true },
  instagram: { handle: handleInstagram, oauth: true },
  tiktok: { handle: handleTiktok, oauth: true },
  facebook: { handle: handleFacebook, oauth: true },
  youtube: { handle: handleYoutube, oauth: true },
};
