import { PROVIDER_META } from '@/lib/providers/catalog';
import type { ProviderName } from '@/lib/providers/types';
import type { FieldErrors, VariantTexts } from './targets';

/** A hashtag as Instagram counts one: # and letters, digits or _. */
const HASHTAG = /#[\p{L}\p{N}_]+/gu;

/**
 * Whether a network takes a post's first comment: one whose meta takes replies (X, Mastodon, Bluesky, Threads: a
 * reply of its own; Instagram: a comment), and not an Instagram story (stories take no comments). Browser-safe.
 */
export function takesFirstComment(provider: ProviderName, format?: string | null): boolean {
  return (PROVIDER_META[provider].kinds as readonly string[]).includes('reply') && format !== 'story';
}

/** What people call a first comment on this network (Instagram: a comment; elsewhere a reply). */
export function firstCommentNoun(provider: ProviderName): string {
  return PROVIDER_META[provider].replies?.noun ?? 'reply';
}

/**
 * The first comment each account publishes (docs/architecture.md#first-comments), keyed by lower-case account id:
 * its variant's, else the post's, on every account whose network takes one (`takesFirstComment`). An account's own
 * first comment on a network that takes none is a field error; the post's is left out there (the post goes alone).
 * Each text is checked against the network's reply limits (Instagram's comment: 2,200 characters, 30 hashtags).
 */
export function planFirstComments(
  params: {
    accounts: readonly { id: string; provider: ProviderName; handle: string }[];
    firstComment?: string | null;
    /** Each account's own first comment (its variant's), keyed by lower-case account id. */
    own?: VariantTexts;
    /** Each account's format (an Instagram story takes none), keyed by lower-case account id. */
    formats?: ReadonlyMap<string, string>;
  },
  errors: FieldErrors,
): Map<string, string> {
  const plan = new Map<string, string>();
  for (const account of params.accounts) {
    const key = account.id.toLowerCase();
    const own = params.own?.get(key);
    const text = own ?? params.firstComment ?? undefined;
    if (text === undefined) continue;
    const field = own !== undefined ? `variants.${account.id}.firstComment` : 'firstComment';
    const { label, countText, textLimit, replies } = PROVIDER_META[account.provider];
    if (!takesFirstComment(account.provider, params.formats?.get(key))) {
      if (own !== undefined)
        (errors[field] ??= []).push(
          `${label} ${params.formats?.get(key) === 'story' ? 'stories take' : 'takes'} no first comment (${account.handle})`,
        );
      continue;
    }
    const limit = replies?.textLimit ?? textLimit;
    const length = countText(text);
    if (length > limit)
      (errors[field] ??= []).push(`${length}/${limit} characters: too long for a first comment on ${account.handle}`);
    const hashtags = (text.match(HASHTAG) ?? []).length;
    if (replies && hashtags > replies.maxHashtags)
      (errors[field] ??= []).push(
        `${hashtags} hashtags: a ${replies.noun} on ${account.handle} takes at most ${replies.maxHashtags}`,
      );
    plan.set(key, text);
  }
  return plan;
}
