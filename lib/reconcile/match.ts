import type { RecentPost } from '@/lib/providers';

const URL_PATTERN = /https?:\/\/\S+/gi;

/**
 * Text as compared on the platform: Unicode NFC, whitespace collapsed, case kept; links compared as
 * "a link" because platforms rewrite them (X's t.co shortening), and HTML entities unescaped.
 */
export function normaliseForMatch(text: string): string {
  return text
    .normalize('NFC')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(URL_PATTERN, '<link>')
    .replace(/\s+/g, ' ')
    .trim();
}

export type WantedPost = {
  text: string;
  kind: 'post' | 'reply' | 'dm';
  inReplyTo: string | null;
  windowStart: Date;
  windowEnd: Date;
};

/**
 * Every platform post that may be our delivery: same normalised text within the window, and for
 * replies the same parent. More than one means copies we caused (docs/architecture.md#extra-copies): never "sent".
 */
export function findMatchingPosts(candidates: RecentPost[], wanted: WantedPost): RecentPost[] {
  const text = normaliseForMatch(wanted.text);
  const parent = wanted.inReplyTo?.split('/').at(-1) ?? null; // a link or a bare id
  return candidates
    .filter(
      (c) =>
        normaliseForMatch(c.text) === text &&
        c.createdAt.getTime() >= wanted.windowStart.getTime() &&
        c.createdAt.getTime() <= wanted.windowEnd.getTime() &&
        (wanted.kind !== 'reply' || c.inReplyTo === parent),
    )
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}
