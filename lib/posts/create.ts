import { randomUUID } from 'node:crypto';
import type { Database, Transaction } from '@/db/client';
import { schedulingStatus } from '@/db/queries/deliveries';
import { replacePostVariants } from '@/db/queries/post-variants';
import { findRecentSameText, getTargetAccounts, insertPostWithDeliveries } from '@/db/queries/posts';
import { getPartMedia, insertPostMedia } from '@/db/queries/media';
import { notifyDue } from '@/db/queries/publishing';
import { fingerprint } from '@/lib/idempotency/fingerprint';
import { runIdempotentPrepared, type OperationResult } from '@/lib/idempotency/run-idempotent';
import { prepareLinkTracking, writeTrackedTexts, type LinkTracking } from '@/lib/links/track';
import { settleIdempotent, type KeyRefusal } from '@/lib/idempotency/settle';
import { logger } from '@/lib/logging/logger';
import { reserveNextSlot } from '@/lib/slots/next-slot';
import { validateFormats, validateMedia, validatePartMedia } from './media';
import { validateOptions } from './options';
import { allTexts, fingerprintInput, normaliseText, partMediaIds, postTexts, type CreatePostRequest } from './schemas';
import { serializePost, type SerializedPost } from './serialize';
import { planFirstComments } from './first-comment';
import { validateTargets, variantFirstComments, variantTexts, type FieldErrors } from './targets';

export const CREATE_POST_OPERATION = 'posts.create';

const RETENTION_AFTER_SCHEDULE_MS = 7 * 24 * 60 * 60 * 1000;
const PAST_TOLERANCE_MS = 60_000;
const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;
const NOTIFY_HORIZON_MS = 25_000; // under the scheduler's 30 s maximum sleep (lib/publishing/scheduler.ts)

export type CreatePostContext = {
  workspaceId: string;
  source: 'form' | 'api';
  idempotencyKey: string;
  actor: string;
  userId?: string;
  apiKeyId?: string;
  /** The HTTP request's X-Request-Id, kept in each delivery's `created` history row. */
  requestId?: string;
  /** Forms ask before repeating the same text on the same account within 24 h; the API does not. */
  checkSoftDuplicates?: boolean;
  now?: Date;
  /**
   * Runs in the post's own transaction once it is stored (never on a replay): what a system caller links to its post
   * (an evergreen turn, a feed item) commits with it, so a crash in between cannot leave the link unwritten.
   */
  onCreated?: (tx: Transaction, postId: string) => Promise<void>;
};

export type DuplicateMatch = { postId: string; accountId: string };

/**
 * Refused without storing anything (the key is released: a corrected retry may reuse it). `transient`: for a reason
 * that passes (no free posting slot, the link shortener did not answer) — the same request may be made later.
 */
export type CreatePostRejection =
  | { kind: 'invalid'; errors: FieldErrors; transient?: true }
  | { kind: 'possible_duplicate'; matches: DuplicateMatch[] };

export type CreatePostResult =
  /** `stored` is the answer kept under the key: a replay gets exactly these bytes. */
  | { kind: 'ok'; postId: string; replayed: boolean; stored: { status: number; body: string } }
  | CreatePostRejection
  | KeyRefusal;

/** Creates a post exactly once per (workspace, key) — for the API and the compose form alike. */
export async function createPost(
  db: Database,
  request: CreatePostRequest,
  context: CreatePostContext,
): Promise<CreatePostResult> {
  const outcome = await runIdempotentPrepared<LinkTracking | null, CreatePostRejection>(
    db,
    {
      workspaceId: context.workspaceId,
      operation: CREATE_POST_OPERATION,
      key: context.idempotencyKey,
      fingerprint: fingerprint(fingerprintInput(request)),
    },
    {
      // Short links are made under the held key, before the transaction: an external shortener is another server.
      prepare: async () => {
        const prepared = await prepareLinkTracking(db, {
          workspaceId: context.workspaceId,
          providers: async () =>
            (await getTargetAccounts(db, { workspaceId: context.workspaceId, accountIds: request.accountIds })).map(
              (a) => a.provider,
            ),
          texts: allTexts(request),
          options: request.links,
        });
        return prepared.ok
          ? { ok: true, value: prepared.tracking }
          : {
              ok: false,
              rejection: {
                kind: 'invalid',
                errors: prepared.errors,
                ...(prepared.transient ? { transient: true } : {}),
              },
            };
      },
      operation: (tx, tracking) => createPostInTransaction(tx, request, context, tracking),
    },
  );
  return settleIdempotent(outcome, {
    answered: ({ status, body, resourceId }, replayed): CreatePostResult => {
      if (!replayed)
        logger.info(
          {
            requestId: context.requestId,
            postId: resourceId,
            workspaceId: context.workspaceId,
            source: context.source,
          },
          'post created',
        );
      return { kind: 'ok', postId: resourceId!, replayed, stored: { status, body } };
    },
    rejected: (rejection) => rejection,
  });
}

/**
 * The create itself, inside runIdempotent's transaction. Checks that need the database (accounts belong
 * to the workspace, per-platform text limits, time not in the past) reject without storing.
 */
export async function createPostInTransaction(
  tx: Transaction,
  request: CreatePostRequest,
  context: CreatePostContext,
  tracking: LinkTracking | null,
): Promise<OperationResult<CreatePostRejection>> {
  const now = context.now ?? new Date();
  const accountIds = [...new Set(request.accountIds)];
  const draft = request.status === 'draft';
  const variants = variantTexts(request.variants);
  const errors: FieldErrors = {};
  const texts = postTexts(request);
  const content = request.kind === 'thread' ? { parts: texts } : { text: texts[0]! };
  const accounts = await validateTargets(
    tx,
    { workspaceId: context.workspaceId, accountIds, kind: request.kind, variants, ...content },
    errors,
  );
  const mediaIds = request.mediaIds ?? [];
  const formats = validateFormats({ formats: request.formats, accounts, mediaCount: mediaIds.length }, errors);
  const options = validateOptions({ options: request.options, accounts }, errors);
  const ownComments = variantFirstComments(request.variants);
  const firstComments = planFirstComments(
    { accounts, firstComment: request.firstComment, own: ownComments, formats },
    errors,
  );
  await validateMedia(
    tx,
    { workspaceId: context.workspaceId, mediaIds, kind: request.kind, accounts, formats },
    errors,
  );
  const partMedia = request.parts ? partMediaIds(request.parts) : [];
  await validatePartMedia(tx, { workspaceId: context.workspaceId, partMediaIds: partMedia, accounts }, errors);
  // A draft without a time keeps the moment it was saved as its planned time (where the calendar shows it).
  let scheduledAt = request.scheduledAt ? new Date(request.scheduledAt) : now;
  if (scheduledAt.getTime() < now.getTime() - PAST_TOLERANCE_MS) errors.scheduledAt = ['The time is in the past'];
  if (Object.keys(errors).length > 0) return { store: false, rejection: { kind: 'invalid', errors } };

  if (context.checkSoftDuplicates && !draft) {
    const matches = await findRecentSameText(tx, {
      workspaceId: context.workspaceId,
      texts: accounts.map((a) => ({
        accountId: a.id,
        normalisedText: normaliseText(variants.get(a.id.toLowerCase()) ?? texts[0]!),
      })),
      since: new Date(now.getTime() - DUPLICATE_WINDOW_MS),
    });
    if (matches.length > 0)
      return {
        store: false,
        rejection: {
          kind: 'possible_duplicate',
          matches: matches.map((m) => ({ postId: m.postId, accountId: m.accountId })),
        },
      };
  }

  // "Add to queue": the slot is taken first (its time is the post's), in this same transaction.
  const postId = randomUUID();
  if (request.slot === 'next') {
    const slot = await reserveNextSlot(tx, { workspaceId: context.workspaceId, postId, accounts, now });
    if (!slot.ok)
      return { store: false, rejection: { kind: 'invalid', errors: { slot: [slot.error] }, transient: true } };
    scheduledAt = slot.slotAt;
  }

  const newPost = {
    id: postId,
    workspaceId: context.workspaceId,
    kind: request.kind,
    text: texts[0]!, // a thread's first part: what lists, the calendar and the duplicate check show
    firstComment: request.firstComment ?? null,
    links: request.links ?? null,
    inReplyTo: request.inReplyTo ?? null,
    recipient: request.recipient ?? null,
    scheduledAt,
    source: context.source,
    idempotencyKey: context.idempotencyKey,
    createdByUserId: context.userId ?? null,
    createdByApiKeyId: context.apiKeyId ?? null,
  };
  // "Posts need approval": a new post waits for a decision (never claimed meanwhile); a draft needs none yet.
  const status = draft ? ('draft' as const) : await schedulingStatus(tx, { workspaceId: context.workspaceId });
  const awaiting = status === 'awaiting_approval';
  // A key whose record expired (and was pruned) starts a new request (docs/architecture.md#inbound-idempotency, retention): the earlier
  // post keeps the key, so this one is stored without it; its new key record points at it.
  const created =
    (await insertPostWithDeliveries(tx, {
      post: newPost,
      accountIds,
      parts: content.parts,
      actor: context.actor,
      requestId: context.requestId,
      status,
      formats,
      options,
      firstCommentAccounts: new Set(firstComments.keys()),
    })) ??
    (await insertPostWithDeliveries(tx, {
      post: { ...newPost, idempotencyKey: null },
      accountIds,
      parts: content.parts,
      actor: context.actor,
      requestId: context.requestId,
      status,
      formats,
      options,
      firstCommentAccounts: new Set(firstComments.keys()),
    }))!;
  const { post, parts } = created;
  await insertPostMedia(tx, { postId: post.id, mediaIds });
  for (const [part, ids] of partMedia.entries()) await insertPostMedia(tx, { postId: post.id, part, mediaIds: ids });
  const variantRows = accounts.map((a) => ({
    accountId: a.id,
    text: variants.get(a.id.toLowerCase()),
    firstComment: ownComments.get(a.id.toLowerCase()),
  }));
  await replacePostVariants(tx, { workspaceId: context.workspaceId, postId: post.id, variants: variantRows });
  const byId = new Map(accounts.map((a) => [a.id.toLowerCase(), a]));
  const trackingErrors: FieldErrors = {};
  await writeTrackedTexts(
    tx,
    {
      postId: post.id,
      tracking,
      fresh: true,
      deliveries: created.deliveries.map((d) => {
        const key = d.accountId.toLowerCase();
        const text = content.parts
          ? content.parts[d.part]!
          : d.part === 0
            ? (variants.get(key) ?? texts[0]!)
            : (ownComments.get(key) ?? request.firstComment!);
        return {
          accountId: d.accountId,
          provider: byId.get(key)!.provider,
          handle: byId.get(key)!.handle,
          part: d.part,
          text,
        };
      }),
    },
    trackingErrors,
  );
  if (Object.keys(trackingErrors).length > 0)
    return { store: false, rejection: { kind: 'invalid', errors: trackingErrors } };
  await context.onCreated?.(tx, post.id);
  const deliveries = created.deliveries.map((d) => ({
    ...d,
    variantText: variants.get(d.accountId.toLowerCase()) ?? null,
    variantFirstComment: ownComments.get(d.accountId.toLowerCase()) ?? null,
  }));
  // Wakes the schedulers when this commits. Only for posts due before their longest sleep (30 s): a later
  // one is found by their timer anyway, and NOTIFY serialises commits on a global lock. A draft is never due.
  if (!draft && !awaiting && scheduledAt.getTime() - now.getTime() < NOTIFY_HORIZON_MS) await notifyDue(tx);
  const body: SerializedPost = serializePost(post, deliveries, parts, await getPartMedia(tx, post));
  return {
    store: true,
    status: 201,
    body: JSON.stringify(body),
    resourceId: post.id,
    retainUntil: new Date(scheduledAt.getTime() + RETENTION_AFTER_SCHEDULE_MS),
  };
}
