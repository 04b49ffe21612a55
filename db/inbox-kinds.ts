/** What an inbound item is (docs/inbox.md): a reply under our post, a comment on it, a mention, a direct message. */
export const INBOX_ITEM_KINDS = ['reply', 'comment', 'mention', 'dm'] as const;
export type InboxItemKind = (typeof INBOX_ITEM_KINDS)[number];
