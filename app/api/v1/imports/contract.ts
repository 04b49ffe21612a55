import {
  defineRoute,
  idempotencyKeyHeader,
  jsonResponse,
  problemResponse,
  replayedHeader,
  retryAfterHeader,
} from '@/lib/api/contract/define';
import { z } from '@/lib/api/contract/zod';

const importUploadSchema = z
  .object({
    file: z.string().openapi({
      format: 'binary',
      description:
        'The CSV (UTF-8, at most 5 MB and 5,000 rows): columns `text`, `accounts` (handles separated by `;`), `scheduled_at` (ISO 8601, or a local time with `time_zone` or the workspace’s zone), optional `key`, `thread_group` and `part`.',
    }),
  })
  .openapi('ImportUpload');

const importedRefSchema = z
  .object({
    postId: z.uuid(),
    row: z.number().int().nullable(),
    fileName: z.string().nullable(),
    importedAt: z.iso.datetime({ offset: true }),
  })
  .openapi('ImportedRef');

const importRowSchema = z
  .object({
    row: z.number().int().openapi({ description: 'The row as a spreadsheet numbers it (the header is row 1).' }),
    status: z.enum(['created', 'already_imported', 'invalid']),
    errors: z.array(z.string()).optional(),
    cells: z.record(z.string(), z.string()).optional().openapi({ description: '`invalid`: the row as uploaded.' }),
    postId: z.uuid().optional(),
    alreadyImported: importedRefSchema.optional(),
    editedCopyOf: importedRefSchema.optional().openapi({
      description:
        'A created row that looks like an edited copy of an imported one (same accounts and time, similar text). The earlier post is not changed: cancel it if the copy replaces it.',
    }),
    editedCopyUnchecked: z.literal(true).optional().openapi({
      description:
        'A created row whose accounts and time hold so many imported rows that the edited-copy check stopped before finding one alike: check it yourself (counted in `editedCopies`).',
    }),
  })
  .openapi('ImportRow');

const importResultSchema = z
  .object({
    importId: z.uuid(),
    fileName: z.string(),
    counts: z.object({
      rows: z.number().int(),
      new: z.number().int().openapi({ description: 'Rows that created a post (a thread counts each of its rows).' }),
      alreadyImported: z.number().int(),
      editedCopies: z.number().int(),
      invalid: z.number().int(),
    }),
    rows: z.array(importRowSchema),
  })
  .openapi('ImportResult');

/** /api/v1/imports — the contract of ./route.ts. */
export const importsContract = defineRoute('/imports', {
  POST: {
    operationId: 'importPosts',
    summary: 'Import posts from a CSV (idempotent)',
    description:
      'Creates one post per row (a thread per `thread_group`), exactly once per Idempotency-Key. Each row has its own key — its `key` column, else a hash of its normalised content — so uploading the same file again creates nothing, and a file with one fixed typo creates one post and flags the row it edits. Invalid rows are listed with their errors and never block the valid ones.',
    scope: 'posts:write',
    request: {
      headers: idempotencyKeyHeader,
      body: { required: true, content: { 'multipart/form-data': { schema: importUploadSchema } } },
    },
    responses: {
      201: jsonResponse('Imported, or the replay of the first answer for this key', importResultSchema, replayedHeader),
      400: problemResponse(
        'Missing or malformed Idempotency-Key, no `file` part, or a file that is not CSV (nothing stored)',
      ),
      409: problemResponse(
        'The first request with this key is still running (retry after `Retry-After` seconds)',
        undefined,
        retryAfterHeader,
      ),
      413: problemResponse('The body is larger than 5 MB (nothing stored)'),
      415: problemResponse('The body is not multipart/form-data (nothing stored)'),
      422: problemResponse(
        'No header with the required columns, more than 5,000 rows (nothing stored), or the key was already used with a different file',
      ),
    },
  },
});
