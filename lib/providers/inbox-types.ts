import type { InboxItemKind } from '@/db/schema';

// What a network's inbox reader gives the inbox job (docs/inbox.md#reading). A reader is a few streams (X's mentions
// and DMs, Mastodon's notifications, a page's comments…); each `read` is ONE platform call, one page, so the job
// takes one call of the read budget before it (docs/architecture.md#read-budget) and stores the page with its new
// cursor in one transaction.

/** One thing someone said to the account. */
export type InboundItem = {
  /** The platform's id of it (a tweet, a status, a comment, a DM event, an at:// URI): what an answer replies to. */
  platformId: string;
  /** `reply`: under a post (ours or a thread ours is in); the job makes it a `mention` when it is under nothing of ours. */
  kind: InboxItemKind;
  author: { id: string | null; handle: string; name: string | null };
  text: string;
  createdAt: Date;
  url: string | null;
  /** The platform id of what it answers; null for a mention or a DM. */
  inReplyTo: string | null;
  /** A DM's conversation (who it is with); a thread's root where the network names it. */
  conversationId: string | null;
  media: { type: string; url: string }[];
};

/** The account's own message seen by a read: it answered `inReplyTo`, or the DM conversation up to `createdAt`. */
export type OwnMessage = {
  platformId: string;
  inReplyTo: string | null;
  conversationId: string | null;
  createdAt: Date;
  /** What it said (plain text), where the read has it: named when a second answer from Semel is refused. */
  text?: string | null;
};

export type InboxPage = {
  items: InboundItem[];
  own: OwnMessage[];
  /** The cursor to keep for the next read (the stream's own format). */
  cursor: string | null;
  /** Another page is waiting now (read it in this run, budget and lease allowing). */
  more: boolean;
};

export type InboxReadInput = {
  /** What the last stored page kept; null on the stream's first read. */
  cursor: string | null;
  /** A first read goes back no further than this (the inbox starts when the account does). */
  since: Date;
  /** Per-post streams: the account's recent posts, newest first (platform ids), read one per page. */
  posts: { id: string; publishedAt: Date }[];
  timeoutMs?: number;
  signal?: AbortSignal;
};

export type InboxStream = {
  /** Stable: it names the stream's cursor row (`inbox_cursors`). */
  name: string;
  /** One platform call: the page after `cursor`. Throws ProviderReadError when the platform cannot be read. */
  read(input: InboxReadInput): Promise<InboxPage>;
  /** Reads the account's recent posts one per page (a page's comments): `posts` must be given. */
  perPost?: boolean;
};

export type InboxReader = { streams: readonly InboxStream[] };
