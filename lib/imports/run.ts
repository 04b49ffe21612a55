import { randomUUID } from 'node:crypto';
import type { Database, Executor, Transaction } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { insertImportedPosts, insertImportRows } from '@/db/queries/imports';
import { listTemplates } from '@/db/queries/library';
import { notifyDue } from '@/db/queries/publishing';
import { getWorkspaceSettings } from '@/db/queries/workspaces';
import { findAlreadyImported, findEditedCopies, type EditedCopies } from './classify';
import { parseImportCsv, type BadFile, type CsvRow } from './parse';
import { planImport, type ImportPlan, type PlannedPost } from './plan';
import { countRows, type ImportPreview, type ImportRowReport } from './types';

/** Posts written per transaction: a 5,000-row file is a few transactions (docs/publishing.md#import). */
export const IMPORT_CHUNK_POSTS = 500;
const NOTIFY_HORIZON_MS = 25_000; // as lib/posts/create.ts: wake the schedulers for a post due within their sleep

export type ImportFile = { bytes: Uint8Array; fileName: string };

export type ImportContext = {
  workspaceId: string;
  source: 'form' | 'api';
  actor: string;
  userId?: string;
  apiKeyId?: string;
  requestId?: string;
  now?: Date;
};

export type ReadFile = { ok: true; rows: CsvRow[]; plan: ImportPlan; ignoredColumns: string[] } | BadFile;

/** Parse and check a file against the workspace's accounts and time zone (no writes). */
export async function readImportFile(
  db: Executor,
  file: ImportFile,
  context: ImportContext,
  range?: { from: number; to: number },
): Promise<ReadFile> {
  const parsed = await parseImportCsv(file.bytes);
  if (!parsed.ok) return parsed;
  const [accounts, settings, templates] = await Promise.all([
    listAccounts(db, { workspaceId: context.workspaceId }),
    getWorkspaceSettings(db, { workspaceId: context.workspaceId }),
    listTemplates(db, { workspaceId: context.workspaceId }),
  ]);
  const plan = await planImport(
    parsed.rows,
    {
      accounts,
      workspaceTimeZone: settings?.timeZone ?? 'UTC',
      now: context.now ?? new Date(),
      templates: new Map(templates.map((t) => [t.name.toLowerCase(), t])),
    },
    range,
  );
  return { ok: true, rows: parsed.rows, plan, ignoredColumns: parsed.ignoredColumns };
}

/** The preview: per row new / already imported / looks like an edited copy / its errors. Writes nothing. */
export async function previewImport(
  db: Database,
  file: ImportFile,
  context: ImportContext,
): Promise<{ ok: true; preview: ImportPreview } | BadFile> {
  const read = await readImportFile(db, file, context);
  if (!read.ok) return read;
  const { posts } = read.plan;
  const [already, copies] = await Promise.all([
    findAlreadyImported(db, context.workspaceId, posts),
    findEditedCopies(db, context.workspaceId, posts),
  ]);
  const reports = new Map<number, ImportRowReport>();
  for (const post of posts) {
    const existing = already.get(post.postKey);
    for (const row of post.rows)
      reports.set(
        row,
        existing
          ? { row, status: 'already_imported', postId: existing.postId, alreadyImported: existing }
          : { row, status: 'new', ...editedCopyFields(copies, post) },
      );
  }
  const rows = withInvalidRows(read, reports);
  return {
    ok: true,
    preview: {
      fileName: file.fileName,
      counts: countRows(rows),
      posts: posts.filter((p) => !already.has(p.postKey)).length,
      rows,
      ignoredColumns: read.ignoredColumns,
    },
  };
}

/** A new row's edited-copy flag: the row it resembles, or that the check did not finish (lib/imports/classify.ts). */
function editedCopyFields(
  found: EditedCopies,
  post: PlannedPost,
): Pick<ImportRowReport, 'editedCopyOf' | 'editedCopyUnchecked'> {
  const of = found.copies.get(post.postKey);
  if (of) return { editedCopyOf: of };
  return found.unchecked.has(post.postKey) ? { editedCopyUnchecked: true } : {};
}

/** Every row's report in file order: the planned ones given, the invalid ones with their errors and cells. */
export function withInvalidRows(read: Extract<ReadFile, { ok: true }>, reports: Map<number, ImportRowReport>) {
  return read.rows.map((r) => reports.get(r.row) ?? invalidRow(read, r.row, r.cells));
}

export function invalidRow(
  read: Extract<ReadFile, { ok: true }>,
  row: number,
  cells = read.rows.find((r) => r.row === row)?.cells,
): ImportRowReport {
  return {
    row,
    status: 'invalid',
    errors: read.plan.errors.get(row) ?? ['Not imported'],
    ...(cells ? { cells: { ...cells } } : {}),
  };
}

/**
 * Writes planned posts in the caller's transaction, each exactly once: its key `import:<sha256(row key)>` is
 * the post's idempotency key, and `posts_workspace_idempotency_key_uq` lets one insert win even when two
 * imports of one file race (the loser waits for the winner's commit and writes nothing). Keys are taken in
 * sorted order, so two imports never wait on each other in a cycle. Returns a report per row of these posts.
 */
export async function importPlannedPosts(
  tx: Transaction,
  planned: readonly PlannedPost[],
  context: ImportContext & { importId: string },
): Promise<Map<number, ImportRowReport>> {
  const now = context.now ?? new Date();
  const copies = await findEditedCopies(tx, context.workspaceId, planned);
  const sorted = [...planned].sort((a, b) => (a.postKey < b.postKey ? -1 : 1));
  const ids = new Map(sorted.map((p) => [p.postKey, randomUUID()]));
  const written = await insertImportedPosts(tx, {
    workspaceId: context.workspaceId,
    posts: sorted.map((post) => ({
      id: ids.get(post.postKey)!,
      workspaceId: context.workspaceId,
      kind: post.kind,
      text: post.texts[0]!, // a thread's first part, as lib/posts/create.ts stores it
      firstComment: post.firstComment ?? null,
      firstCommentAccounts: [...(post.firstCommentAccounts ?? [])],
      scheduledAt: post.scheduledAt,
      source: context.source,
      idempotencyKey: post.postKey,
      createdByUserId: context.userId ?? null,
      createdByApiKeyId: context.apiKeyId ?? null,
      accountIds: post.accountIds,
      parts: post.kind === 'thread' ? post.texts : [],
    })),
    actor: context.actor,
    requestId: context.requestId,
  });
  // A key already taken (imported before, or by an import that committed first) wrote nothing.
  const created = new Map(
    sorted.filter((p) => written.has(ids.get(p.postKey)!)).map((p) => [p.postKey, ids.get(p.postKey)!]),
  );
  const importRows = sorted
    .filter((p) => created.has(p.postKey))
    .map((post) => ({
      postId: created.get(post.postKey)!,
      workspaceId: context.workspaceId,
      importId: context.importId,
      rowNumber: post.rows[0]!,
      matchKey: post.matchKey,
      normalisedText: post.normalisedText,
    }));
  const dueSoon = sorted.some(
    (p) => created.has(p.postKey) && p.scheduledAt.getTime() - now.getTime() < NOTIFY_HORIZON_MS,
  );
  await insertImportRows(tx, importRows);
  if (dueSoon) await notifyDue(tx);
  const already = await findAlreadyImported(
    tx,
    context.workspaceId,
    planned.filter((p) => !created.has(p.postKey)),
  );
  const reports = new Map<number, ImportRowReport>();
  for (const post of planned) {
    const postId = created.get(post.postKey);
    const existing = already.get(post.postKey);
    for (const row of post.rows)
      reports.set(
        row,
        postId
          ? {
              row,
              status: 'created',
              postId,
              ...editedCopyFields(copies, post),
            }
          : { row, status: 'already_imported', postId: existing?.postId, alreadyImported: existing },
      );
  }
  return reports;
}
