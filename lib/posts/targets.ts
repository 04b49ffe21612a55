import type { Executor } from '@/db/client';
import { getTargetAccounts } from '@/db/queries/posts';
import { PROVIDER_META } from '@/lib/providers/catalog';

export type FieldErrors = Record<string, string[]>;

/**
 * The one target check for creating and editing: every account belongs to the workspace and is still
 * connected, and the text fits each one's platform limit. Adds to `errors`; returns the usable accounts.
 */
export async function validateTargets(
  db: Executor,
  params: { workspaceId: string; accountIds: string[]; text: string },
  errors: FieldErrors,
) {
  const accounts = await getTargetAccounts(db, { workspaceId: params.workspaceId, accountIds: params.accountIds });
  const usable = accounts.filter((a) => !a.disconnectedAt);
  // Another workspace's account is reported exactly like a missing one (I6).
  if (usable.length !== params.accountIds.length)
    errors.accountIds = ['One or more accounts do not exist in this workspace or are disconnected'];
  for (const account of usable) {
    const { countText, textLimit } = PROVIDER_META[account.provider];
    const length = countText(params.text);
    if (length > textLimit)
      (errors.text ??= []).push(`${length}/${textLimit} characters: too long for ${account.handle}`);
  }
  return usable;
}
