import { getDb } from '@/db/client';
import { getWorkspaceMedia } from '@/db/queries/media';
import { apiHandler } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';
import { getMediaStorage } from '@/lib/media/storage';

export const dynamic = 'force-dynamic';

const notFound = () => problem({ status: 404, title: 'Not Found', detail: 'No such image in this workspace.' });

/** An image's bytes for the API key's workspace (the `url` of a post's or an upload's media); another's is a 404. */
export const GET = apiHandler<{ id: string }>('posts:read', async (_request, principal, { id }) => {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return notFound();
  const [row] = await getWorkspaceMedia(getDb(), { workspaceId: principal.workspaceId, ids: [id] });
  const bytes = row ? await getMediaStorage().get(row.sha256) : null;
  if (!row || !bytes) return notFound();
  return new Response(Buffer.from(bytes), {
    headers: {
      'content-type': row.type,
      'content-length': String(bytes.length),
      'cache-control': 'private, max-age=3600',
      'x-content-type-options': 'nosniff',
    },
  });
});
