import { getDb } from '@/db/client';
import { requestAddress } from '@/lib/auth/request-address';
import { problem } from '@/lib/http/problem';
import { requestIdOf } from '@/lib/http/request-id';
import { isCrossSite } from '@/lib/http/request-origin';
import { checkIdempotencyKey } from '@/lib/idempotency/key';
import { readUpload } from '@/lib/media/read-upload';
import { getMediaStorage } from '@/lib/media/storage';
import { uploadMedia } from '@/lib/media/upload';
import { checkRequestLink } from '@/lib/requests/links';
import { uploadMediaResponse } from '@/app/api/v1/media/http';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ token: string }> };

/**
 * The request form's image upload, without a session: the link's token decides (404, 410, 429 like its page), and
 * the same use case and Idempotency-Key rules as the composer's upload store the image, owned by the link
 * (`request_link:<id>`) so only this link's requests can attach it. Over 5 MB is refused (413) before it is read.
 */
export async function POST(request: Request, context: Context): Promise<Response> {
  const { token } = await context.params;
  if (isCrossSite(request))
    return problem({ status: 403, title: 'Forbidden', detail: 'Uploads come from the request form only.' });
  const db = getDb();
  const check = await checkRequestLink(db, token, requestAddress());
  if (!check.ok) return problem({ status: check.status, title: check.title, detail: check.detail });
  const key = checkIdempotencyKey(request.headers.get('idempotency-key'));
  if (!key.ok) return problem({ status: 400, title: 'Bad Request', detail: key.detail });
  const body = await readUpload(request);
  if (!body.ok) return problem({ status: body.status, title: 'Upload refused', detail: body.detail });
  const result = await uploadMedia(
    db,
    { file: body.file, altText: body.altText },
    {
      workspaceId: check.link.workspaceId,
      idempotencyKey: `request:${check.link.id}:${key.key}`,
      actor: `request_link:${check.link.id}`,
      storage: getMediaStorage(),
      requestId: requestIdOf(request.headers),
    },
  );
  return uploadMediaResponse(result);
}
