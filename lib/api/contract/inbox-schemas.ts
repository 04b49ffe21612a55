import { INBOX_ITEM_KINDS, providerEnum } from '@/db/schema';
import { postSchema, problemSchema } from './schemas';
import { z } from './zod';

// The inbox's representations in the OpenAPI document (GET /api/v1/inbox, POST /api/v1/inbox/{id}/reply).

export const inboxItemSchema = z
  .object({
    id: z.uuid(),
    workspace: z.object({ id: z.uuid(), name: z.string() }),
    account: z.object({ id: z.uuid(), handle: z.string(), network: z.enum(providerEnum.enumValues) }),
    kind: z.enum(INBOX_ITEM_KINDS).openapi({
      description: '`reply` (under our post), `comment` (on our post, where the network calls it so), `mention`, `dm`.',
    }),
    platformId: z.string().openapi({ description: 'Its id on the network (what a reply names).' }),
    author: z.object({ handle: z.string(), name: z.string().nullable() }),
    text: z.string(),
    url: z.string().nullable(),
    receivedAt: z.string().openapi({ description: 'When the network says it was written (ISO 8601).' }),
    status: z.enum(['unanswered', 'answered', 'done']),
    answeredAt: z.string().nullable(),
    answerSource: z.enum(['semel', 'platform']).nullable().openapi({
      description: '`semel`: an answer was sent from Semel; `platform`: the account answered it elsewhere.',
    }),
    answers: z.int().openapi({
      description:
        'Answers the item has (sent from Semel, and the account’s own on the platform when `answerSource` is `platform`): the `after` for "send another reply anyway".',
    }),
    assignedTo: z.object({ id: z.uuid(), name: z.string().nullable() }).nullable(),
    deliveryId: z.uuid().nullable().openapi({ description: 'The delivery of our post it is under, if any.' }),
    answerable: z.boolean(),
    notAnswerable: z.string().nullable().openapi({ description: 'Why Semel cannot send its answer, and where to.' }),
  })
  .openapi('InboxItem');

export const inboxPageSchema = z
  .object({
    items: z.array(inboxItemSchema),
    nextCursor: z.string().nullable(),
    counts: z
      .object({ unanswered: z.int(), answered: z.int(), done: z.int() })
      .openapi({ description: 'Items per status under the same filters, each counted up to 1,000.' }),
  })
  .openapi('InboxPage');

export const inboxAnswerSchema = z
  .object({
    answer: z.object({
      id: z.uuid(),
      itemId: z.uuid(),
      number: z.int().openapi({ description: '1 for the first answer, 2 for "another reply anyway"…' }),
      text: z.string(),
      by: z.string(),
      postId: z.uuid().openapi({ description: 'The reply (or DM) post: follow its delivery for the outcome.' }),
    }),
    post: postSchema,
  })
  .openapi('InboxAnswer');

export const alreadyAnsweredProblemSchema = problemSchema
  .extend({
    answeredBy: z.string(),
    answer: z.object({
      number: z.int(),
      text: z.string(),
      createdAt: z.string(),
      status: z.string().nullable().openapi({ description: 'Its delivery’s status (scheduled, sent…).' }),
    }),
    answers: z.int().openapi({ description: 'How many answers the item has now: `after` for another one anyway.' }),
  })
  .openapi('AlreadyAnsweredProblem');

export const answeredOnPlatformProblemSchema = problemSchema
  .extend({
    answeredBy: z.literal('platform').openapi({ description: 'The account answered it itself on the platform.' }),
    answer: z.object({
      platformId: z.string().nullable().openapi({ description: 'The platform’s id of the account’s answer.' }),
      text: z.string().nullable().openapi({ description: 'What it said, where the platform’s listing gave it.' }),
      createdAt: z.string().nullable(),
    }),
    answers: z.int().openapi({ description: 'How many answers the item has, that one included: `after` for another.' }),
  })
  .openapi('AnsweredOnPlatformProblem');
