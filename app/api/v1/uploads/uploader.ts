import { apiHandler } from '@/lib/api/handler';
import { appRead } from '@/lib/http/app-read';
import { problem } from '@/lib/http/problem';
import { isCrossSite } from '@/lib/http/request-origin';

/** Who sends a tus request, checked on the server for every request: the workspace it writes in and its actor. */
export type Uploader = { workspaceId: string; actor: string };
type Params = { id?: string };
type Handler = (request: Request, uploader: Uploader, id: string) => Promise<Response>;

/**
 * A tus method for both callers: an API key with posts:write (the media write scope, as POST /api/v1/media), or the
 * signed-in member's session with the compose capability, from this app's own pages only (the composer's
 * tus-js-client). `id` is the upload's (`/api/v1/uploads/<id>`), empty for the creation.
 */
export function uploadsMethod(handler: Handler) {
  // A route without dynamic segments (the creation) gets no params at all from Next.
  const run = (request: Request, uploader: Uploader, params: Params | undefined) =>
    handler(request, uploader, params?.id ?? '');
  const byKey = apiHandler<Params>('posts:write', (request, principal, params) =>
    run(request, { workspaceId: principal.workspaceId, actor: `api_key:${principal.apiKeyId}` }, params),
  );
  const bySession = appRead<Params>('compose', async ({ workspace, user }, params, request) =>
    isCrossSite(request)
      ? problem({ status: 403, title: 'Forbidden', detail: 'Uploads come from this app’s own pages only.' })
      : run(request, { workspaceId: workspace.id, actor: `user:${user.id}` }, params),
  );
  return (request: Request, context: { params: Promise<Params> }) =>
    request.headers.has('authorization') ? byKey(request, context) : bySession(request, context);
}
