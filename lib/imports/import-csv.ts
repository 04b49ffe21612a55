import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '@/db/client';
import { ensureImport } from '@/db/queries/imports';
import { fingerprint } from '@/lib/idempotency/fingerprint';
import { runIdempotentPrepared } from '@/lib/idempotency/run-idempotent';
import { settleIdempotent, type KeyRefusal } from '@/lib/idempotency/settle';
import { logger } from '@/lib/logging/logger';
import { trackImportLinks, withoutRefusedLinks, type ImportLinks } from './links';
import type { BadFile } from './parse';
import {
  IMPORT_CHUNK_POSTS,
  importPlannedPosts,
  invalidRow,
  readImportFile,
  withInvalidRows,
  type ImportContext,
  type ImportFile,
} from './run';
import { countRows, type ImportResult, type ImportRowReport } from './types';

export const IMPORT_OPERATION = 'imports.create';
const RETENTION_AFTER_SCHEDULE_MS = 7 * 24 * 60 * 60 * 1000;
/** A 5,000-row import takes seconds; the key's lease outlasts it, so a retry meanwhile is a 409, never a second run. */
const IMPORT_LEASE_MS = 5 * 60 * 1000;

export type ImportCsvResult =
  { kind: 'ok'; replayed: boolean; stored: { status: number; body: string } } | BadFile | KeyRefusal;

/**
 * POST /api/v1/imports: the whole file, exactly once per Idempotency-Key (a replay answers the stored result),
 * in chunks of posts written in the key's transaction. Every row is also keyed on its own (lib/imports/run.ts),
 * so another upload of the same file — any key, or the import page — creates nothing again.
 */
export async function importCsv(
  db: Database,
  file: ImportFile,
  context: ImportContext & { idempotencyKey: string },
): Promise<ImportCsvResult> {
  const read = await readImportFile(db, file, context);
  if (!read.ok) return read; // a bad file is refused before any work: not stored, the key stays free
  const outcome = await runIdempotentPrepared<ImportLinks>(
    db,
    {
      workspaceId: context.workspaceId,
      operation: IMPORT_OPERATION,
      key: context.idempotencyKey,
      fingerprint: fingerprint({
        sha256: createHash('sha256').update(file.bytes).digest('hex'),
        fileName: file.fileName,
      }),
    },
    {
      // Links are tracked under the held key, before the transaction: an external shortener is another server.
      prepare: async () => ({
        ok: true,
        value: await trackImportLinks(db, {
          workspaceId: context.workspaceId,
          posts: read.plan.posts,
          accounts: read.accounts,
        }),
      }),
      operation: async (tx, links) => {
        const importId = randomUUID();
        await ensureImport(tx, {
          id: importId,
          workspaceId: context.workspaceId,
          fileName: file.fileName,
          source: context.source,
          createdByUserId: context.userId ?? null,
          createdByApiKeyId: context.apiKeyId ?? null,
        });
        const reports = new Map<number, ImportRowReport>();
        const { posts } = withoutRefusedLinks(read.plan, links);
        for (let at = 0; at < posts.length; at += IMPORT_CHUNK_POSTS)
          for (const [row, report] of await importPlannedPosts(
            tx,
            posts.slice(at, at + IMPORT_CHUNK_POSTS),
            { ...context, importId },
            links.tracked,
          ))
            reports.set(row, report);
        const rows = withInvalidRows(read, reports);
        const result: ImportResult = { importId, fileName: file.fileName, counts: countRows(rows), rows };
        const latest = Math.max(Date.now(), ...posts.map((p) => p.scheduledAt.getTime()));
        return {
          store: true,
          status: 201,
          body: JSON.stringify(result),
          resourceId: importId,
          retainUntil: new Date(latest + RETENTION_AFTER_SCHEDULE_MS),
        };
      },
    },
    { leaseMs: IMPORT_LEASE_MS },
  );
  return settleIdempotent(outcome, {
    answered: ({ status, body, resourceId }, replayed): ImportCsvResult => {
      if (!replayed)
        logger.info(
          { requestId: context.requestId, importId: resourceId, workspaceId: context.workspaceId },
          'csv imported',
        );
      return { kind: 'ok', replayed, stored: { status, body } };
    },
    rejected: () => {
      throw new Error('unreachable: an import stores every result');
    },
  });
}

export type ImportChunkResult =
  | { ok: true; postsDone: number; postsTotal: number; rows: ImportRowReport[] }
  | BadFile
  | { ok: false; status: 409; title: string; detail: string };

/**
 * The import page's Import button: posts `chunk × size … ` of the file in one transaction, so the page can show
 * progress. Harmless when repeated (a double click, a retry): each row is keyed, so a chunk done twice
 * creates nothing the second time.
 */
export async function importCsvChunk(
  db: Database,
  file: ImportFile,
  context: ImportContext & { importId: string; chunk: number },
): Promise<ImportChunkResult> {
  const range = { from: context.chunk * IMPORT_CHUNK_POSTS, to: (context.chunk + 1) * IMPORT_CHUNK_POSTS };
  const read = await readImportFile(db, file, context, range);
  if (!read.ok) return read;
  const links = await trackImportLinks(db, {
    workspaceId: context.workspaceId,
    posts: read.plan.posts,
    accounts: read.accounts,
  });
  const { candidates, posts: slice } = withoutRefusedLinks(read.plan, links);
  const reports = await db.transaction(async (tx) => {
    const owned = await ensureImport(tx, {
      id: context.importId,
      workspaceId: context.workspaceId,
      fileName: file.fileName,
      source: context.source,
      createdByUserId: context.userId ?? null,
    });
    return owned ? importPlannedPosts(tx, slice, context, links.tracked) : null;
  });
  if (!reports)
    return { ok: false, status: 409, title: 'Conflict', detail: 'This import id belongs to another workspace.' };
  // This chunk's rows that its network check refused (the preview showed them too).
  for (const post of candidates.slice(range.from, range.to))
    for (const row of post.rows) if (!reports.has(row)) reports.set(row, invalidRow(read, row));
  return {
    ok: true,
    postsDone: Math.min(candidates.length, range.to),
    postsTotal: candidates.length,
    rows: [...reports.values()].sort((a, b) => a.row - b.row),
  };
}
