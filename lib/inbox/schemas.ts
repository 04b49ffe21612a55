import { z } from 'zod';
import { INBOX_STATUSES } from '@/db/queries/inbox/list';
import { INBOX_ITEM_KINDS, providerEnum } from '@/db/schema';
import { NO_NUL_MESSAGE, withoutNul } from '@/lib/posts/schemas';

// The inbox's request shapes, for the API and the page alike (docs/inbox.md, docs/api.md#inbox).

const LIMIT_MESSAGE = 'limit must be a whole number from 1 to 100';

/** GET /api/v1/inbox (and the page's own read): filters, newest first, keyset pagination. */
export const listInboxQuerySchema = z.object({
  status: z
    .enum(INBOX_STATUSES)
    .default('unanswered')
    .describe('`unanswered` (the default: neither answered nor done), `answered`, `done` or `all`.'),
  account: z.uuid().optional().describe('Only this account’s items.'),
  network: z.enum(providerEnum.enumValues).optional().describe('Only this network’s items.'),
  kind: z.enum(INBOX_ITEM_KINDS).optional().describe('`reply`, `comment`, `mention` or `dm`.'),
  assignedTo: z.uuid().optional().describe('Only items assigned to this member (their user id).'),
  cursor: z.string().max(200).optional().describe('The `nextCursor` of the previous page, unchanged.'),
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(100, LIMIT_MESSAGE)
    .default(50),
});
export type ListInboxQuery = z.output<typeof listInboxQuerySchema>;

export const answerTextSchema = z
  .string()
  .min(1, 'Write an answer')
  .max(5000)
  .refine((t) => t.trim().length > 0, 'Write an answer')
  .refine(withoutNul, NO_NUL_MESSAGE);

/** POST /api/v1/inbox/{id}/reply. */
export const answerRequestSchema = z
  .object({
    text: answerTextSchema.describe('The answer: a reply to the item, or a direct message to its author for a DM.'),
    after: z.coerce
      .number()
      .int()
      .min(0)
      .max(1000)
      .default(0)
      .describe(
        'How many answers you saw the item have: 0 (the default) for its first answer. To send another reply anyway, the count it has (`answers` in GET /api/v1/inbox): the next place. Whoever takes a place first keeps it; the other gets 409 naming them.',
      ),
  })
  .strict();
export type AnswerRequestBody = z.output<typeof answerRequestSchema>;

export const noteTextSchema = z
  .string()
  .trim()
  .min(1, 'Write a note')
  .max(2000, 'At most 2,000 characters')
  .refine(withoutNul, NO_NUL_MESSAGE);

export const savedReplySchema = z.object({
  name: z.string().trim().min(1, 'Name it').max(80, 'At most 80 characters').refine(withoutNul, NO_NUL_MESSAGE),
  text: z.string().trim().min(1, 'Write the reply').max(5000).refine(withoutNul, NO_NUL_MESSAGE),
});
