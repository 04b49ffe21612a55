import { getDb } from '@/db/client';
import { appRead } from '@/lib/http/app-read';
import { appImportContext, badFileProblem, readAppImportRequest } from '@/lib/imports/app-request';
import { previewImport } from '@/lib/imports/run';

export const dynamic = 'force-dynamic';

/** The import page's preview: per row new / already imported / looks like an edited copy / errors. Writes nothing. */
export const POST = appRead('compose', async (context, _params, request) => {
  const body = await readAppImportRequest(request);
  if (!body.ok) return body.response;
  const result = await previewImport(getDb(), body.file, appImportContext(context));
  return result.ok ? result.preview : badFileProblem(result);
});
