import type { RecentPost } from '../providers/types';
import { normaliseForMatch, reduceMarkup, wordsOf } from './normalise';

export { normaliseForMatch } from './normalise';

export type WantedPost = {
  text: string;
  kind: 'post' | 'reply' | 'dm';
  inReplyTo: string | null;
  windowStart: Date;
  windowEnd: Date;
};

/** Words in common over words in either: at or above this, a post is too close to ours to prove absence. */
export const SIMILAR_WORDS = 0.8;
/** A platform's cut of our text (X's "…") must keep at least this many characters to count as ours truncated. */
const MIN_TRUNCATED_CHARS = 20;

export type SamePost = RecentPost & { why: 'source' | 'text' | 'reduced' };
export type SimilarPost = RecentPost & { why: string; score: number };

/**
 * The three answers of a read (docs/architecture.md#reconciliation), for the posts of one window:
 * - `same`: the platform's stored source, its text, or both reduced past their markup equal ours → our copy;
 * - `similar`: close to ours (words ≥ SIMILAR_WORDS alike, or ours cut short by the platform) → never proof of
 *   absence, an admin decides;
 * - neither: absent. Both lists oldest first; a post is in one of them at most.
 */
export function compareWithPlatform(
  candidates: RecentPost[],
  wanted: WantedPost,
): { same: SamePost[]; similar: SimilarPost[] } {
  const ours = {
    exact: normaliseForMatch(wanted.text),
    reduced: reduceMarkup(wanted.text),
    words: wordsOf(wanted.text),
  };
  const parent = wanted.inReplyTo?.split('/').at(-1) ?? null; // a link or a bare id
  const same: SamePost[] = [];
  const similar: SimilarPost[] = [];
  const inWindow = candidates
    .filter(
      (c) =>
        c.createdAt.getTime() >= wanted.windowStart.getTime() &&
        c.createdAt.getTime() <= wanted.windowEnd.getTime() &&
        // A copy of a reply answers the same parent; a copy of anything else answers nothing: a reply, however
        // alike (a thread's next part, "… part 3/3" beside our "… part 1/3"), is another post, never ours.
        (wanted.kind === 'reply' ? c.inReplyTo === parent : c.inReplyTo === null),
    )
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  for (const candidate of inWindow) {
    const why = sameBy(candidate, ours);
    if (why) {
      same.push({ ...candidate, why });
      continue;
    }
    const close = closeness(candidate, ours);
    if (close) similar.push({ ...candidate, ...close });
  }
  return { same, similar };
}

/** The posts that are certainly ours (the `same` answer): more than one means copies we caused, never "sent". */
export function findMatchingPosts(candidates: RecentPost[], wanted: WantedPost): RecentPost[] {
  return compareWithPlatform(candidates, wanted).same;
}

type Ours = { exact: string; reduced: string; words: string[] };

function sameBy(candidate: RecentPost, ours: Ours): SamePost['why'] | null {
  if (candidate.source !== undefined && normaliseForMatch(candidate.source) === ours.exact) return 'source';
  if (normaliseForMatch(candidate.text) === ours.exact) return 'text';
  if (reduceMarkup(candidate.text) === ours.reduced && ours.reduced.length > 0) return 'reduced';
  return null;
}

function closeness(candidate: RecentPost, ours: Ours): { why: string; score: number } | null {
  const texts = candidate.source !== undefined ? [candidate.source, candidate.text] : [candidate.text];
  let best: { why: string; score: number } | null = null;
  for (const text of texts) {
    const cut = truncationOf(text, ours.reduced);
    if (cut) return { why: cut, score: 1 };
    const score = wordSimilarity(wordsOf(text), ours.words);
    if (score >= SIMILAR_WORDS && (!best || score > best.score))
      best = { why: `${Math.round(score * 100)}% of the words are the same as ours once markup is removed`, score };
  }
  return best;
}

/**
 * X and others show a long text cut, ending in "…" (and maybe a link): ours, if what is left starts ours. The ellipsis
 * is required: without it, a post that merely starts like ours ("#1" beside our "#12") is not a cut of ours.
 */
function truncationOf(text: string, oursReduced: string): string | null {
  const shown = reduceMarkup(text).replace(/(?:\s*<link>)+$/, '');
  const cut = /\s*(?:…|\.\.\.)$/.exec(shown);
  if (!cut) return null;
  const kept = shown.slice(0, cut.index).trim();
  if (kept.length < MIN_TRUNCATED_CHARS || kept.length >= oursReduced.length) return null;
  return oursReduced.startsWith(kept) ? 'Our text cut short by the platform' : null;
}

/** Jaccard similarity of the two word sets. */
export function wordSimilarity(a: string[], b: string[]): number {
  const left = new Set(a);
  const right = new Set(b);
  if (left.size === 0 && right.size === 0) return 1;
  let common = 0;
  for (const word of left) if (right.has(word)) common++;
  return common / (left.size + right.size - common);
}
