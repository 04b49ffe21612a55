import type { Executor } from '@/db/client';
import { getTargetAccounts } from '@/db/queries/posts';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { PostKind } from '@/lib/providers/types';

export type FieldErrors = Record<string, string[]>;

const KIND_NAMES: Record<PostKind, string> = { post: 'posts', reply: 'replies', dm: 'direct messages' };

/**
 * The one target check for creating and editing: every account belongs to the workspace and is still
 * connected, its network takes this kind of post (LinkedIn has no replies), and the text fits each one's
 * platform limit. Adds to `errors`; returns the usable accounts.
 */
export async function validateTargets(
  db: Executor,
  params: { workspaceId: string; accountIds: string[]; text: string; kind: PostKind },
  errors: FieldErrors,
) {
  const accounts = await getTargetAccounts(db, { workspaceId: params.workspaceId, accountIds: params.accountIds });
  const usable = accounts.filter((a) => !a.disconnectedAt);
  // Another workspace's account is reported exactly like a missing one (I6).
  if (usable.length !== params.accountIds.length)
    errors.accountIds = ['One or more accounts do not exist in this workspace or are disconnected'];
  for (const account of usable) {
    const { countText, textLimit, kinds, label } = PROVIDER_META[account.provider];
    // Refused here, not at publish time, where it could only fail.
    if (!(kinds as readonly PostKind[]).includes(params.kind))
      (errors.accountIds ??= []).push(
        `${label} takes ${kinds.map((k) => KIND_NAMES[k]).join(' and ')} only: ${account.handle}`,
      );
    const length = countText(params.text);
    if (length > textLimit)
      (errors.text ??= []).push(`${length}/${textLimit} characters: too long for ${account.handle}`);
  }
  return usable;
}
