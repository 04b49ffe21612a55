import { z } from 'zod';
import { deliveryStatusEnum } from '@/db/schema';
import { MAX_MEDIA_PER_PART, MAX_MEDIA_PER_POST } from '@/db/media-limits';
import { rangeQueryShape } from './range';
import { MAX_THREAD_PARTS, MIN_THREAD_PARTS } from './thread-limits';

export const POST_KINDS = ['post', 'reply', 'dm', 'thread'] as const;
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

/** Images uploaded with POST /api/v1/media, in order: a post's, or one thread part's (the first image leads). */
export const mediaIdsSchema = (unit: 'post' | 'part') =>
  z
    .array(z.uuid('Must be an image id (POST /api/v1/media)'))
    .max(
      unit === 'post' ? MAX_MEDIA_PER_POST : MAX_MEDIA_PER_PART,
      `At most ${unit === 'post' ? MAX_MEDIA_PER_POST : MAX_MEDIA_PER_PART} images per ${unit}`,
    );

/** One part of a thread: its text and its own images (an unknown field is refused). */
export const threadPartSchema = z
  .object({
    text: postTextSchema,
    mediaIds: mediaIdsSchema('part')
      .optional()
      .describe("This part's images (POST /api/v1/media), in order: up to 4, published with this part only."),
  })
  .strict();

/** A thread's parts, in order: each is published as a reply to the one before it. */
export const threadPartsSchema = z
  .array(threadPartSchema)
  .min(MIN_THREAD_PARTS, `A thread has at least ${MIN_THREAD_PARTS} parts`)
  .max(MAX_THREAD_PARTS, `A thread has at most ${MAX_THREAD_PARTS} parts`);

/**
 * A post's first comment: published as its reply part on each account whose network takes one (X, Mastodon, Bluesky
 * and Threads: a reply of its own; Instagram: a comment), only once the post is `sent` there.
 */
export const firstCommentSchema = postTextSchema.describe(
  "kind `post` only: the post's first comment, published on each account whose network takes one (X, Mastodon, Bluesky, Threads: a reply to the post; Instagram: a comment, not on a story) once the post is sent there — never under a post that failed, was canceled or is in review. It has its own delivery (`part` 1) with its own status. Networks that take no comment (LinkedIn, Facebook, TikTok, YouTube) publish the post without it.",
);

/** How a post's links are tracked (docs/content.md#short-links-and-utm); omitted: the workspace's defaults. */
export const linkOptionsSchema = z
  .object({
    track: z
      .boolean()
      .optional()
      .describe('`false`: its links are published as written, whatever the workspace tracks.'),
    presetId: z
      .uuid('Must be a UTM preset id')
      .optional()
      .describe('A UTM preset (utm_medium, utm_campaign); default: the workspace’s default preset.'),
    campaign: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .refine(withoutNul, NO_NUL_MESSAGE)
      .optional()
      .describe("utm_campaign for this post, instead of the preset's."),
  })
  .strict()
  .describe(
    "How this post's links are tracked where the workspace tracks links (Settings → Links): UTM tags per network (utm_source = the network) and short links, applied to each network's text when the post is saved.",
  );

/** What a create may ask for: schedule it (the default) or keep it as a draft (never published until scheduled). */
export const CREATE_STATUSES = ['scheduled', 'draft'] as const;

/**
 * Per-network text: `{ [accountId]: { text } }`, the text one target account gets instead of `text`. Each key
 * must be one of the post's accounts; each text is checked against that account's network limit.
 */
export const variantsSchema = z
  .record(
    z.uuid('Must be an account id'),
    z
      .object({
        text: postTextSchema.optional(),
        firstComment: postTextSchema
          .optional()
          .describe("This account's own first comment, instead of the post's `firstComment`."),
      })
      .strict()
      .refine((v) => v.text !== undefined || v.firstComment !== undefined, {
        message: 'Text is required',
        path: ['text'],
      }),
  )
  .refine((v) => Object.keys(v).length <= 50, 'At most 50 variants')
  .describe(
    'Per target account (`{ [accountId]: { text?, firstComment? } }`): its own text instead of `text`, its own first comment instead of `firstComment` (at least one of the two).',
  );
export type PostVariants = z.output<typeof variantsSchema>;

/**
 * How each target account publishes the post where its network has several ways: `{ [accountId]: format }`
 * (Instagram: `story`). Each key must be one of the post's accounts and each format one its network offers.
 */
export const formatsSchema = z
  .record(z.uuid('Must be an account id'), z.string().regex(/^[a-z][a-z_]{0,19}$/, 'Must be a format id, e.g. story'))
  .refine((v) => Object.keys(v).length <= 50, 'At most 50 formats')
  .describe(
    "Per target account, how its network publishes the post where it has several ways (`{ [accountId]: format }`): Instagram's `story`. Without one, the network's default for what is attached.",
  );

/**
 * The choices each target account's network asks for per post: `{ [accountId]: { … } }` (TikTok: `privacy_level`,
 * `disable_comment`, `disable_duet`, `disable_stitch`, `post_mode`). Each key must be one of the post's accounts;
 * each value is checked by its network's own schema (ProviderMeta `options`, lib/posts/options.ts).
 */
export const optionsSchema = z
  .record(z.uuid('Must be an account id'), z.record(z.string(), z.unknown()))
  .refine((v) => Object.keys(v).length <= 50, 'At most 50 accounts’ options')
  .describe(
    "Per target account, the choices its network asks for (`{ [accountId]: { … } }`), checked by that network: TikTok's `{ privacy_level: PUBLIC_TO_EVERYONE | MUTUAL_FOLLOW_FRIENDS | FOLLOWER_OF_CREATOR | SELF_ONLY, disable_comment?, disable_duet?, disable_stitch?, post_mode?: direct | inbox }` (a privacy level is required for a direct post). A network that asks for none takes none.",
  );

/** The body of POST /api/v1/posts (also the OpenAPI schema). */
export const createPostRequestSchema = z
  .object({
    text: postTextSchema.optional().describe('Required for every kind but `thread`, whose text is in its parts.'),
    parts: threadPartsSchema
      .optional()
      .describe(
        'kind `thread` only: 2–25 parts, published in this order on each account, each as a reply to the part before it.',
      ),
    accountIds: z.array(z.uuid('Must be an account id')).min(1, 'Choose at least one account').max(50),
    scheduledAt: z.iso
      .datetime({ offset: true, message: 'Must be an ISO-8601 date-time with a time zone, e.g. 2026-12-01T09:30:00Z' })
      .refine(withinTwoYears, 'Must be within two years from now')
      .optional(),
    kind: z.enum(POST_KINDS).default('post'),
    firstComment: firstCommentSchema.optional(),
    links: linkOptionsSchema.optional(),
    inReplyTo: z.string().trim().min(1).max(512).refine(withoutNul, NO_NUL_MESSAGE).optional(),
    recipient: z.string().trim().min(1).max(256).refine(withoutNul, NO_NUL_MESSAGE).optional(),
    variants: variantsSchema.optional(),
    formats: formatsSchema.optional(),
    options: optionsSchema.optional(),
    status: z
      .enum(CREATE_STATUSES)
      .optional()
      .describe(
        '`scheduled` (the default) or `draft`: saved without scheduling, never published until a PATCH with `status: "scheduled"`.',
      ),
    slot: z
      .literal('next')
      .optional()
      .describe(
        "`next`: the next free posting slot of the accounts (their weekly schedules); with several accounts, the earliest slot free in every one's schedule. Instead of `scheduledAt`.",
      ),
    /** Images uploaded with POST /api/v1/media, in order (within every target network's limits). */
    mediaIds: mediaIdsSchema('post')
      .optional()
      .describe(
        "Images and videos (POST /api/v1/media), in order: up to 10, within each target network's own limit (X, Mastodon, Bluesky, Threads: 4). Not for `thread`: its images go on its parts.",
      ),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.kind === 'thread' && !v.parts)
      ctx.addIssue({ code: 'custom', path: ['parts'], message: 'A thread needs its parts' });
    if (v.kind === 'thread' && v.text !== undefined)
      ctx.addIssue({ code: 'custom', path: ['text'], message: "A thread's text is in its parts" });
    if (v.kind !== 'thread' && v.parts)
      ctx.addIssue({ code: 'custom', path: ['parts'], message: 'Only threads have parts' });
    if (v.kind !== 'thread' && v.text === undefined)
      ctx.addIssue({ code: 'invalid_type', expected: 'string', path: ['text'], message: 'Text is required' });
    if (v.slot && v.scheduledAt)
      ctx.addIssue({ code: 'custom', path: ['slot'], message: 'Give either scheduledAt or slot, not both' });
    if (v.slot && v.status === 'draft')
      ctx.addIssue({
        code: 'custom',
        path: ['slot'],
        message: 'A draft takes no slot: add it to the queue when scheduling it',
      });
    for (const accountId of Object.keys(v.formats ?? {}))
      if (!v.accountIds.some((id) => id.toLowerCase() === accountId.toLowerCase()))
        ctx.addIssue({ code: 'custom', path: ['formats', accountId], message: 'Not one of accountIds' });
    for (const accountId of Object.keys(v.options ?? {}))
      if (!v.accountIds.some((id) => id.toLowerCase() === accountId.toLowerCase()))
        ctx.addIssue({ code: 'custom', path: ['options', accountId], message: 'Not one of accountIds' });
    if (v.kind !== 'post' && v.formats && Object.keys(v.formats).length > 0)
      ctx.addIssue({ code: 'custom', path: ['formats'], message: 'Only posts take a format' });
    for (const accountId of Object.keys(v.variants ?? {}))
      if (!v.accountIds.some((id) => id.toLowerCase() === accountId.toLowerCase()))
        ctx.addIssue({ code: 'custom', path: ['variants', accountId], message: 'Not one of accountIds' });
    if (v.kind !== 'post' && v.firstComment !== undefined)
      ctx.addIssue({ code: 'custom', path: ['firstComment'], message: 'Only posts take a first comment' });
    for (const [accountId, variant] of Object.entries(v.variants ?? {}))
      if (v.kind !== 'post' && variant.firstComment !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['variants', accountId, 'firstComment'],
          message: 'Only posts take a first comment',
        });
    if (v.kind === 'thread' && v.variants && Object.keys(v.variants).length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['variants'],
        message: 'A thread has no per-account texts: each part is published as written',
      });
    if (v.kind === 'thread' && v.mediaIds && v.mediaIds.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['mediaIds'],
        message: "A thread's images go on its parts: `parts[].mediaIds`",
      });
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

/** What a post publishes: one text, or a thread's part texts in order (the first is also the post's text). */
export function postTexts(request: Pick<CreatePostRequest, 'text' | 'parts'>): string[] {
  return request.parts ? request.parts.map((p) => p.text) : [request.text ?? ''];
}

/**
 * What the fingerprint is computed over: the request as sent, normalised (text NFC, accounts as a set,
 * time as an instant). An omitted scheduledAt stays omitted, so a retried "post now" matches its original.
 */
export function fingerprintInput(request: CreatePostRequest) {
  return {
    text: request.text?.normalize('NFC') ?? null,
    // Only for threads, so a post's fingerprint is what it was before threads existed (stored keys still match).
    ...(request.parts ? { parts: request.parts.map((p) => p.text.normalize('NFC')) } : {}),
    accountIds: [...new Set(request.accountIds)].sort(),
    scheduledAt: request.scheduledAt ? new Date(request.scheduledAt).toISOString() : null,
    kind: request.kind,
    // Only when used, so a request without one hashes as before first comments existed.
    ...(request.firstComment !== undefined ? { firstComment: request.firstComment.normalize('NFC') } : {}),
    ...(request.links ? { links: request.links } : {}),
    inReplyTo: request.inReplyTo ?? null,
    recipient: request.recipient ?? null,
    // Only when used, so a request without them hashes as it did before they existed (stored keys still replay).
    ...(request.variants && Object.keys(request.variants).length > 0
      ? { variants: normaliseVariants(request.variants) }
      : {}),
    ...(request.formats && Object.keys(request.formats).length > 0
      ? { formats: Object.fromEntries(Object.entries(request.formats).map(([id, f]) => [id.toLowerCase(), f])) }
      : {}),
    ...(request.options && Object.keys(request.options).length > 0
      ? { options: Object.fromEntries(Object.entries(request.options).map(([id, o]) => [id.toLowerCase(), o])) }
      : {}),
    ...(request.status === 'draft' ? { status: 'draft' } : {}),
    ...(request.slot ? { slot: request.slot } : {}),
    // Order matters (the first image leads); none and an empty list are the same request, and hash as before
    // images existed (stored keys still replay).
    ...(request.mediaIds && request.mediaIds.length > 0 ? { mediaIds: request.mediaIds } : {}),
    // A thread's images per part, only when some part has any: a thread without images hashes as before.
    ...(request.parts?.some((p) => (p.mediaIds?.length ?? 0) > 0)
      ? { partMediaIds: request.parts.map((p) => p.mediaIds ?? []) }
      : {}),
  };
}

/** Every text a post may publish (its parts or text, its variants, its first comments): where its links are. */
export function allTexts(request: Pick<CreatePostRequest, 'text' | 'parts' | 'variants' | 'firstComment'>): string[] {
  return [
    ...postTexts(request),
    ...Object.values(request.variants ?? {}).flatMap((v) => [v.text, v.firstComment]),
    request.firstComment,
  ].filter((t): t is string => t !== undefined);
}

/** The images of each thread part, in order (an empty list for a part without any). */
export function partMediaIds(parts: { mediaIds?: string[] }[]): string[][] {
  return parts.map((p) => p.mediaIds ?? []);
}

/**
 * Variants as the fingerprint sees them: account → NFC text (canonicalJson sorts the keys); one with a first comment
 * → `{ text, firstComment }`, so a variant of text alone hashes as before first comments existed.
 */
export function normaliseVariants(variants: PostVariants): Record<string, string | Record<string, string | null>> {
  return Object.fromEntries(
    Object.entries(variants).map(([id, v]) => [
      id.toLowerCase(),
      v.firstComment === undefined
        ? (v.text ?? '').normalize('NFC')
        : { text: v.text?.normalize('NFC') ?? null, firstComment: v.firstComment.normalize('NFC') },
    ]),
  );
}

/** PATCH /api/v1/posts/{id} and the dashboard's edits (lib/posts/edit.ts). */
export const editPostRequestSchema = z
  .object({
    text: postTextSchema.optional(),
    /** A thread's parts: all of them, replacing the old ones (the number of parts may change). */
    parts: threadPartsSchema
      .optional()
      .describe(
        "A thread's parts, all of them, replacing the old ones. A part's `mediaIds` replace its images (`[]` removes them); omitted, the part keeps the images the part at its position had.",
      ),
    scheduledAt: z.iso
      .datetime({ offset: true, message: 'Must be an ISO-8601 date-time with a time zone' })
      .refine(withinTwoYears, 'Must be within two years from now')
      .optional(),
    accountIds: z.array(z.uuid()).min(1, 'Choose at least one account').max(50).optional(),
    firstComment: firstCommentSchema
      .nullable()
      .optional()
      .describe("Replaces the post's first comment (`null` removes it); omitted, it stays."),
    variants: variantsSchema
      .optional()
      .describe('Replaces every variant (`{}` removes them); omitted, they stay (but for accounts removed).'),
    links: linkOptionsSchema.optional().describe("Replaces the post's link tracking; omitted, it stays."),
    options: optionsSchema
      .optional()
      .describe(
        "Options per account (`{ [accountId]: { … } }`), replacing the named accounts' options; the others keep theirs. An account added by this edit whose network asks for options needs them here.",
      ),
    status: z
      .literal('scheduled')
      .optional()
      .describe('Schedules a draft (at `scheduledAt`, the next slot, or its planned time); no change otherwise.'),
    slot: z.literal('next').optional().describe('Moves the post to the next free slot of its accounts.'),
  })
  .strict()
  .refine(
    (v) =>
      v.text !== undefined ||
      v.firstComment !== undefined ||
      v.links !== undefined ||
      v.parts !== undefined ||
      v.scheduledAt !== undefined ||
      v.accountIds !== undefined ||
      v.variants !== undefined ||
      v.options !== undefined ||
      v.status !== undefined ||
      v.slot !== undefined,
    'Nothing to change',
  )
  .superRefine((v, ctx) => {
    if (v.slot && v.scheduledAt)
      ctx.addIssue({ code: 'custom', path: ['slot'], message: 'Give either scheduledAt or slot, not both' });
  });
export type EditPostRequest = z.output<typeof editPostRequestSchema>;

/** GET /api/v1/posts's query (lib/posts/list.ts). */
const LIMIT_MESSAGE = 'limit must be a whole number from 1 to 100';

export const listPostsQuerySchema = z.object({
  status: z.enum(deliveryStatusEnum.enumValues).optional(),
  account: z.uuid().optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(100, LIMIT_MESSAGE)
    .default(25),
  ...rangeQueryShape,
});
