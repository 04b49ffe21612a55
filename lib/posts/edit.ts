import type { Database, Transaction } from '@/db/client';
import {
  addDeliveries,
  applyEditToDeliveries,
  replaceDeliveryOptions,
  lockDeliveriesForEdit,
  removeDroppedParts,
  requestApprovalForDeliveries,
  scheduleDraftDeliveries,
  schedulingStatus,
} from '@/db/queries/deliveries';
import { replacePostVariants } from '@/db/queries/post-variants';
import { replacePartMedia } from '@/db/queries/media';
import { getPostWithDeliveries, getTargetAccounts, replacePostParts, updatePostContent } from '@/db/queries/posts';
import { notifyDue } from '@/db/queries/publishing';
import { releaseSlotReservations } from '@/db/queries/slots';
import { fingerprint } from '@/lib/idempotency/fingerprint';
import { runIdempotentPrepared, type OperationResult } from '@/lib/idempotency/run-idempotent';
import { settleIdempotent, type KeyRefusal } from '@/lib/idempotency/settle';
import { prepareLinkTracking, writeTrackedTexts, type LinkTracking } from '@/lib/links/track';
import { reserveNextSlot } from '@/lib/slots/next-slot';
import { validateMedia, validatePartMedia } from './media';
import { validateOptions } from './options';
import type { EditPostRequest } from './schemas';
import { serializePost, type SerializedPost } from './serialize';
import { planFirstComments } from './first-comment';
import { validateTargets, variantFirstComments, variantTexts, type FieldErrors, type VariantTexts } from './targets';

export type EditConflictReason = 'already_publishing' | 'already_sent' | 'not_editable';
export type DeliveryState = { id: string; accountId: string; status: string };

/** The transaction's own answer (editScheduledPost). */
export type EditResult =
  | { ok: true; post: SerializedPost }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'invalid'; errors: FieldErrors }
  | { ok: false; reason: EditConflictReason; deliveries: DeliveryState[] };

/** Refused without storing anything under the key. */
type EditRejection = { kind: 'not_found' } | { kind: 'invalid'; errors: FieldErrors };

type EditOutcome =
  | { kind: 'ok'; post: SerializedPost; replayed: boolean }
  | EditRejection
  | { kind: 'conflict'; reason: EditConflictReason; deliveries: DeliveryState[]; replayed: boolean };

/** The edit use case's answer, for the API and the post page alike. */
export type EditPostResult = EditOutcome | KeyRefusal;

export const EDIT_POST_OPERATION = 'posts.update';
/** Not yet claimed nor settled: an edit may still land (awaiting approval included: it is a new revision). */
const EDITABLE = new Set(['scheduled', 'draft', 'awaiting_approval']);
const EDIT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

type EditParams = {
  workspaceId: string;
  postId: string;
  changes: EditPostRequest;
  actor: string;
  now?: Date;
  /**
   * The post's tracked links as edited (prepareEditLinks); `unchanged`: the edit leaves its texts, accounts and links
   * as they are, so its tracked texts stay as they were made; absent: read nothing, track nothing.
   */
  tracking?: LinkTracking | null | 'unchanged';
};

/** What an edit must change for its tracked links to be made again: its texts, its accounts or its link options. */
const LINK_INPUTS = ['text', 'parts', 'variants', 'firstComment', 'accountIds', 'links'] as const;
const touchesLinks = (changes: EditPostRequest) => LINK_INPUTS.some((field) => changes[field] !== undefined);

/**
 * The edited post's tracked links, before its transaction (short links may call an external shortener): its texts and
 * accounts as the edit leaves them. A concurrent edit may add a link meanwhile: that one is published as written.
 */
async function prepareEditLinks(db: Database, params: EditParams) {
  const current = await getPostWithDeliveries(db, params);
  if (!current) return { ok: true as const, tracking: null };
  const c = params.changes;
  const accountIds = c.accountIds ?? [...new Set(current.deliveries.map((d) => d.accountId))];
  return prepareLinkTracking(db, {
    workspaceId: params.workspaceId,
    providers: async () =>
      (await getTargetAccounts(db, { workspaceId: params.workspaceId, accountIds })).map((a) => a.provider),
    texts: [
      c.text ?? current.post.text,
      ...(c.parts?.map((p) => p.text) ?? current.parts),
      ...(c.variants
        ? Object.values(c.variants).flatMap((v) => [v.text, v.firstComment])
        : current.deliveries.flatMap((d) => [d.variantText, d.variantFirstComment])),
      c.firstComment !== undefined ? c.firstComment : current.post.firstComment,
    ].filter((t): t is string => typeof t === 'string'),
    options: c.links ?? current.post.links,
  });
}

/**
 * Edits a post. With an Idempotency-Key (the API) the answer — the edited post, or the conflict that
 * refused it — is stored and replayed; without one (the post page) it is one transaction.
 */
export async function editPost(
  db: Database,
  params: EditParams & { idempotencyKey?: string },
): Promise<EditPostResult> {
  // Links are tracked again only when the edit changes what they come from (a pure reschedule keeps the texts as they
  // were published with), and — keyed — only under the held key, after its replay check: a replay never calls a
  // shortener nor answers anything but the stored response.
  const prepare = async (): Promise<
    { ok: true; value: LinkTracking | null | 'unchanged' } | { ok: false; rejection: EditRejection }
  > => {
    if (!touchesLinks(params.changes)) return { ok: true, value: 'unchanged' };
    const prepared = await prepareEditLinks(db, params);
    return prepared.ok
      ? { ok: true, value: prepared.tracking }
      : { ok: false, rejection: { kind: 'invalid', errors: prepared.errors } };
  };
  if (!params.idempotencyKey) {
    const prepared = await prepare();
    if (!prepared.ok) return prepared.rejection;
    return fromEditResult(await editScheduledPost(db, { ...params, tracking: prepared.value }));
  }
  const { idempotencyKey, ...edit } = params;
  let executed: EditOutcome | undefined; // the typed answer of this run; only a replay reads the stored one back
  const outcome = await runIdempotentPrepared<LinkTracking | null | 'unchanged', EditRejection>(
    db,
    {
      workspaceId: params.workspaceId,
      operation: EDIT_POST_OPERATION,
      key: idempotencyKey,
      fingerprint: fingerprint({ postId: params.postId, ...params.changes }),
    },
    {
      prepare,
      operation: async (tx, tracking): Promise<OperationResult<EditRejection>> => {
        const result = fromEditResult(await editInSavepoint(tx, { ...edit, tracking }));
        executed = result;
        if (result.kind === 'not_found' || result.kind === 'invalid') return { store: false, rejection: result };
        const retainUntil = new Date(Date.now() + EDIT_RETENTION_MS);
        if (result.kind === 'ok')
          return {
            store: true,
            status: 200,
            body: JSON.stringify(result.post),
            resourceId: params.postId,
            retainUntil,
          };
        // A refusal is stored too: a retry of this key gets the same answer even after the post changes.
        return {
          store: true,
          status: 409,
          body: JSON.stringify({ reason: result.reason, deliveries: result.deliveries }),
          resourceId: params.postId,
          retainUntil,
        };
      },
    },
  );
  return settleIdempotent(outcome, {
    answered: (response, replayed): EditPostResult => {
      if (!replayed) return executed!;
      const stored = JSON.parse(response.body);
      return response.status === 200
        ? { kind: 'ok', post: stored as SerializedPost, replayed: true }
        : {
            kind: 'conflict',
            ...(stored as { reason: EditConflictReason; deliveries: DeliveryState[] }),
            replayed: true,
          };
    },
    rejected: (rejection) => rejection,
  });
}

function fromEditResult(result: EditResult): EditOutcome {
  if (result.ok) return { kind: 'ok', post: result.post, replayed: false };
  if (result.reason === 'not_found') return { kind: 'not_found' };
  if (result.reason === 'invalid') return { kind: 'invalid', errors: result.errors };
  return { kind: 'conflict', reason: result.reason, deliveries: result.deliveries, replayed: false };
}

/**
 * Edits a scheduled post only while none of its deliveries is claimed or settled: the deliveries are
 * locked first, so an edit racing the publisher either lands before the claim (the new text is what
 * gets published) or is refused after it (the old text was already claimed) — never both.
 */
export async function editScheduledPost(db: Database, params: EditParams): Promise<EditResult> {
  try {
    return await db.transaction((tx) => editScheduledPostInTransaction(tx, params));
  } catch (error) {
    if (error instanceof InvalidEdit) return { ok: false, reason: 'invalid', errors: error.errors };
    throw error;
  }
}

/** Found after the edit's writes began (a tracked link too long for a network): thrown so the writes roll back. */
class InvalidEdit extends Error {
  constructor(readonly errors: FieldErrors) {
    super('invalid edit');
  }
}

/** The edit in a savepoint of the key's transaction: a refusal found after its writes undoes them alone. */
async function editInSavepoint(tx: Transaction, params: EditParams): Promise<EditResult> {
  try {
    return await tx.transaction((sp) => editScheduledPostInTransaction(sp, params));
  } catch (error) {
    if (error instanceof InvalidEdit) return { ok: false, reason: 'invalid', errors: error.errors };
    throw error;
  }
}

async function editScheduledPostInTransaction(tx: Transaction, params: EditParams): Promise<EditResult> {
  {
    const locked = await lockDeliveriesForEdit(tx, params);
    if (locked.length === 0) return { ok: false, reason: 'not_found' } as const;
    const live = locked.filter((d) => d.status !== 'canceled');
    // An earlier attempt whose outcome was unknown may still surface on the platform: reconciliation
    // matches on the text, so the text must not change under it. A draft was never claimed.
    const blocked = live.filter((d) => !EDITABLE.has(d.status) || d.claimed || d.mayBeLive);
    if (live.length === 0 || blocked.length > 0) {
      const reason =
        live.length === 0
          ? 'not_editable'
          : blocked.some((d) => d.status === 'publishing' || d.claimed || d.mayBeLive)
            ? 'already_publishing'
            : 'already_sent';
      return {
        ok: false,
        reason,
        deliveries: locked.map((d) => ({
          id: d.id,
          accountId: d.accountId,
          status: d.claimed && d.status === 'scheduled' ? 'publishing' : d.status,
        })),
      } as const;
    }
    const now = params.now ?? new Date();
    const isDraft = live.some((d) => d.status === 'draft');
    const awaiting = live.some((d) => d.status === 'awaiting_approval');
    const baseStatus = isDraft ? 'draft' : awaiting ? 'awaiting_approval' : 'scheduled';
    const scheduling = isDraft && params.changes.status === 'scheduled';
    const current = (await getPostWithDeliveries(tx, params))!;
    const thread = current.post.kind === 'thread';
    const parts = thread ? (params.changes.parts?.map((p) => p.text) ?? current.parts) : undefined;
    const text = parts ? parts[0]! : (params.changes.text ?? current.post.text);
    let scheduledAt = params.changes.scheduledAt ? new Date(params.changes.scheduledAt) : current.post.scheduledAt;
    const targetIds = [...new Set(params.changes.accountIds ?? live.map((d) => d.accountId))];
    const variants = params.changes.variants
      ? variantTexts(params.changes.variants)
      : keptVariants(current.deliveries, targetIds);
    const ownComments = params.changes.variants
      ? variantFirstComments(params.changes.variants)
      : keptVariants(current.deliveries, targetIds, 'variantFirstComment');
    const firstComment =
      params.changes.firstComment !== undefined ? params.changes.firstComment : current.post.firstComment;

    const errors: FieldErrors = {};
    if (thread && params.changes.text !== undefined) errors.text = ["A thread's text is in its parts: send `parts`"];
    if (!thread && params.changes.parts !== undefined) errors.parts = ['Only threads have parts'];
    if (current.post.kind !== 'post' && (params.changes.firstComment != null || ownComments.size > 0))
      errors.firstComment = ['Only posts take a first comment'];
    const accounts = await validateTargets(
      tx,
      {
        workspaceId: params.workspaceId,
        accountIds: targetIds,
        kind: current.post.kind,
        variants,
        ...(parts ? { parts } : { text }),
      },
      errors,
    );
    // A part's images: the ones sent, else those its position had. Checked again whenever the parts or the
    // accounts change (a new account's network has its own limits).
    const partMediaIds = thread
      ? (params.changes.parts ?? current.parts.map(() => ({ mediaIds: undefined }))).map(
          (p, i) => p.mediaIds ?? (current.partMedia[i] ?? []).map((m) => m.id),
        )
      : [];
    if (thread && (params.changes.parts || params.changes.accountIds))
      await validatePartMedia(tx, { workspaceId: params.workspaceId, partMediaIds, accounts }, errors);
    const formats = new Map(
      current.deliveries.filter((d) => d.format && d.part === 0).map((d) => [d.accountId.toLowerCase(), d.format!]),
    );
    // A post's own media against the accounts it now goes to: an added Instagram or TikTok account needs an image or
    // a video, and every network its own limits, in the format each kept account chose.
    if (!thread && params.changes.accountIds) {
      const mediaIds = (current.partMedia[0] ?? []).map((m) => m.id);
      await validateMedia(
        tx,
        { workspaceId: params.workspaceId, mediaIds, kind: current.post.kind, accounts, formats },
        errors,
      );
    }
    // Options: the ones sent replace the named accounts', the others keep theirs; checked whenever either changes (an
    // added TikTok account needs its privacy level).
    const options = { ...keptOptions(current.deliveries, targetIds), ...(params.changes.options ?? {}) };
    for (const accountId of Object.keys(params.changes.options ?? {}))
      if (!targetIds.some((id) => id.toLowerCase() === accountId.toLowerCase()))
        (errors[`options.${accountId}`] ??= []).push('Not one of the post’s accounts');
    const checkedOptions =
      params.changes.options || params.changes.accountIds ? validateOptions({ options, accounts }, errors) : null;
    const optionsToStore = checkedOptions ?? new Map(Object.entries(options).map(([id, o]) => [id.toLowerCase(), o]));
    const firstComments = planFirstComments({ accounts, firstComment, own: ownComments, formats }, errors);
    const reAdded = targetIds.filter((id) => locked.some((d) => d.accountId === id && d.status === 'canceled'));
    if (reAdded.length)
      errors.accountIds = ['An account removed from this post cannot be added back; create a new post for it'];
    if ((params.changes.scheduledAt || scheduling) && scheduledAt.getTime() < now.getTime() - 60_000)
      errors.scheduledAt = [
        params.changes.scheduledAt ? 'The time is in the past' : 'The draft’s planned time has passed: give a time',
      ];
    if (params.changes.slot && isDraft && !scheduling)
      errors.slot = ['A draft takes no slot: schedule it (status "scheduled") to add it to the queue'];
    if (Object.keys(errors).length) return { ok: false, reason: 'invalid', errors } as const;

    // The post leaves the slots it held unless it stays at their time; "next slot" takes new ones.
    if (params.changes.slot) {
      await releaseSlotReservations(tx, params);
      const slot = await reserveNextSlot(tx, { workspaceId: params.workspaceId, postId: params.postId, accounts, now });
      if (!slot.ok) return { ok: false, reason: 'invalid', errors: { slot: [slot.error] } } as const;
      scheduledAt = slot.slotAt;
    } else {
      await releaseSlotReservations(tx, { ...params, keepAt: scheduledAt });
    }
    const removed = live.filter((d) => !targetIds.includes(d.accountId));
    if (removed.length) await releaseSlotReservations(tx, { ...params, accountIds: removed.map((d) => d.accountId) });

    await updatePostContent(tx, {
      workspaceId: params.workspaceId,
      postId: params.postId,
      text,
      firstComment: thread ? undefined : firstComment,
      links: params.changes.links,
      scheduledAt,
    });
    // A thread's parts are replaced as a whole; a post has part 0, and part 1 (its first comment) on each account that
    // publishes one. Parts an edit drops were never claimed (nothing is while the post is editable), so their
    // deliveries go; the new positions get one per account.
    const threadPositions = parts ? parts.map((_, position) => position) : [0];
    const positionsOf = (accountId: string) =>
      thread ? threadPositions : firstComments.has(accountId.toLowerCase()) ? [0, 1] : [0];
    if (parts && params.changes.parts) {
      await replacePostParts(tx, { workspaceId: params.workspaceId, postId: params.postId, parts });
      await replacePartMedia(tx, { workspaceId: params.workspaceId, postId: params.postId, partMediaIds });
    }
    const dropped = locked.filter((d) => d.part >= positionsOf(d.accountId).length).map((d) => d.id);
    const removedParts = await removeDroppedParts(tx, {
      workspaceId: params.workspaceId,
      postId: params.postId,
      ids: dropped,
    });
    if (removedParts.length !== dropped.length) throw new Error('a dropped part could not be removed');
    const remaining = live.filter((d) => !dropped.includes(d.id));
    await replacePostVariants(tx, {
      workspaceId: params.workspaceId,
      postId: params.postId,
      variants: accounts.map((a) => ({
        accountId: a.id,
        text: variants.get(a.id.toLowerCase()),
        firstComment: ownComments.get(a.id.toLowerCase()),
      })),
    });
    await applyEditToDeliveries(tx, {
      workspaceId: params.workspaceId,
      postId: params.postId,
      dueAt: scheduledAt,
      actor: params.actor,
      // A draft being scheduled is re-timed by its scheduling (one history row: draft → scheduled).
      keep: scheduling ? [] : remaining.filter((d) => targetIds.includes(d.accountId)).map((d) => d.id),
      remove: remaining.filter((d) => !targetIds.includes(d.accountId)).map((d) => d.id),
      status: baseStatus,
    });
    for (const accountId of targetIds.filter((id) => locked.some((d) => d.accountId === id))) {
      const missing = positionsOf(accountId).filter(
        (part) => !locked.some((d) => d.accountId === accountId && d.part === part),
      );
      await addDeliveries(tx, {
        workspaceId: params.workspaceId,
        postId: params.postId,
        dueAt: scheduledAt,
        actor: params.actor,
        status: baseStatus,
        accountIds: [accountId],
        parts: missing,
        reason: thread ? 'thread part added by an edit' : 'first comment added by an edit',
        options: optionsToStore,
      });
    }
    await addDeliveries(tx, {
      workspaceId: params.workspaceId,
      postId: params.postId,
      dueAt: scheduledAt,
      status: baseStatus,
      actor: params.actor,
      accountIds: targetIds.filter((id) => !locked.some((d) => d.accountId === id)),
      parts: threadPositions,
      partsByAccount: new Map(targetIds.map((id) => [id.toLowerCase(), positionsOf(id)])),
      reason: 'account added by an edit',
      options: optionsToStore,
    });
    // The texts as published, links tracked, for every delivery the post now has on its accounts (an edit that leaves
    // texts, accounts and links alone keeps the ones it has).
    const trackingErrors: FieldErrors = {};
    if (params.tracking !== 'unchanged' || touchesLinks(params.changes))
      await writeTrackedTexts(
        tx,
        {
          postId: params.postId,
          tracking: params.tracking === 'unchanged' ? null : (params.tracking ?? null),
          deliveries: accounts.flatMap((a) =>
            positionsOf(a.id).map((part) => ({
              accountId: a.id,
              provider: a.provider,
              handle: a.handle,
              part,
              text: parts
                ? parts[part]!
                : part === 0
                  ? (variants.get(a.id.toLowerCase()) ?? text)
                  : (ownComments.get(a.id.toLowerCase()) ?? firstComment ?? ''),
            })),
          ),
        },
        trackingErrors,
      );
    if (Object.keys(trackingErrors).length) throw new InvalidEdit(trackingErrors);
    if (params.changes.options && checkedOptions)
      await replaceDeliveryOptions(tx, {
        workspaceId: params.workspaceId,
        postId: params.postId,
        options: new Map(
          targetIds
            .filter((id) => locked.some((d) => d.accountId === id))
            .map((id) => [id, checkedOptions.get(id.toLowerCase()) ?? null]),
        ),
      });
    // "Posts need approval": an edit (new revision) waits for a decision again, also after an approval; so does
    // a draft being scheduled. Its deliveries are locked and unclaimed here, so no claim can slip in between.
    const rule = await schedulingStatus(tx, { workspaceId: params.workspaceId });
    const needsApproval = (!isDraft || scheduling) && (awaiting || rule === 'awaiting_approval');
    const dueScope = {
      workspaceId: params.workspaceId,
      postId: params.postId,
      dueAt: scheduledAt,
      actor: params.actor,
    };
    if (needsApproval)
      await requestApprovalForDeliveries(tx, { ...dueScope, from: scheduling ? ['draft'] : ['scheduled'] });
    else if (scheduling) await scheduleDraftDeliveries(tx, dueScope);
    if ((!isDraft || scheduling) && !needsApproval) await notifyDue(tx);
    const after = (await getPostWithDeliveries(tx, params))!;
    return { ok: true, post: serializePost(after.post, after.deliveries, after.parts, after.partMedia) } as const;
  }
}

/** The options each remaining account has now (part 0's: every part of an account has the same). */
function keptOptions(
  deliveries: { accountId: string; part: number; status: string; options: Record<string, unknown> | null }[],
  targetIds: string[],
): Record<string, Record<string, unknown>> {
  const targets = new Set(targetIds.map((id) => id.toLowerCase()));
  return Object.fromEntries(
    deliveries
      .filter((d) => d.options && d.part === 0 && d.status !== 'canceled' && targets.has(d.accountId.toLowerCase()))
      .map((d) => [d.accountId, d.options!]),
  );
}

/** Without new variants an edit keeps the current ones (texts or first comments), but for accounts it removes. */
function keptVariants(
  deliveries: {
    accountId: string;
    part: number;
    status: string;
    variantText: string | null;
    variantFirstComment: string | null;
  }[],
  targetIds: string[],
  column: 'variantText' | 'variantFirstComment' = 'variantText',
): VariantTexts {
  const targets = new Set(targetIds.map((id) => id.toLowerCase()));
  return new Map(
    deliveries
      .filter(
        (d) => d.part === 0 && d[column] !== null && d.status !== 'canceled' && targets.has(d.accountId.toLowerCase()),
      )
      .map((d) => [d.accountId.toLowerCase(), d[column]!]),
  );
}
