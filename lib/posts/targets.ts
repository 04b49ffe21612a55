import type { Executor } from '@/db/client';
import { getTargetAccounts } from '@/db/queries/posts';
import { PROVIDER_META } from '@/lib/providers/catalog';

export type FieldErrors = Record<string, string[]>;

/** Variant texts by account id (lower case), from the API's `{ [accountId]: { text } }`. */
export type VariantTexts = ReadonlyMap<string, string>;

export function variantTexts(variants: Record<string, { text: string }> | undefined): VariantTexts {
  return new Map(Object.entries(variants ?? {}).map(([id, v]) => [id.toLowerCase(), v.text]));
}

/**
 * The one target check for creating and editing: every account belongs to the workspace and is still
 * connected, and the text each one gets (its variant, else the post's text) fits its platform's limit.
 * Adds to `errors` (`text`, or `variants.<accountId>.text`); returns the usable accounts.
 */
export async function validateTargets(
  db: Executor,
  params: { workspaceId: string; accountIds: string[]; text: string; variants?: VariantTexts },
  errors: FieldErrors,
) {
  const accounts = await getTargetAccounts(db, { workspaceId: params.workspaceId, accountIds: params.accountIds });
  const usable = accounts.filter((a) => !a.disconnectedAt);
  // Another workspace's account is reported exactly like a missing one (I6).
  if (usable.length !== params.accountIds.length)
    errors.accountIds = ['One or more accounts do not exist in this workspace or are disconnected'];
  const targets = new Set(params.accountIds.map((id) => id.toLowerCase()));
  for (const id of params.variants?.keys() ?? [])
    if (!targets.has(id)) errors[`variants.${id}`] = ['This account is not one of the post’s accounts'];
  for (const account of usable) {
    const { countText, textLimit } = PROVIDER_META[account.provider];
    const variant = params.variants?.get(account.id.toLowerCase());
    const length = countText(variant ?? params.text);
    if (length > textLimit)
      (errors[variant === undefined ? 'text' : `variants.${account.id}.text`] ??= []).push(
        `${length}/${textLimit} characters: too long for ${account.handle}`,
      );
  }
  return usable;
}
