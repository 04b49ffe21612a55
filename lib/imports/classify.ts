import type { Executor } from '@/db/client';
import { findImportedByMatchKeys, findPostsByKeys } from '@/db/queries/imports';
import { textSimilarity, type PlannedPost } from './plan';
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

/** For each planned post with a new key: the imported row it most resembles, when it passes the rule above. */
export async function findEditedCopies(
  db: Executor,
  workspaceId: string,
  planned: readonly PlannedPost[],
): Promise<Map<string, ImportedRef>> {
  const candidates = await findImportedByMatchKeys(db, {
    workspaceId,
    matchKeys: [...new Set(planned.map((p) => p.matchKey))],
  });
  const byMatch = new Map<string, typeof candidates>();
  for (const c of candidates) byMatch.set(c.matchKey, [...(byMatch.get(c.matchKey) ?? []), c]);
  const copies = new Map<string, ImportedRef>();
  for (const post of planned) {
    let best: { score: number; candidate: (typeof candidates)[number] } | null = null;
    for (const candidate of byMatch.get(post.matchKey) ?? []) {
      if (candidate.key === post.postKey) continue;
      const score = textSimilarity(post.normalisedText, candidate.normalisedText);
      if (score >= EDITED_COPY_SIMILARITY && (!best || score > best.score)) best = { score, candidate };
    }
    if (best) copies.set(post.postKey, ref(best.candidate));
  }
  return copies;
}
