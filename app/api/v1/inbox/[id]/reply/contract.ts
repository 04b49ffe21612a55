import {
  defineRoute,
  idempotencyKeyHeader,
  jsonResponse,
  problemResponse,
  replayedHeader,
  retryAfterHeader,
} from '@/lib/api/contract/define';
import {
  alreadyAnsweredProblemSchema,
  answeredOnPlatformProblemSchema,
  inboxAnswerSchema,
} from '@/lib/api/contract/inbox-schemas';
import { problemSchema } from '@/lib/api/contract/schemas';
import { named, z } from '@/lib/api/contract/zod';
import { answerRequestSchema } from '@/lib/inbox/schemas';

/** /api/v1/inbox/{id}/reply — the contract of ./route.ts. */
export const inboxReplyContract = defineRoute('/inbox/{id}/reply', {
  POST: {
    operationId: 'replyToInboxItem',
    summary: 'Answer an inbox item (idempotent; one answer per place)',
    description:
      'Sends a reply to the item (a direct message to its author for a DM) as a post of kind `reply` (or `dm`) on the item’s account, published and reconciled like any post: exactly once per Idempotency-Key, and one answer per place — of two answers sent at once (two teammates, two integrations) one is taken and the other gets 409 naming it. To add another answer anyway, send `after` set to the number of answers the item has.',
    scope: 'inbox:write',
    request: {
      params: z.object({ id: z.uuid() }),
      headers: idempotencyKeyHeader,
      body: {
        required: true,
        content: { 'application/json': { schema: named('InboxReply', answerRequestSchema) } },
      },
    },
    responses: {
      201: jsonResponse('Answered, or the replay of the first answer for this key', inboxAnswerSchema, replayedHeader),
      400: problemResponse('Missing or malformed Idempotency-Key, or a body that is not JSON (nothing sent)'),
      404: problemResponse('No such inbox item in this workspace'),
      409: problemResponse(
        'Someone answered first (`answeredBy`, `answer`, and `answers` to send another anyway; nothing sent), the account answered it on the platform itself (`answeredBy: "platform"`, the platform’s `answer.platformId`, `answers`), or the first request with this key is still running (retry after `Retry-After`)',
        z.union([alreadyAnsweredProblemSchema, answeredOnPlatformProblemSchema, problemSchema]),
        retryAfterHeader.partial(),
      ),
      422: problemResponse(
        'Invalid fields (`errors`), `after` beyond the answers the item has, a network Semel sends no such answer on, or the key reused for another request (nothing sent)',
      ),
    },
  },
});
