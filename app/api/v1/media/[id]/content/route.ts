import { getDb } from '@/db/client';
import { getWorkspaceMedia } from '@/db/queries/media';
import { apiHandler } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';
import { serveStored } from '@/lib/media/serve';
import { getMediaStorage } from '@/lib/media/storage';

export const dynamic = 'force-dynamic';

const notFound = () => problem({ status: 404, title: 'Not Found', detail: 'No such media in this workspace.' });

/** A media file's bytes for the API key's workspace (the `url` of a post's or an upload's media; Range: 206); another's is a 404. */
export const GET = apiHandler<{ id: string }>('posts:read', async (request, principal, { id }) => {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return notFound();
  const [row] = await getWorkspaceMedia(getDb(), { workspaceId: principal.workspaceId, ids: [id] });
  const served =
    row &&
    (await serveStored(request, getMediaStorage(), row.sha256, {
      type: row.type,
      cacheControl: 'private, max-age=3600',
    }));
  return served || notFound();
});
