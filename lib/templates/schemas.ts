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

const templateText = postTextSchema.describe(
  'The post’s text, with `{{variables}}` filled in the composer or a CSV row.',
);
const accountIdsSchema = z.array(z.uuid('Must be an account id')).max(50).describe('The accounts ticked by default.');
const timeOfDaySchema = z
  .string()
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'A time of day, HH:MM')
  .describe('The next such time in the workspace’s zone.');
const templateMediaIds = mediaIdsSchema('post').describe('Images attached by default (POST /api/v1/media).');

/** POST /api/v1/templates and Library → Templates. */
export const templateInput = z
  .object({
    name: nameSchema,
    text: templateText,
    firstComment: postTextSchema.optional().describe('A first comment, with variables too.'),
    accountIds: accountIdsSchema.default([]),
    timeOfDay: timeOfDaySchema.optional(),
    mediaIds: templateMediaIds.default([]),
  })
  .strict();
export type TemplateInput = z.output<typeof templateInput>;

/** PATCH /api/v1/templates/{id} and Library → Edit: the fields given replace the template's; `null` removes one. */
export const templatePatch = z
  .object({
    name: nameSchema.optional(),
    text: templateText.optional(),
    firstComment: postTextSchema
      .nullable()
      .optional()
      .describe('A first comment, with variables too; `null` removes it.'),
    accountIds: accountIdsSchema.optional(),
    timeOfDay: timeOfDaySchema
      .nullable()
      .optional()
      .describe('The next such time in the workspace’s zone; `null`: none.'),
    mediaIds: templateMediaIds.optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((field) => field !== undefined), 'Give at least one field to change');
export type TemplatePatch = z.output<typeof templatePatch>;
