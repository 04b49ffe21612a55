import { rejectBodySchema } from '@/lib/api/contract/approvals';
import { apiHandler } from '@/lib/api/handler';
import { decideFromApi } from '../approve/http';

export const dynamic = 'force-dynamic';

/** Requests changes on the post's current revision (a comment is required); it keeps waiting for approval. */
export const POST = apiHandler<{ id: string }>('posts:approve', (request, principal, { id }) =>
  decideFromApi(request, principal, id, 'changes_requested', rejectBodySchema),
);
