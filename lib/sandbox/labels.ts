import type { FaultSettings, Profile } from '@/sandbox/store/types';

export { PROFILES } from '@/sandbox/store/types';
export type { FaultSettings, Profile };

// Imported by client components (components/sandbox/*): keep this file free of server imports (faults.ts
// pulls in node:crypto through threads-errors.ts). The Sandbox page reads the sandbox's lists through this file.

/** The probability knobs, as the Sandbox page labels them. */
export const FAULT_LABELS = {
  rateLimited: 'Rate limited (429, nothing stored)',
  timeoutBeforeCommit: 'Timeout before commit (nothing stored)',
  timeoutAfterCommit: 'Timeout after commit (stored, no answer)',
  errorAfterCommit: '502 after commit (stored)',
  resetAfterCommit: 'Connection reset after commit (stored)',
  listingUnavailable: 'Listing unavailable (503 on reads)',
} as const satisfies Partial<Record<keyof FaultSettings, string>>;

/** The profiles, as the Sandbox page names them. */
export const PROFILE_LABELS: Record<Profile, string> = {
  'mastodon-modern': 'Mastodon 4.x (Idempotency-Key under a lock)',
  'mastodon-legacy': 'Hollo-like (key without a lock; a changed body replays; a deleted status’s key posts again)',
  'mastodon-nokey': 'Mastodon-API server ignoring Idempotency-Key',
  'mastodon-markdown': 'Markdown server like Hollo/Akkoma (renders Markdown to HTML; ignores Idempotency-Key)',
  x: 'X (refuses duplicate text)',
  'x-nodedupe': 'X without duplicate refusal',
  'x-premium': 'X Premium (up to 25,000 characters; over 280 reads back truncated, the whole text in note_tweet)',
  linkedin: 'LinkedIn (refuses duplicate text, naming the first post)',
  threads: 'Threads (a container publishes once; 250 posts per 24 h)',
  instagram: 'Instagram (a container publishes once; 100 posts per 24 h; media fetched by URL)',
  tiktok: 'TikTok (no idempotency: every init is a post; processing after the answer; public videos listed only)',
  'tiktok-unaudited': 'TikTok, unaudited app (only private SELF_ONLY posts)',
  facebook:
    'Facebook Page (no idempotency, no dedupe: every feed post is a post; photos attached by id; videos uploaded in sessions, bytes checked, processed after the finish)',
  youtube:
    'YouTube (no idempotency: every session start is a session, every complete session a video; 10,000 quota units a day)',
  'tiktok-private': 'TikTok, a private account (no public posts; Duet and Stitch off)',
  bluesky: 'Bluesky PDS (one record per key, no text dedupe)',
  plain: 'Plain (no key, no dedupe)',
};
