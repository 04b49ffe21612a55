import { getDb } from '@/db/client';
import { apiHandler } from '@/lib/api/handler';
import { keyProblem, storedResponse } from '@/lib/http/idempotent-response';
import { problem } from '@/lib/http/problem';
import { requestIdOf } from '@/lib/http/request-id';
import { checkIdempotencyKey } from '@/lib/idempotency/key';
import { importCsv } from '@/lib/imports/import-csv';
import { readImportRequest, UPLOAD_PROBLEM_TITLES as TITLES } from '@/lib/imports/read-request';

export const dynamic = 'force-dynamic';

/**
 * Import a CSV of posts (docs/publishing.md#import), exactly once per Idempotency-Key; each row is also keyed on its
 * own, so the same file again (any key) creates nothing. Invalid rows are listed with their errors and never block
 * the valid ones; a file that cannot be read as a whole is a 400/413/415/422 problem and nothing is stored.
 */
export const POST = apiHandler('posts:write', async (request, principal) => {
  const key = checkIdempotencyKey(request.headers.get('idempotency-key'));
  if (!key.ok) return problem({ status: 400, title: 'Bad Request', detail: key.detail });
  const body = await readImportRequest(request);
  if (!body.ok) return problem({ status: body.status, title: TITLES[body.status], detail: body.detail });
  const result = await importCsv(getDb(), body.file, {
    workspaceId: principal.workspaceId,
    source: 'api',
    actor: `api_key:${principal.apiKeyId}`,
    apiKeyId: principal.apiKeyId,
    requestId: requestIdOf(request.headers),
    idempotencyKey: key.key,
  });
  if ('ok' in result) return problem({ status: result.status, title: result.title, detail: result.detail });
  return result.kind === 'ok' ? storedResponse(result) : keyProblem(result);
});
