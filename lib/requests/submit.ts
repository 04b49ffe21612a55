import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Database } from '@/db/client';
import { insertPostMedia } from '@/db/queries/media';
import { insertPostWithDeliveries } from '@/db/queries/posts';
import {
  claimPostRequest,
  getPostRequestByKey,
  listLinkUploads,
  listRequestTargetAccounts,
  setPostRequestPost,
} from '@/db/queries/requests';
import { checkIdempotencyKey } from '@/lib/idempotency/key';
import { logger } from '@/lib/logging/logger';
import { NO_NUL_MESSAGE, postTextSchema, withinTwoYears, withoutNul } from '@/lib/posts/schemas';
import { zonedLocalToUtc } from '@/lib/time/zoned';
import { checkRequestLink } from './links';

export const MAX_NOTE = 2000;
export const MAX_REQUEST_IMAGES = 4;

const repeated = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));

/** The request form's fields as FormData sends them (strings; `mediaIds` may repeat). */
export const requestFormSchema = z.object({
  key: z.string().superRefine((v, ctx) => {
    if (!checkIdempotencyKey(v).ok)
      ctx.addIssue({ code: 'custom', message: 'This form lost its key; reload the page.' });
  }),
  name: z
    .string()
    .trim()
    .min(1, 'Tell us who you are')
    .max(100, 'At most 100 characters')
    .refine(withoutNul, NO_NUL_MESSAGE),
  text: postTextSchema,
  mediaIds: repeated.pipe(
    z
      .array(z.uuid('Upload the image again'))
      .max(MAX_REQUEST_IMAGES, `At most ${MAX_REQUEST_IMAGES} images`)
      .refine((ids) => new Set(ids).size === ids.length, 'Each image can be attached once'),
  ),
  preferredLocal: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined),
  timeZone: z.string().default('UTC'),
  note: z
    .string()
    .trim()
    .max(MAX_NOTE, `At most ${MAX_NOTE} characters`)
    .refine(withoutNul, NO_NUL_MESSAGE)
    .optional()
    .transform((v) => v || null),
});
export type RequestFormInput = z.input<typeof requestFormSchema>;

export type SubmitRequestResult =
  | { kind: 'received'; postId: string }
  /** The form's key was already used on this link: the first submit's request stands, nothing new is written. */
  | { kind: 'already_received'; postId: string | null }
  | { kind: 'invalid'; errors: Record<string, string[]> }
  | { kind: 'refused'; status: 404 | 410 | 429 | 422; title: string; detail: string };

/**
 * A client's post request through a request link: one draft per (link, form key), whatever the number of
 * submits (double click, reload, retry, two in parallel). The key row is taken first in the transaction
 * (post_requests_link_key_uq), so a second submit waits for the first and then replays it; bad input writes nothing.
 */
export async function submitPostRequest(
  db: Database,
  token: string,
  raw: unknown,
  context: { address: string; now?: Date },
): Promise<SubmitRequestResult> {
  const check = await checkRequestLink(db, token, context.address);
  if (!check.ok) return { kind: 'refused', status: check.status, title: check.title, detail: check.detail };
  const { link } = check;
  const parsed = requestFormSchema.safeParse(raw);
  if (!parsed.success)
    return { kind: 'invalid', errors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]> };
  const form = parsed.data;
  const now = context.now ?? new Date();

  let preferredAt: Date | null = null;
  if (form.preferredLocal) {
    const converted = zonedLocalToUtc(form.preferredLocal, form.timeZone);
    if (!converted.ok) return { kind: 'invalid', errors: { preferredLocal: [converted.error] } };
    if (converted.date.getTime() < now.getTime() - 60_000)
      return { kind: 'invalid', errors: { preferredLocal: ['The time is in the past'] } };
    if (!withinTwoYears(converted.date.toISOString()))
      return { kind: 'invalid', errors: { preferredLocal: ['Must be within two years from now'] } };
    preferredAt = converted.date;
  }
  const uploads = await listLinkUploads(db, {
    workspaceId: link.workspaceId,
    requestLinkId: link.id,
    mediaIds: form.mediaIds,
  });
  if (uploads.length !== form.mediaIds.length)
    return { kind: 'invalid', errors: { mediaIds: ['An image is missing; upload it again'] } };
  const accountIds = await listRequestTargetAccounts(db, { workspaceId: link.workspaceId });
  if (accountIds.length === 0)
    return {
      kind: 'refused',
      status: 422,
      title: 'Not taking requests yet',
      detail: 'This workspace has no connected account yet. Please ask your agency.',
    };

  const outcome = await db.transaction(async (tx) => {
    const claimed = await claimPostRequest(tx, {
      workspaceId: link.workspaceId,
      requestLinkId: link.id,
      key: form.key,
      requesterName: form.name,
      note: form.note,
      preferredAt,
    });
    if (!claimed) return null;
    const created = await insertPostWithDeliveries(tx, {
      post: {
        id: randomUUID(),
        workspaceId: link.workspaceId,
        kind: 'post',
        text: form.text,
        // Without a preferred time the draft sits on the calendar at the moment it arrived.
        scheduledAt: preferredAt ?? now,
        source: 'form',
        idempotencyKey: `request:${link.id}:${form.key}`,
      },
      accountIds,
      actor: `request_link:${link.id}`,
      status: 'draft',
    });
    const postId = created!.post.id;
    await insertPostMedia(tx, { postId, mediaIds: form.mediaIds });
    await setPostRequestPost(tx, { id: claimed.id, postId });
    return postId;
  });
  if (outcome) {
    logger.info({ workspaceId: link.workspaceId, postId: outcome, requestLinkId: link.id }, 'post request received');
    return { kind: 'received', postId: outcome };
  }
  const existing = await getPostRequestByKey(db, { requestLinkId: link.id, key: form.key });
  return { kind: 'already_received', postId: existing?.postId ?? null };
}
