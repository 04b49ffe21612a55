import { z } from 'zod';

export const POST_KINDS = ['post', 'reply', 'dm'] as const;
export { characterCount, normaliseText } from './text';

const TWO_YEARS_MS = 2 * 366 * 24 * 60 * 60 * 1000;
/** Scheduling horizon: also keeps every derived time (retention = time + 7 days) inside Postgres' range. */
export function withinTwoYears(iso: string): boolean {
  const t = Date.parse(iso);
  return Number.isFinite(t) && t < Date.now() + TWO_YEARS_MS;
}

/** Postgres text cannot hold U+0000: refused here as a field error instead of failing the insert with a 500. */
export const NO_NUL_MESSAGE = 'Must not contain the NUL character (U+0000)';
export const withoutNul = (v: string) => !v.includes('\u0000');

/** A post's text, for creating and editing alike. */
export const postTextSchema = z
  .string()
  .min(1, 'Text is required')
  .max(5000)
  .refine((t) => t.trim().length > 0, 'Text is required')
  .refine(withoutNul, NO_NUL_MESSAGE);

/** The body of POST /api/v1/posts (also the OpenAPI schema). */
export const createPostRequestSchema = z
  .object({
    text: postTextSchema,
    accountIds: z.array(z.uuid('Must be an account id')).min(1, 'Choose at least one account').max(50),
    scheduledAt: z.iso
      .datetime({ offset: true, message: 'Must be an ISO-8601 date-time with a time zone, e.g. 2026-12-01T09:30:00Z' })
      .refine(withinTwoYears, 'Must be within two years from now')
      .optional(),
    kind: z.enum(POST_KINDS).default('post'),
    inReplyTo: z.string().trim().min(1).max(512).refine(withoutNul, NO_NUL_MESSAGE).optional(),
    recipient: z.string().trim().min(1).max(256).refine(withoutNul, NO_NUL_MESSAGE).optional(),
    /** Images uploaded with POST /api/v1/media, in order (within every target network's limits). */
    mediaIds: z
      .array(z.uuid('Must be an image id (POST /api/v1/media)'))
      .max(4, 'At most 4 images per post')
      .optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.kind === 'reply' && !v.inReplyTo)
      ctx.addIssue({ code: 'custom', path: ['inReplyTo'], message: 'A reply needs the post id or link it replies to' });
    if (v.kind === 'dm' && !v.recipient)
      ctx.addIssue({ code: 'custom', path: ['recipient'], message: 'A direct message needs a recipient handle' });
    if (v.kind !== 'reply' && v.inReplyTo)
      ctx.addIssue({ code: 'custom', path: ['inReplyTo'], message: 'Only replies take inReplyTo' });
    if (v.kind !== 'dm' && v.recipient)
      ctx.addIssue({ code: 'custom', path: ['recipient'], message: 'Only direct messages take a recipient' });
  });

export type CreatePostRequest = z.output<typeof createPostRequestSchema>;

/**
 * What the fingerprint is computed over: the request as sent, normalised (text NFC, accounts as a set,
 * time as an instant). An omitted scheduledAt stays omitted, so a retried "post now" matches its original.
 */
export function fingerprintInput(request: CreatePostRequest) {
  return {
    text: request.text.normalize('NFC'),
    accountIds: [...new Set(request.accountIds)].sort(),
    scheduledAt: request.scheduledAt ? new Date(request.scheduledAt).toISOString() : null,
    kind: request.kind,
    inReplyTo: request.inReplyTo ?? null,
    recipient: request.recipient ?? null,
    // Order matters (the first image leads); none and an empty list are the same request.
    mediaIds: request.mediaIds ?? [],
  };
}
