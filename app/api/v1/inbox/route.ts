import { getDb } from '@/db/client';
import { apiHandler } from '@/lib/api/handler';
import { listInboxPage } from '@/lib/inbox/list';
import { listInboxResponse } from './http';

export const dynamic = 'force-dynamic';

/** The workspace's inbox, newest first: ?status=&account=&network=&kind=&assignedTo=&cursor=&limit= */
export const GET = apiHandler('inbox:read', async (request, principal) =>
  listInboxResponse(
    await listInboxPage(getDb(), {
      workspaceIds: [principal.workspaceId],
      query: Object.fromEntries(new URL(request.url).searchParams),
    }),
  ),
);
