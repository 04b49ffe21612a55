import type { ProviderName } from '@/db/schema';
import type { ResolvedAccount } from './definition';
import type { InboxReader } from './inbox-types';
import { resolvedAccountFor, type providerClientForAccount } from './index';
import type { ProviderTransport } from './transport';
import { createBlueskyInboxReader } from './bluesky/inbox';
import { createFacebookInboxReader } from './facebook/inbox';
import { createInstagramInboxReader } from './instagram/inbox';
import { createLinkedinInboxReader } from './linkedin/inbox';
import { createMastodonInboxReader } from './mastodon/inbox';
import { createThreadsInboxReader } from './threads/inbox';
import { createXInboxReader } from './x/inbox';
import { createYoutubeInboxReader } from './youtube/inbox';

export type * from './inbox-types';

/**
 * How each network's inbox is read (docs/inbox.md#networks), one entry each like the provider registry: the streams
 * it has (their names key the cursors) and the reader, or why the network's API lets an account read nothing people
 * send it.
 */
export type InboxEntry =
  | { streams: readonly string[]; create: (account: ResolvedAccount, send?: ProviderTransport) => InboxReader }
  | { streams: readonly []; unreadable: string };

export const INBOX_READERS = {
  x: { streams: ['mentions', 'dms', 'answers'], create: createXInboxReader },
  mastodon: { streams: ['notifications', 'answers'], create: createMastodonInboxReader },
  bluesky: { streams: ['notifications', 'answers'], create: createBlueskyInboxReader },
  linkedin: { streams: ['comments'], create: createLinkedinInboxReader },
  threads: { streams: ['mentions', 'replies', 'answers'], create: createThreadsInboxReader },
  instagram: { streams: ['comments'], create: createInstagramInboxReader },
  tiktok: {
    streams: [],
    unreadable:
      'TikTok’s Content Posting and Display APIs give an app no comments or messages; only its Research API reads comments, for approved researchers.',
  },
  facebook: { streams: ['comments'], create: createFacebookInboxReader },
  youtube: { streams: ['comments'], create: createYoutubeInboxReader },
} as const satisfies { [P in ProviderName]: InboxEntry };

/** The streams a network's inbox has (none: it cannot be read). */
export function inboxStreams(provider: ProviderName): readonly string[] {
  return INBOX_READERS[provider].streams;
}

/** A stored account's inbox reader: its sealed credentials opened, its base URL and outbound guard resolved. */
export function inboxReaderForAccount(
  account: Parameters<typeof providerClientForAccount>[0],
  options: { encryptionKey: string; origin?: string; transport?: ProviderTransport },
): InboxReader | null {
  const entry: InboxEntry = INBOX_READERS[account.provider];
  if (!('create' in entry)) return null;
  return entry.create(resolvedAccountFor(account, options), options.transport);
}
