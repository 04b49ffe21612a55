import { getDb } from '@/db/client';
import { appRead } from '@/lib/http/app-read';
import { readPostDetail } from '@/lib/reads/post-detail';

export const dynamic = 'force-dynamic';

// Another workspace's post is a 404, like a missing one (I6).
export const GET = appRead<{ id: string }>('read', ({ workspace }, { id }) =>
  readPostDetail(getDb(), { workspaceId: workspace.id, postId: id }),
);
