/** The inbox page's filters, as in its URL. */
export type InboxQuery = {
  status?: string;
  account?: string;
  network?: string;
  kind?: string;
  assignedTo?: string;
};

/** One calendar read: the fetched range (ISO) and the filters in the URL. */
export type CalendarQuery = { from: string; to: string; account?: string; status?: string };

/**
 * Every React Query key in one place: the server prefetch, the client query and each invalidation use the
 * same function, so a prefetched page hydrates the query the component reads.
 */
export const queryKeys = {
  /** Prefix of every accounts query of a workspace (what a connect or disconnect invalidates). */
  accounts: (workspaceId: string) => ['accounts', workspaceId] as const,
  accountsWithDisconnected: (workspaceId: string) => ['accounts', workspaceId, 'with-disconnected'] as const,
  /** Prefix of every workspace's queue (a cancel invalidates it wherever it was issued). */
  queues: () => ['queue'] as const,
  queue: (workspaceId: string) => ['queue', workspaceId] as const,
  post: (postId: string) => ['post', postId] as const,
  /** Prefix of every calendar range of every workspace (what a move invalidates). */
  calendars: () => ['calendar'] as const,
  calendar: (workspaceId: string, query: CalendarQuery) => ['calendar', workspaceId, query] as const,
  sandboxTimeline: (workspaceId: string) => ['sandbox-timeline', workspaceId] as const,
  /** What an account allows as a post's options now (TikTok's creator_info). */
  postOptions: (accountId: string) => ['post-options', accountId] as const,
  /** Prefix of every inbox list (what a write on an item invalidates). */
  inboxes: () => ['inbox'] as const,
  inbox: (query: InboxQuery) => ['inbox', query] as const,
  inboxItem: (itemId: string) => ['inbox-item', itemId] as const,
};

/** The GET route handlers the client reads (app/api/app/...): session-authenticated, workspace-scoped. */
export const readUrls = {
  accounts: () => '/api/app/accounts',
  queue: () => '/api/app/queue',
  post: (postId: string) => `/api/app/posts/${encodeURIComponent(postId)}`,
  calendar: (query: CalendarQuery) =>
    `/api/app/calendar?${new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => !!e[1]))}`,
  sandboxTimeline: () => '/api/app/sandbox/timeline',
  postOptions: (accountId: string) => `/api/app/accounts/${encodeURIComponent(accountId)}/post-options`,
  inbox: (query: InboxQuery) =>
    `/api/app/inbox?${new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => !!e[1]))}`,
  inboxItem: (itemId: string) => `/api/app/inbox/${encodeURIComponent(itemId)}`,
};
