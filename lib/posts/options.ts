import { PROVIDER_META } from '@/lib/providers/catalog';
import type { ProviderName } from '@/lib/providers/types';
import type { FieldErrors } from './targets';

/** The largest options one account may keep (deliveries_options_ck holds the same bound in the database). */
export const MAX_OPTIONS_BYTES = 2048;

/**
 * Each target account's options against its network's schema (ProviderMeta `options`): every account whose network
 * declares one is checked, with `{}` where none were given, so a required choice (TikTok's privacy level) is refused
 * when the post is made, not when it is due. A network without a schema takes none. Errors go to
 * `options.<accountId>` (or `options.<accountId>.<field>`), naming the account. Returns what to store, keyed by
 * lower-case account id, as the schema parsed it.
 */
export function validateOptions(
  params: {
    options: Record<string, Record<string, unknown>> | undefined;
    accounts: { id: string; provider: ProviderName; handle: string }[];
  },
  errors: FieldErrors,
): Map<string, Record<string, unknown>> {
  const given = new Map(Object.entries(params.options ?? {}).map(([id, o]) => [id.toLowerCase(), { id, o }]));
  const chosen = new Map<string, Record<string, unknown>>();
  for (const account of params.accounts) {
    const { label, options: schema } = PROVIDER_META[account.provider];
    const entry = given.get(account.id.toLowerCase());
    const field = `options.${entry?.id ?? account.id}`;
    if (!schema) {
      if (entry && Object.keys(entry.o).length > 0)
        (errors[field] ??= []).push(`${account.handle} (${label}) takes no options: leave them out`);
      continue;
    }
    const parsed = schema.safeParse(entry?.o ?? {});
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const at = issue.path.length > 0 ? `${field}.${issue.path.join('.')}` : field;
        (errors[at] ??= []).push(`${issue.message} (${account.handle}, ${label})`);
      }
      continue;
    }
    if (new TextEncoder().encode(JSON.stringify(parsed.data)).length > MAX_OPTIONS_BYTES)
      (errors[field] ??= []).push(`${account.handle} (${label}): the options are too large`);
    else if (Object.keys(parsed.data).length > 0) chosen.set(account.id.toLowerCase(), parsed.data);
  }
  return chosen;
}
