import { z } from 'zod';
import type { Database } from '@/db/client';
import { getIdempotencyKey } from '@/db/queries/idempotency';
import { checkIdempotencyKey } from '@/lib/idempotency/key';
import { zonedLocalToUtc } from '@/lib/time/zoned';
import { createPost, CREATE_POST_OPERATION, type CreatePostResult } from './create';
import { createPostRequestSchema, POST_KINDS } from './schemas';

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/**
 * A form's thread-part images: one hidden field, JSON `[[mediaId, …], …]` in the parts' order (the composer and
 * the post page's edit form). Absent is undefined; unusable JSON is refused.
 */
export const partMediaIdsField = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (!v) return undefined;
    try {
      return z.array(z.array(z.string())).parse(JSON.parse(v));
    } catch {
      ctx.addIssue({ code: 'custom', message: "The thread parts' images could not be read; reload the page." });
      return z.NEVER;
    }
  });

/** A hidden field holding JSON `{ [accountId]: string }`: absent is `{}`, unusable JSON is refused with `message`. */
function jsonRecordField(message: string) {
  return z
    .string()
    .optional()
    .transform((v, ctx): Record<string, string> => {
      if (!v) return {};
      try {
        return z.record(z.string(), z.string()).parse(JSON.parse(v));
      } catch {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
    });
}

/** The compose form's fields as FormData sends them (strings; checkboxes may repeat). */
export const composeFormSchema = z.object({
  idempotencyKey: z.string().superRefine((v, ctx) => {
    const check = checkIdempotencyKey(v);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: 'This form lost its key; reload the page.' });
  }),
  text: z.string().default(''),
  kind: z.enum(POST_KINDS).default('post'),
  /** A thread's parts: one `parts` field per part, in order. */
  parts: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
  /** A thread's images per part as JSON `[[mediaId, …], …]`, in the parts' order (none: `[]`). */
  partMediaIds: partMediaIdsField.transform((v) => v ?? []),
  inReplyTo: optionalText,
  recipient: optionalText,
  accountIds: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
  mediaIds: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
  when: z.enum(['now', 'later', 'queue']).default('now'),
  localDateTime: optionalText,
  timeZone: z.string().default('UTC'),
  confirmDuplicate: z.literal('1').optional(),
  /** Per-network texts as JSON `{ [accountId]: text }` (the composer's account tabs); unusable JSON is none. */
  variants: jsonRecordField('The per-network texts could not be read; reload the page.').transform((parsed) =>
    Object.fromEntries(Object.entries(parsed).filter(([, text]) => text.trim() !== '')),
  ),
  /** The post's first comment (kind `post`); blank is none. */
  firstComment: optionalText,
  /** Own first comments as JSON `{ [accountId]: text }` (the account tabs); blank ones are dropped. */
  firstComments: jsonRecordField('The first comments could not be read; reload the page.').transform((parsed) =>
    Object.fromEntries(Object.entries(parsed).filter(([, text]) => text.trim() !== '')),
  ),
  /** The post's link tracking (the Links box, where the workspace tracks links): `off` opts this post out. */
  linksTrack: z.enum(['on', 'off']).optional(),
  utmPresetId: optionalText,
  utmCampaign: optionalText,
  /** Each account's format as JSON `{ [accountId]: format }` (Instagram's "Post as"); the default is left out. */
  formats: jsonRecordField('The formats could not be read; reload the page.'),
  /** Each account's options as JSON `{ [accountId]: { … } }` (TikTok's settings); checked by its network's schema. */
  options: z
    .string()
    .optional()
    .transform((v, ctx): Record<string, Record<string, unknown>> => {
      if (!v) return {};
      try {
        return z.record(z.string(), z.record(z.string(), z.unknown())).parse(JSON.parse(v));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'The network settings could not be read; reload the page.' });
        return z.NEVER;
      }
    }),
  /** Which button: schedule (or queue) it, or save it as a draft. */
  intent: z.enum(['schedule', 'draft']).default('schedule'),
});
export type ComposeForm = z.output<typeof composeFormSchema>;

export type ComposeResult =
  | {
      ok: true;
      postId: string;
      replayed: boolean;
      status: 'scheduled' | 'draft' | 'awaiting_approval';
      scheduledAt: string;
    }
  | { ok: false; kind: 'invalid'; errors: Record<string, string[]> }
  | { ok: false; kind: 'possible_duplicate'; matches: { postId: string; accountId: string }[] }
  | { ok: false; kind: 'mismatch' }
  | { ok: false; kind: 'in_flight' };

const FIELD_FOR: Record<string, string> = { scheduledAt: 'localDateTime' };

/**
 * The compose form's submit: same idempotent path as the API (scope workspace + posts.create + key).
 * A duplicate submit that finds the first still running waits briefly for its result instead of failing.
 */
export async function submitComposeForm(
  db: Database,
  form: ComposeForm,
  context: { workspaceId: string; userId: string; requestId?: string },
): Promise<ComposeResult> {
  const draft = form.intent === 'draft';
  let scheduledAt: string | undefined;
  if (form.when === 'later') {
    const converted = form.localDateTime
      ? zonedLocalToUtc(form.localDateTime, form.timeZone)
      : { ok: false as const, error: 'Pick a date and time' };
    if (!converted.ok) return { ok: false, kind: 'invalid', errors: { localDateTime: [converted.error] } };
    scheduledAt = converted.date.toISOString();
  }
  const thread = form.kind === 'thread';
  // Only the accounts still ticked keep their own text; a thread has none (its parts are published as written).
  const variants = thread ? [] : Object.entries(form.variants ?? {}).filter(([id]) => form.accountIds.includes(id));
  const post = form.kind === 'post';
  const ownComments = post ? Object.entries(form.firstComments).filter(([id]) => form.accountIds.includes(id)) : [];
  const variantsOut: Record<string, { text?: string; firstComment?: string }> = {};
  for (const [id, text] of variants) variantsOut[id] = { text };
  for (const [id, firstComment] of ownComments) variantsOut[id] = { ...variantsOut[id], firstComment };
  const formats =
    form.kind === 'post' ? Object.entries(form.formats).filter(([id]) => form.accountIds.includes(id)) : [];
  const options = Object.entries(form.options).filter(([id]) => form.accountIds.includes(id));
  const parsed = createPostRequestSchema.safeParse({
    text: thread ? undefined : form.text,
    parts: thread
      ? form.parts.map((text, i) => ({
          text,
          ...(form.partMediaIds[i]?.length ? { mediaIds: form.partMediaIds[i] } : {}),
        }))
      : undefined,
    accountIds: form.accountIds,
    kind: form.kind,
    inReplyTo: form.inReplyTo,
    recipient: form.recipient,
    scheduledAt,
    // A draft keeps a picked time as its plan; "Add to queue" is a schedule's choice, not a draft's.
    ...(draft ? { status: 'draft' } : form.when === 'queue' ? { slot: 'next' } : {}),
    ...(post && form.firstComment ? { firstComment: form.firstComment } : {}),
    ...(form.linksTrack
      ? {
          links:
            form.linksTrack === 'off'
              ? { track: false }
              : {
                  ...(form.utmPresetId ? { presetId: form.utmPresetId } : {}),
                  ...(form.utmCampaign ? { campaign: form.utmCampaign } : {}),
                },
        }
      : {}),
    ...(Object.keys(variantsOut).length ? { variants: variantsOut } : {}),
    ...(form.mediaIds.length > 0 ? { mediaIds: form.mediaIds } : {}),
    ...(formats.length ? { formats: Object.fromEntries(formats) } : {}),
    ...(options.length ? { options: Object.fromEntries(options) } : {}),
  });
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      // A part's or a variant's text: `parts.<i>.text`, `variants.<accountId>.text`.
      const field = ['parts', 'variants', 'formats', 'options', 'links'].includes(String(issue.path[0]))
        ? issue.path.join('.')
        : String(issue.path[0] ?? 'text');
      (errors[FIELD_FOR[field] ?? field] ??= []).push(issue.message);
    }
    return { ok: false, kind: 'invalid', errors };
  }

  const scope = { workspaceId: context.workspaceId, operation: CREATE_POST_OPERATION, key: form.idempotencyKey };
  const run = () =>
    createPost(db, parsed.data, {
      workspaceId: context.workspaceId,
      source: 'form',
      idempotencyKey: form.idempotencyKey,
      actor: `user:${context.userId}`,
      userId: context.userId,
      checkSoftDuplicates: !form.confirmDuplicate && !draft,
      requestId: context.requestId,
    });

  let result: CreatePostResult = await run();
  for (let waited = 0; result.kind === 'in_flight' && waited < 10_000; waited += 100) {
    await new Promise((r) => setTimeout(r, 100));
    const row = await getIdempotencyKey(db, scope);
    result = row?.state === 'completed' || !row ? await run() : result;
  }
  switch (result.kind) {
    case 'ok': {
      const stored = JSON.parse(result.stored.body) as { status: string; scheduledAt: string };
      return {
        ok: true,
        postId: result.postId,
        replayed: result.replayed,
        status: stored.status === 'draft' || stored.status === 'awaiting_approval' ? stored.status : 'scheduled',
        scheduledAt: stored.scheduledAt,
      };
    }
    case 'key_reused':
      return { ok: false, kind: 'mismatch' };
    case 'in_flight':
      return { ok: false, kind: 'in_flight' };
    case 'invalid':
      return {
        ok: false,
        kind: 'invalid',
        errors: Object.fromEntries(Object.entries(result.errors).map(([k, v]) => [FIELD_FOR[k] ?? k, v])),
      };
    case 'possible_duplicate':
      return { ok: false, kind: 'possible_duplicate', matches: result.matches };
  }
}
