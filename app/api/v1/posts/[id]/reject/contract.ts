import { rejectBodySchema } from '@/lib/api/contract/approvals';
import { defineRoute } from '@/lib/api/contract/define';
import { decisionOperation } from '../approve/contract';

/** /api/v1/posts/{id}/reject — the contract of ./route.ts. */
export const rejectPostContract = defineRoute('/posts/{id}/reject', {
  POST: decisionOperation(
    'rejectPost',
    'Request changes on a post waiting for approval (idempotent)',
    'Needs a `comment`; the author is notified and the post keeps waiting until an edit (a new revision) is approved.',
    rejectBodySchema,
  ),
});
