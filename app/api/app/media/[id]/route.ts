import { getDb } from '@/db/client';
import { getWorkspaceMedia } from '@/db/queries/media';
import { appRead } from '@/lib/http/app-read';
import { getMediaStorage } from '@/lib/media/storage';

export const dynamic = 'force-dynamic';

/** An image of the active workspace, for the composer's preview (any member; another workspace's is a 404). */
export const GET = appRead<{ id: string }>('read', async ({ workspace }, { id }) => {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await getWorkspaceMedia(getDb(), { workspaceId: workspace.id, ids: [id] });
  const bytes = row ? await getMediaStorage().get(row.sha256) : null;
  if (!row || !bytes) return null;
  return new Response(Buffer.from(bytes), {
    headers: {
      'content-type': row.type,
      'cache-control': 'private, max-age=3600',
      'x-content-type-options': 'nosniff',
    },
  });
});
