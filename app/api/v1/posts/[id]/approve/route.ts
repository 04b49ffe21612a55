import { approveBodySchema } from '@/lib/api/contract/approvals';
import { apiHandler } from '@/lib/api/handler';
import { decideFromApi } from './http';

export const dynamic = 'force-dynamic';

/** Approves the post's current revision: its deliveries are scheduled (or missed, past the lateness limit). */
export const POST = apiHandler<{ id: string }>('posts:approve', (request, principal, { id }) =>
  decideFromApi(request, principal, id, 'approved', approveBodySchema),
);
