import type { Executor } from '@/db/client';
import { getTargetAccounts } from '@/db/queries/posts';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { PostKind } from '@/lib/providers/types';

export type FieldErrors = Record<string, string[]>;

/** A hashtag as Instagram counts one: # and letters, digits or _. */
const HASHTAG = /#[\p{L}\p{N}_]+/gu;

const KIND_NAMES: Record<PostKind, string> = { post: 'posts', reply: 'replies', dm: 'direct messages' };

/** What a post publishes: one text, or a thread's parts (each checked on its own, reported as `parts.<i>.text`). */
export type PostContent = { text: string; parts?: undefined } | { text?: undefined; parts: string[] };

/** Variant texts by account id (lower case), from the API's `{ [accountId]: { text } }`. */
export type VariantTexts = ReadonlyMap<string, string>;

export function variantTexts(variants: Record<string, { text?: string }> | undefined): VariantTexts {
  return new Map(
    Object.entries(variants ?? {}).flatMap(([id, v]) => (v.text === undefined ? [] : [[id.toLowerCase(), v.text]])),
  );
}

/** Each account's own first comment, by account id (lower case), from the API's `{ [accountId]: { firstComment } }`. */
export function variantFirstComments(variants: Record<string, { firstComment?: string }> | undefined): VariantTexts {
  return new Map(
    Object.entries(variants ?? {}).flatMap(([id, v]) =>
      v.firstComment === undefined ? [] : [[id.toLowerCase(), v.firstComment]],
    ),
  );
}

/**
 * The one target check for creating and editing: every account belongs to the workspace and is still
 * connected, its network takes this kind of post (LinkedIn has no replies; a thread's parts are published as
 * replies), and the text each one gets fits its platform limit: every part of a thread, else its variant, else
 * the post's text. A thread has no variants. Adds to `errors` (`text`, `parts.<i>.text` or
 * `variants.<accountId>.text`); returns the usable accounts.
 */
export async function validateTargets(
  db: Executor,
  params: {
    workspaceId: string;
    accountIds: string[];
    kind: PostKind | 'thread';
    variants?: VariantTexts;
  } & PostContent,
  errors: FieldErrors,
) {
  const accounts = await getTargetAccounts(db, { workspaceId: params.workspaceId, accountIds: params.accountIds });
  return checkTargets(accounts, params, errors);
}

export type TargetAccount = Awaited<ReturnType<typeof getTargetAccounts>>[number];

/**
 * validateTargets' checks on accounts already read (the workspace's accounts among `accountIds`): for callers
 * that check many posts against one read, such as a CSV import (lib/imports/).
 */
export function checkTargets(
  accounts: readonly TargetAccount[],
  params: { accountIds: string[]; kind: PostKind | 'thread'; variants?: VariantTexts } & PostContent,
  errors: FieldErrors,
) {
  const usable = accounts.filter((a) => !a.disconnectedAt);
  // Another workspace's account is reported exactly like a missing one (I6).
  if (usable.length !== params.accountIds.length)
    errors.accountIds = ['One or more accounts do not exist in this workspace or are disconnected'];
  const targets = new Set(params.accountIds.map((id) => id.toLowerCase()));
  for (const id of params.variants?.keys() ?? [])
    if (!targets.has(id)) errors[`variants.${id}`] = ['This account is not one of the post’s accounts'];
  if (params.parts && (params.variants?.size ?? 0) > 0)
    (errors.variants ??= []).push('A thread has no per-account texts: each part is published as written');
  for (const account of usable) {
    const { countText, textLimit, kinds, label, replies } = PROVIDER_META[account.provider];
    // Refused here, not at publish time, where it could only fail.
    if (params.parts) {
      if (!kinds.includes('reply'))
        (errors.accountIds ??= []).push(
          `${label} cannot publish threads (it takes no replies): remove ${account.handle} or post it separately`,
        );
      else if (replies && params.parts.length > replies.maxThreadParts)
        (errors.parts ??= []).push(
          `${label} takes a post and ${replies.maxThreadParts - 1} ${replies.noun} (${account.handle}): at most ${replies.maxThreadParts} parts`,
        );
    } else if (params.kind === 'reply' && replies?.threadOnly)
      (errors.accountIds ??= []).push(
        `${label} takes a ${replies.noun} only as a thread's second part, the post's first ${replies.noun} (${account.handle})`,
      );
    else if (params.kind !== 'thread' && !(kinds as readonly PostKind[]).includes(params.kind))
      (errors.accountIds ??= []).push(
        `${label} takes ${kinds.map((k) => KIND_NAMES[k]).join(' and ')} only: ${account.handle}`,
      );
    const variant = params.parts ? undefined : params.variants?.get(account.id.toLowerCase());
    const texts = params.parts
      ? params.parts.map((text, i) => ({ text, field: `parts.${i}.text` }))
      : variant !== undefined
        ? [{ text: variant, field: `variants.${account.id}.text` }]
        : [{ text: params.text, field: 'text' }];
    for (const [i, { text, field }] of texts.entries()) {
      // A thread's later parts and a reply are the network's replies (Instagram: comments, with their own limit).
      const reply = params.parts ? i > 0 : params.kind === 'reply';
      const limit = reply && replies ? replies.textLimit : textLimit;
      const length = countText(text);
      if (length > limit)
        (errors[field] ??= []).push(
          `${length}/${limit} characters: too long for ${account.handle}${reply && replies ? ` (a ${replies.noun})` : ''}`,
        );
      const hashtags = (text.match(HASHTAG) ?? []).length;
      if (reply && replies && hashtags > replies.maxHashtags)
        (errors[field] ??= []).push(
          `${hashtags} hashtags: a ${replies.noun} on ${account.handle} takes at most ${replies.maxHashtags}`,
        );
    }
  }
  return usable;
}
