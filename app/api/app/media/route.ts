import { getDb } from '@/db/client';
import { appRead } from '@/lib/http/app-read';
import { problem } from '@/lib/http/problem';
import { requestIdOf } from '@/lib/http/request-id';
import { isCrossSite } from '@/lib/http/request-origin';
import { checkIdempotencyKey } from '@/lib/idempotency/key';
import { readUpload } from '@/lib/media/read-upload';
import { getMediaStorage } from '@/lib/media/storage';
import { uploadMedia } from '@/lib/media/upload';
import { uploadMediaResponse } from '@/app/api/v1/media/http';

export const dynamic = 'force-dynamic';

/**
 * The composer's image upload (XMLHttpRequest, for its progress): the same use case and Idempotency-Key rules as
 * POST /api/v1/media, for the signed-in member's active workspace (compose capability). A cross-site page cannot
 * send it: the session cookie is SameSite=Lax and the Origin must be this app's.
 */
export const POST = appRead('compose', async ({ workspace, user }, _params, request) => {
  if (isCrossSite(request))
    return problem({ status: 403, title: 'Forbidden', detail: 'Uploads come from this app’s own pages only.' });
  const key = checkIdempotencyKey(request.headers.get('idempotency-key'));
  if (!key.ok) return problem({ status: 400, title: 'Bad Request', detail: key.detail });
  const body = await readUpload(request);
  if (!body.ok) return problem({ status: body.status, title: 'Upload refused', detail: body.detail });
  const result = await uploadMedia(
    getDb(),
    { file: body.file, altText: body.altText },
    {
      workspaceId: workspace.id,
      idempotencyKey: key.key,
      actor: `user:${user.id}`,
      storage: getMediaStorage(),
      requestId: requestIdOf(request.headers),
    },
  );
  return uploadMediaResponse(result);
});
