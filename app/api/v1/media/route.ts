import { getDb } from '@/db/client';
import { apiHandler } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';
import { requestIdOf } from '@/lib/http/request-id';
import { checkIdempotencyKey } from '@/lib/idempotency/key';
import { readUpload } from '@/lib/media/read-upload';
import { getMediaStorage } from '@/lib/media/storage';
import { uploadMedia } from '@/lib/media/upload';
import { uploadMediaResponse } from './http';

export const dynamic = 'force-dynamic';

/** Upload an image, exactly once per Idempotency-Key (docs/architecture.md#inbound-idempotency): key → body → the use case. */
export const POST = apiHandler('posts:write', async (request, principal) => {
  const key = checkIdempotencyKey(request.headers.get('idempotency-key'));
  if (!key.ok) return problem({ status: 400, title: 'Bad Request', detail: key.detail });
  const body = await readUpload(request);
  if (!body.ok)
    return problem({
      status: body.status,
      title: body.status === 413 ? 'Content Too Large' : body.status === 415 ? 'Unsupported Media Type' : 'Bad Request',
      detail: body.detail,
    });
  const result = await uploadMedia(
    getDb(),
    { file: body.file, altText: body.altText },
    {
      workspaceId: principal.workspaceId,
      idempotencyKey: key.key,
      actor: `api_key:${principal.apiKeyId}`,
      storage: getMediaStorage(),
      requestId: requestIdOf(request.headers),
    },
  );
  return uploadMediaResponse(result);
});
