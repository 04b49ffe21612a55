import { approvalDecisionSchema, approveBodySchema, decisionConflictSchema } from '@/lib/api/contract/approvals';
import { defineRoute, jsonResponse, problemResponse, type OperationContract } from '@/lib/api/contract/define';
import type { z } from '@/lib/api/contract/zod';
import { postIdParams } from '../contract';

/** Approve and reject share one shape: a body, the decision, and who decided first on conflict. */
export const decisionOperation = (
  operationId: string,
  summary: string,
  description: string,
  body: z.ZodType,
): OperationContract => ({
  operationId,
  summary,
  description,
  scope: 'posts:approve',
  request: { params: postIdParams, body: { required: true, content: { 'application/json': { schema: body } } } },
  responses: {
    200: jsonResponse(
      'The decision (a repeat of the same decision: `alreadyDecided: true`, nothing changed)',
      approvalDecisionSchema,
    ),
    400: problemResponse('A body that is not JSON'),
    404: problemResponse('No such post in this workspace'),
    409: problemResponse(
      'Decided the other way already, edited since `revision`, or not awaiting approval',
      decisionConflictSchema,
    ),
    422: problemResponse('Invalid fields (`errors`); nothing was recorded'),
  },
});

/** /api/v1/posts/{id}/approve — the contract of ./route.ts. */
export const approvePostContract = defineRoute('/posts/{id}/approve', {
  POST: decisionOperation(
    'approvePost',
    'Approve a post waiting for approval (idempotent)',
    'Its deliveries are scheduled; approved after its time, it is published at once within the lateness limit, else marked missed. One decision per revision: of two at once, one is recorded and the other is told.',
    approveBodySchema,
  ),
});
