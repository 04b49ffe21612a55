import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../client';
import { importRows, imports, posts, type NewImportRow } from '../schema';

type ImportSource = 'form' | 'api';

/**
 * The import a chunk of rows belongs to: made on its first chunk (the id is the client's, so a retried chunk
 * finds it). False when the id is another workspace's import: nothing is written then.
 */
export async function ensureImport(
  db: Executor,
  params: {
    id: string;
    workspaceId: string;
    fileName: string;
    source: ImportSource;
    createdByUserId?: string | null;
    createdByApiKeyId?: string | null;
  },
): Promise<boolean> {
  await db.insert(imports).values(params).onConflictDoNothing({ target: imports.id });
  const [row] = await db
    .select({ id: imports.id })
    .from(imports)
    .where(and(eq(imports.id, params.id), eq(imports.workspaceId, params.workspaceId)));
  return Boolean(row);
}

/** Posts of this workspace holding these idempotency keys, with the import row they came from (if any). */
export async function findPostsByKeys(db: Executor, params: { workspaceId: string; keys: string[] }) {
  if (params.keys.length === 0) return [];
  return db
    .select({
      postId: posts.id,
      key: posts.idempotencyKey,
      createdAt: posts.createdAt,
      rowNumber: importRows.rowNumber,
      fileName: imports.fileName,
    })
    .from(posts)
    .leftJoin(importRows, eq(importRows.postId, posts.id))
    .leftJoin(imports, eq(imports.id, importRows.importId))
    .where(and(eq(posts.workspaceId, params.workspaceId), inArray(posts.idempotencyKey, params.keys)));
}

/** Imported rows of this workspace with these match keys (same accounts and time): edited-copy candidates. */
export async function findImportedByMatchKeys(db: Executor, params: { workspaceId: string; matchKeys: string[] }) {
  if (params.matchKeys.length === 0) return [];
  return db
    .select({
      postId: importRows.postId,
      matchKey: importRows.matchKey,
      normalisedText: importRows.normalisedText,
      rowNumber: importRows.rowNumber,
      fileName: imports.fileName,
      createdAt: posts.createdAt,
      key: posts.idempotencyKey,
    })
    .from(importRows)
    .innerJoin(imports, eq(imports.id, importRows.importId))
    .innerJoin(posts, eq(posts.id, importRows.postId))
    .where(and(eq(importRows.workspaceId, params.workspaceId), inArray(importRows.matchKey, params.matchKeys)));
}

export async function insertImportRows(db: Executor, rows: NewImportRow[]) {
  if (rows.length > 0) await db.insert(importRows).values(rows);
}
