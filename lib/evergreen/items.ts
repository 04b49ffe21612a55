import type { Executor } from '@/db/client';
import { getTargetAccounts } from '@/db/queries/posts';
import { postTextSchema } from '@/lib/posts/schemas';
import type { FieldErrors } from '@/lib/posts/targets';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { ProviderName } from '@/lib/providers/types';

/** Networks that refuse a text they already have (X: "duplicate content"; LinkedIn: DUPLICATE_POST): variants in turn. */
export const REFUSES_IDENTICAL_TEXT: ReadonlySet<ProviderName> = new Set(['x', 'linkedin']);

/**
 * Checks an evergreen item before it joins its queue (added, edited, or a feed's item in mode `queue`): its text and
 * each variant a post's text (postTextSchema), and within the limit of every account that will publish it — the text
 * on each of the queue's accounts, a variant on those that get variants. An item refused here would be refused at
 * every turn. Returns field errors (`text`, `variants`); none: it fits.
 */
export async function checkQueueItem(
  db: Executor,
  params: { workspaceId: string; accountIds: string[]; text: string; variants: string[] },
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const parsed = postTextSchema.safeParse(params.text);
  if (!parsed.success) add('text', parsed.error.issues[0]!.message);
  for (const [i, variant] of params.variants.entries()) {
    const ok = postTextSchema.safeParse(variant);
    if (!ok.success) add('variants', `Variant ${i + 1}: ${ok.error.issues[0]!.message}`);
  }
  if (Object.keys(errors).length > 0) return errors;
  const accounts = await getTargetAccounts(db, { workspaceId: params.workspaceId, accountIds: params.accountIds });
  for (const account of accounts) {
    const { countText, textLimit } = PROVIDER_META[account.provider];
    const texts = [
      { field: 'text', label: 'The text', text: params.text },
      ...(REFUSES_IDENTICAL_TEXT.has(account.provider)
        ? params.variants.map((text, i) => ({ field: 'variants', label: `Variant ${i + 1}`, text }))
        : []),
    ];
    for (const t of texts) {
      const length = countText(t.text);
      if (length > textLimit)
        add(t.field, `${t.label}: ${length}/${textLimit} characters, too long for ${account.handle}`);
    }
  }
  return errors;
}
