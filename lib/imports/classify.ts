import type { Executor } from '@/db/client';
import { findImportedByMatchKeys, findPostsByKeys, type EditedCopyCandidate } from '@/db/queries/imports';
import type { PlannedPost } from './plan';
import { eventLoopSlices } from './slices';
import { codePoints, similarityAtLeast, trigramOverlap, trigramProfile } from './similarity';
import type { ImportedRef } from './types';

/**
 * "Looks like an edited copy": a row with a new key whose accounts and time are those of an imported row and
 * whose text is at least this alike (1 − edit distance / length). Flagged in the preview and the result; the
 * earlier post is never changed or deleted.
 */
export const EDITED_COPY_SIMILARITY = 0.6;

const ref = (r: {
  postId: string;
  rowNumber: number | null;
  fileName: string | null;
  createdAt: Date;
}): ImportedRef => ({
  postId: r.postId,
  row: r.rowNumber,
  fileName: r.fileName,
  importedAt: r.createdAt.toISOString(),
});

/** The posts already holding these planned posts' keys (imported before, or by a racing import). */
export async function findAlreadyImported(
  db: Executor,
  workspaceId: string,
  planned: readonly PlannedPost[],
): Promise<Map<string, ImportedRef>> {
  const rows = await findPostsByKeys(db, { workspaceId, keys: planned.map((p) => p.postKey) });
  return new Map(rows.map((r) => [r.key!, ref(r)]));
}

/** Earlier rows of one accounts-and-time read per call: the newest (db/queries/imports.ts). */
export const EDITED_COPY_SCAN = 200;
/** Of those, the most alike by trigrams are compared exactly: at most this many per row. */
export const EDITED_COPY_CANDIDATES = 20;
/** CPU time (not wall time: a busy machine must not cut the check short) for a chunk of 500 posts' comparisons. */
export const EDITED_COPY_BUDGET_MS = 2000;

export type EditedCopies = {
  /** By post key: the imported row it most resembles, when it passes the rule above. */
  copies: Map<string, ImportedRef>;
  /**
   * Post keys whose check did not finish (earlier rows left uncompared by the caps or the time budget, none of
   * the compared ones alike): flagged "possible edited copy — check", because calling them plain new would
   * hide exactly the copy the check exists to show; the row is still imported as any new row.
   */
  unchecked: Set<string>;
  /** Exact comparisons made: at most EDITED_COPY_CANDIDATES per post. */
  comparisons: number;
};

/**
 * For each planned post with a new key, the edited-copy rule, at a bounded cost: at most EDITED_COPY_SCAN
 * earlier rows per accounts-and-time, ranked by trigram overlap, the best EDITED_COPY_CANDIDATES compared by a
 * banded edit distance, within a time budget, in slices between which the event loop runs (./slices.ts).
 */
export async function findEditedCopies(
  db: Executor,
  workspaceId: string,
  planned: readonly PlannedPost[],
  options: { budgetMs?: number } = {},
): Promise<EditedCopies> {
  const result: EditedCopies = { copies: new Map(), unchecked: new Set(), comparisons: 0 };
  const found = await findImportedByMatchKeys(db, {
    workspaceId,
    matchKeys: [...new Set(planned.map((p) => p.matchKey))],
    perMatchKey: EDITED_COPY_SCAN + 1, // one more than scanned: tells a time holding more rows than looked at
  });
  type Entry = { candidate: EditedCopyCandidate; points: Int32Array; profile?: Int32Array };
  const byMatch = new Map<string, Entry[]>();
  for (const candidate of found) {
    const group = byMatch.get(candidate.matchKey) ?? [];
    group.push({ candidate, points: codePoints(candidate.normalisedText) });
    byMatch.set(candidate.matchKey, group);
  }
  const truncated = new Set<string>();
  for (const [matchKey, group] of byMatch)
    if (group.length > EDITED_COPY_SCAN) {
      truncated.add(matchKey);
      group.length = EDITED_COPY_SCAN;
    }

  const budget = options.budgetMs ?? EDITED_COPY_BUDGET_MS * Math.max(1, Math.ceil(planned.length / 500));
  const slices = eventLoopSlices();
  for (const post of planned) {
    const group = (byMatch.get(post.matchKey) ?? []).filter((c) => c.candidate.key !== post.postKey);
    if (group.length === 0) continue;
    if (slices.cpuSpent() >= budget) {
      result.unchecked.add(post.postKey);
      continue;
    }
    const points = codePoints(post.normalisedText);
    let compared = group;
    if (group.length > EDITED_COPY_CANDIDATES) {
      const profile = trigramProfile(points);
      compared = group
        .map((c) => ({ c, score: trigramOverlap(profile, (c.profile ??= trigramProfile(c.points))) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, EDITED_COPY_CANDIDATES)
        .map(({ c }) => c);
    }
    let best: { score: number; candidate: EditedCopyCandidate } | null = null;
    for (const { candidate, points: theirs } of compared) {
      result.comparisons++;
      const score = similarityAtLeast(points, theirs, EDITED_COPY_SIMILARITY);
      if (score !== null && (!best || score > best.score)) best = { score, candidate };
    }
    if (best) result.copies.set(post.postKey, ref(best.candidate));
    else if (compared.length < group.length || truncated.has(post.matchKey)) result.unchecked.add(post.postKey);
    await slices.pause();
  }
  return result;
}
