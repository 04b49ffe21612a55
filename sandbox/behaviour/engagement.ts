import { createHash } from 'node:crypto';
import type { Platform, SandboxPost } from '@/sandbox/store/types';

// What the sandbox's posts earn (docs/sandbox.md#engagement): every post accrues plausible engagement over time,
// deterministic by its id (the same post shows the same numbers to every reader at the same moment), on a curve that
// rises to a peak rate within hours and keeps a long tail for weeks; every account gains followers day by day. Each
// dialect serves these numbers through its network's own fields (X public_metrics, Mastodon favourites_count…), so
// the real provider clients read them.

/** Every count the sandbox keeps for a post; each dialect shows those its network gives. */
export type Engagement = {
  views: number;
  likes: number;
  reposts: number;
  replies: number;
  quotes: number;
  saves: number;
  clicks: number;
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Uniform numbers in [0, 1) drawn from a seed: the same seed, the same numbers. */
function draws(seed: string, count: number): number[] {
  const digest = createHash('sha256').update(seed).digest();
  return Array.from({ length: count }, (_, i) => digest.readUInt16BE((i * 2) % 30) / 65_536);
}

/** How far views scale per network (a Reel is seen more than a toot). */
const REACH: Record<Platform, number> = {
  x: 1,
  mastodon: 0.25,
  bluesky: 0.4,
  linkedin: 0.7,
  threads: 0.8,
  instagram: 1.6,
  tiktok: 4,
  facebook: 0.9,
  youtube: 2.5,
};

/**
 * The share of its lifetime total a post has earned `ageMs` after it went up: most of it in a burst whose rate peaks
 * some hours in (a Weibull curve), the rest over weeks (the long tail). Never decreasing, 0 at 0, below 1 for ever.
 */
export function earnedShare(ageMs: number, peakHours: number): number {
  if (ageMs <= 0) return 0;
  const burst = 1 - Math.exp(-((ageMs / (peakHours * HOUR * 1.6)) ** 1.6));
  const tail = 1 - Math.exp(-ageMs / (12 * DAY));
  return 0.82 * burst + 0.18 * tail;
}

/** A post's counts at `now`, by its id, network and age. A DM earns nothing. */
export function engagementOf(
  post: Pick<SandboxPost, 'id' | 'createdAt' | 'kind'>,
  platform: Platform,
  now: Date = new Date(),
): Engagement {
  if (post.kind === 'dm') return { views: 0, likes: 0, reposts: 0, replies: 0, quotes: 0, saves: 0, clicks: 0 };
  const [size, peak, like, repost, reply, quote, save, click] = draws(`engagement:${post.id}`, 8) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // A lifetime of roughly 300 to 30,000 views (log-uniform), scaled by the network; a reply reaches fewer.
  const lifetimeViews = 300 * 100 ** size * REACH[platform] * (post.kind === 'reply' ? 0.3 : 1);
  const share = earnedShare(now.getTime() - post.createdAt.getTime(), 2 + peak * 10);
  const count = (rate: number) => Math.floor(lifetimeViews * rate * share);
  return {
    views: count(1),
    likes: count(0.015 + like * 0.05),
    reposts: count(0.002 + repost * 0.012),
    replies: count(0.002 + reply * 0.008),
    quotes: count(0.0005 + quote * 0.003),
    saves: count(0.001 + save * 0.01),
    clicks: count(0.004 + click * 0.02),
  };
}

const GROWTH_EPOCH = Date.UTC(2025, 0, 1);

/**
 * An account's followers at `now`, by its platform id: a base of a few hundred to ten thousand, growing by a steady
 * share a day with a small weekly swing (never shrinking from one day to the next).
 */
export function followersOf(account: { platformUserId: string }, platform: Platform, now: Date = new Date()): number {
  const [base, growth] = draws(`followers:${platform}:${account.platformUserId}`, 2) as [number, number];
  const start = 200 + base * 9_800;
  const perDay = start * (0.002 + growth * 0.006);
  const days = Math.max(0, (now.getTime() - GROWTH_EPOCH) / DAY);
  // The swing's slope (perDay × 0.4 × 2π / 7 < perDay) never outruns the growth, so the count never falls.
  return Math.floor(start + perDay * days + perDay * 0.4 * Math.sin((2 * Math.PI * days) / 7));
}

/**
 * Which of a post's counts each network's API gives, under the app's metric names (docs/analytics.md#networks): what
 * its dialect serves and its provider client reads (lib/analytics/network-metrics.test.ts holds the three together).
 */
export const SERVED_METRICS: Record<Platform, readonly (keyof Engagement)[]> = {
  x: ['views', 'likes', 'reposts', 'replies', 'quotes', 'saves'],
  mastodon: ['likes', 'reposts', 'replies'],
  bluesky: ['likes', 'reposts', 'replies', 'quotes'],
  linkedin: ['views', 'likes', 'reposts', 'replies', 'clicks'],
  threads: ['views', 'likes', 'reposts', 'replies', 'quotes'],
  instagram: ['views', 'likes', 'reposts', 'replies', 'saves'],
  facebook: ['likes', 'reposts', 'replies'],
  tiktok: ['views', 'likes', 'reposts', 'replies'],
  youtube: ['views', 'likes', 'replies'],
};

/** A post's counts as its network's API gives them at `now` (the others absent). */
export function servedMetrics(
  post: Pick<SandboxPost, 'id' | 'createdAt' | 'kind'>,
  platform: Platform,
  now: Date = new Date(),
): Partial<Engagement> {
  const counts = engagementOf(post, platform, now);
  return Object.fromEntries(SERVED_METRICS[platform].map((m) => [m, counts[m]]));
}
