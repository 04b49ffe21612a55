import type { InboxItemKind, ProviderName } from '@/db/schema';
import { PROVIDER_META } from '@/lib/providers/catalog';

// How an inbound item is answered on its network (docs/inbox.md#networks): a reply to it (a post of kind `reply`
// naming it), or a DM to its author (kind `dm`), where Semel publishes that kind on the network; else it is read in
// Semel and answered on the network itself. Browser-safe: the inbox page asks it too.

export type Answerable =
  | { ok: true; kind: 'reply'; fields: { inReplyTo: string } }
  | { ok: true; kind: 'dm'; fields: { recipient: string } }
  | { ok: false; reason: string };

type ItemLike = {
  provider: ProviderName;
  kind: InboxItemKind;
  platformId: string;
  authorPlatformId: string | null;
  authorHandle: string;
};

/** What a DM is addressed to on each network that takes one: X a user id, Mastodon an `acct` (its handle). */
function dmRecipient(item: ItemLike): string | null {
  if (item.provider === 'x') return item.authorPlatformId;
  if (item.provider === 'mastodon') return item.authorHandle.replace(/^@/, '');
  return null;
}

export function answerTarget(item: ItemLike): Answerable {
  const meta = PROVIDER_META[item.provider];
  if (item.kind === 'dm') {
    const recipient = dmRecipient(item);
    if (!meta.kinds.includes('dm') || !recipient)
      return { ok: false, reason: `Semel does not send ${meta.label} direct messages: answer it on ${meta.label}.` };
    return { ok: true, kind: 'dm', fields: { recipient } };
  }
  if (!meta.kinds.includes('reply') || meta.replies?.threadOnly)
    return {
      ok: false,
      reason: `Semel does not publish replies to ${meta.label} ${meta.replies?.noun ?? 'comments'}: answer it on ${meta.label}.`,
    };
  return { ok: true, kind: 'reply', fields: { inReplyTo: item.platformId } };
}
