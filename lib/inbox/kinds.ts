export { INBOX_ITEM_KINDS, type InboxItemKind } from '@/db/inbox-kinds';
