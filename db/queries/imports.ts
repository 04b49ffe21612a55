import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { addDeliveriesForPosts } from './deliveries';
import { rows as resultRows } from './deliveries/rows';
import { jsonb } from './sql-params';
import { importRows, imports, postParts, posts, type NewImportRow, type NewPost } from '../schema';

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

export type EditedCopyCandidate = {
  postId: string;
  matchKey: string;
  normalisedText: string;
  rowNumber: number;
  fileName: string | null;
  createdAt: Date;
  key: string | null;
};

/**
 * Imported rows of this workspace with these match keys (same accounts and time): edited-copy candidates, at
 * most `perMatchKey` of each, the newest first — so a time holding thousands of rows sends a bounded batch.
 */
export async function findImportedByMatchKeys(
  db: Executor,
  params: { workspaceId: string; matchKeys: string[]; perMatchKey: number },
): Promise<EditedCopyCandidate[]> {
  if (params.matchKeys.length === 0) return [];
  const found = resultRows<Omit<EditedCopyCandidate, 'createdAt'> & { createdAt: string }>(
    await db.execute(sql`
      select c.*
      from jsonb_array_elements_text(${jsonb(params.matchKeys)}) as m(match_key)
      cross join lateral (
        select ir.post_id as "postId", ir.match_key as "matchKey", ir.normalised_text as "normalisedText",
               ir.row_number as "rowNumber", i.file_name as "fileName", p.idempotency_key as key,
               to_json(p.created_at)#>>'{}' as "createdAt"
        from import_rows ir
        join imports i on i.id = ir.import_id
        join posts p on p.id = ir.post_id
        where ir.workspace_id = ${params.workspaceId} and ir.match_key = m.match_key
        order by p.created_at desc, ir.post_id
        limit ${params.perMatchKey}
      ) c
    `),
  );
  return found.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }));
}

/** In batches, as insertImportedPosts (below): a smaller statement keeps the event loop free while it is built. */
export async function insertImportRows(db: Executor, rows: NewImportRow[]) {
  for (let at = 0; at < rows.length; at += 100) await db.insert(importRows).values(rows.slice(at, at + 100));
}

/** A planned post's row in `posts` (without the accounts and parts that go to other tables). */
function postColumns(post: ImportedPost): NewPost {
  const { accountIds, parts, firstCommentAccounts, ...row } = post;
  void accountIds;
  void parts;
  void firstCommentAccounts;
  return row;
}

/**
 * Posts per batch (a few statements): drizzle and postgres.js build each statement synchronously, and 500
 * posts in one took the event loop for hundreds of milliseconds on a busy machine (docs/publishing.md#import).
 */
const POSTS_PER_BATCH = 100;

type ImportedPost = NewPost & {
  id: string;
  idempotencyKey: string;
  accountIds: string[];
  parts: string[];
  /** The accounts (lower-case ids) that publish the post's first comment (its part 1). */
  firstCommentAccounts: string[];
};

/**
 * New posts with their thread parts and deliveries (and each delivery's `created` history row), as
 * insertPostWithDeliveries writes one, in batches of a few statements. A post whose idempotency key the
 * workspace already holds is skipped (`posts_workspace_idempotency_key_uq`): returns the ids of the posts
 * written. The caller passes them sorted by key, so two imports wait on each other's keys in one order (no
 * deadlock).
 */
export async function insertImportedPosts(
  db: Executor,
  params: { workspaceId: string; posts: ImportedPost[]; actor: string; requestId?: string },
): Promise<Set<string>> {
  const created = new Set<string>();
  for (let at = 0; at < params.posts.length; at += POSTS_PER_BATCH)
    for (const id of await insertPostBatch(db, { ...params, posts: params.posts.slice(at, at + POSTS_PER_BATCH) }))
      created.add(id);
  return created;
}

async function insertPostBatch(
  db: Executor,
  params: { workspaceId: string; posts: ImportedPost[]; actor: string; requestId?: string },
): Promise<Set<string>> {
  const rows = await db
    .insert(posts)
    .values(params.posts.map(postColumns))
    .onConflictDoNothing({ target: [posts.workspaceId, posts.idempotencyKey] })
    .returning({ id: posts.id });
  const created = new Set(rows.map((row) => row.id));
  const written = params.posts.filter((p) => created.has(p.id));
  const parts = written.flatMap((p) => p.parts.map((text, position) => ({ postId: p.id, position, text })));
  if (parts.length > 0) await db.insert(postParts).values(parts);
  await addDeliveriesForPosts(db, {
    workspaceId: params.workspaceId,
    posts: written.map((p) => ({
      postId: p.id,
      accountIds: p.accountIds,
      parts: p.parts.length > 0 ? p.parts.map((_, i) => i) : [0],
      partsByAccount: new Map(p.firstCommentAccounts.map((id) => [id, [0, 1]])),
      dueAt: p.scheduledAt as Date,
      detail: {
        source: p.source,
        idempotencyKey: p.idempotencyKey,
        ...(params.requestId ? { requestId: params.requestId } : {}),
      },
    })),
    actor: params.actor,
    reason: 'created',
  });
  return created;
}
