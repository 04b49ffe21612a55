import { z } from 'zod';
import { SNIPPET_KINDS } from '@/db/schema';
import { mediaIdsSchema, NO_NUL_MESSAGE, postTextSchema, withoutNul } from '@/lib/posts/schemas';

const nameSchema = z
  .string()
  .trim()
  .min(1, 'A name is required')
  .max(60, 'At most 60 characters')
  .refine(withoutNul, NO_NUL_MESSAGE);

/** POST /api/v1/snippets and Library → Snippets. */
export const snippetInput = z
  .object({
    name: nameSchema.describe('Unique in the workspace: what the composer’s `/` picker matches.'),
    kind: z.enum(SNIPPET_KINDS).default('other').describe('What it is for: hashtags, signature, disclaimer, other.'),
    text: postTextSchema.describe('The text inserted where the cursor is.'),
  })
  .strict();

/** POST /api/v1/templates and Library → Templates. */
export const templateInput = z
  .object({
    name: nameSchema,
    text: postTextSchema.describe('The post’s text, with `{{variables}}` filled in the composer or a CSV row.'),
    firstComment: postTextSchema.optional().describe('A first comment, with variables too.'),
    accountIds: z
      .array(z.uuid('Must be an account id'))
      .max(50)
      .default([])
      .describe('The accounts ticked by default.'),
    timeOfDay: z
      .string()
      .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'A time of day, HH:MM')
      .optional()
      .describe('The next such time in the workspace’s zone.'),
    mediaIds: mediaIdsSchema('post').default([]).describe('Images attached by default (POST /api/v1/media).'),
  })
  .strict();
export type TemplateInput = z.output<typeof templateInput>;
