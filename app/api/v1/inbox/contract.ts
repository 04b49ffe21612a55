import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { inboxPageSchema } from '@/lib/api/contract/inbox-schemas';
import { listInboxQuerySchema } from '@/lib/inbox/schemas';

/** /api/v1/inbox — the contract of ./route.ts. */
export const inboxContract = defineRoute('/inbox', {
  GET: {
    operationId: 'listInbox',
    summary: 'List inbox items (replies, comments, mentions, DMs), newest first',
    description:
      'What people said to the workspace’s connected accounts, as the inbox job read it from each network (docs/inbox.md). Unanswered items by default; `status`, `account`, `network`, `kind` and `assignedTo` filter; keyset pagination: pass `nextCursor` back as `cursor` until it is null.',
    scope: 'inbox:read',
    request: { query: listInboxQuerySchema },
    responses: {
      200: jsonResponse('A page of items, with the count per status under the same filters', inboxPageSchema),
      400: problemResponse('An invalid filter, cursor or limit (nothing read; `errors` per parameter)'),
    },
  },
});
