import { getDb } from '@/db/client';
import { getWorkspaceMedia } from '@/db/queries/media';
import { appRead } from '@/lib/http/app-read';
import { serveStored } from '@/lib/media/serve';
import { getMediaStorage } from '@/lib/media/storage';

export const dynamic = 'force-dynamic';

/**
 * A media file of the active workspace, for the composer's preview and player (any member; another workspace's is a
 * 404); `?cover` is a video's cover frame.
 */
export const GET = appRead<{ id: string }>('read', async ({ workspace }, { id }, request) => {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await getWorkspaceMedia(getDb(), { workspaceId: workspace.id, ids: [id] });
  if (!row) return null;
  const cover = new URL(request.url).searchParams.has('cover');
  if (cover && !row.coverSha256) return null;
  return serveStored(request, getMediaStorage(), cover ? row.coverSha256! : row.sha256, {
    type: cover ? 'image/jpeg' : row.type,
    cacheControl: 'private, max-age=3600',
  });
});
