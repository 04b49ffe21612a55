import { z } from 'zod';
import { getDb } from '@/db/client';
import { appRead } from '@/lib/http/app-read';
import { problem } from '@/lib/http/problem';
import { requestIdOf } from '@/lib/http/request-id';
import { appImportContext, badFileProblem, readAppImportRequest } from '@/lib/imports/app-request';
import { importCsvChunk } from '@/lib/imports/import-csv';

export const dynamic = 'force-dynamic';

const chunkFields = z.object({ importId: z.uuid(), chunk: z.coerce.number().int().min(0).max(100) });

/**
 * The import page's Import button: one chunk of the file's posts per request (so the page shows progress),
 * each in one transaction. Safe to repeat: every row is keyed (lib/imports/run.ts).
 */
export const POST = appRead('compose', async (context, _params, request) => {
  const body = await readAppImportRequest(request);
  if (!body.ok) return body.response;
  const fields = chunkFields.safeParse({ importId: body.fields.get('importId'), chunk: body.fields.get('chunk') });
  if (!fields.success)
    return problem({ status: 400, title: 'Bad Request', detail: 'Send `importId` (a UUID) and `chunk` (0 or more).' });
  const result = await importCsvChunk(getDb(), body.file, {
    ...appImportContext(context),
    requestId: requestIdOf(request.headers),
    ...fields.data,
  });
  return result.ok ? result : badFileProblem(result);
});
