/** The sandbox network's model, independent of where it is stored (Postgres or memory). */

export type Platform = 'x' | 'mastodon';
export type SandboxPostKind = 'post' | 'reply' | 'dm';

export type SandboxAccount = { id: string; platform: Platform; platformUserId: string; handle: string; displayName: string | null };

export type SandboxPost = {
  id: string;
  accountId: string;
  kind: SandboxPostKind;
  text: string;
  inReplyToId: string | null;
  recipientId: string | null;
  idempotencyKey: string | null;
  createdAt: Date;
};

export type FaultSettings = {
  latencyMs: number;
  timeoutBeforeCommit: number;
  timeoutAfterCommit: number;
  errorAfterCommit: number;
  resetAfterCommit: number;
  rateLimited: number;
};

export const NO_FAULTS: FaultSettings = { latencyMs: 0, timeoutBeforeCommit: 0, timeoutAfterCommit: 0, errorAfterCommit: 0, resetAfterCommit: 0, rateLimited: 0 };

export type NewSandboxPost = {
  account: SandboxAccount;
  kind: SandboxPostKind;
  text: string;
  inReplyToId?: string | null;
  recipientId?: string | null;
  /** Mastodon: a key seen within `idempotencyWindowMs` returns the original post instead of a new one. */
  idempotencyKey?: string | null;
  idempotencyWindowMs?: number;
  /** X: identical text on the account within this window is refused. */
  duplicateWindowMs?: number;
};

export type CreatePostResult = { status: 'created' | 'replayed'; post: SandboxPost } | { status: 'duplicate' };

export type PostQuery = {
  kinds: SandboxPostKind[];
  startTime?: Date;
  endTime?: Date;
  maxId?: string;
  sinceId?: string;
  limit: number;
};

export interface SandboxStore {
  authenticate(platform: Platform, token: string): Promise<SandboxAccount | null>;
  getAccount(platform: Platform, platformUserId: string): Promise<SandboxAccount | null>;
  getAccountById(id: string): Promise<SandboxAccount | null>;
  registerAccount(input: { platform: Platform; platformUserId: string; handle: string; displayName?: string | null; token: string }): Promise<SandboxAccount>;
  /** Atomic per the rules in NewSandboxPost (duplicate text, idempotency key). */
  createPost(input: NewSandboxPost): Promise<CreatePostResult>;
  getPost(id: string): Promise<SandboxPost | null>;
  /** Newest first. */
  listPosts(accountId: string, query: PostQuery): Promise<SandboxPost[]>;
  countPosts(accountIds: string[]): Promise<Map<string, number>>;
  getFaults(accountId: string): Promise<FaultSettings>;
  setFaults(accountIds: string[], faults: FaultSettings): Promise<void>;
}

/** An account as a control-endpoint caller knows it: `accountId` is the id they use (the product's account id). */
export type ScopedAccount = { accountId: string; handle: string; disconnected: boolean; account: SandboxAccount };

/** The sandbox accounts one caller may see and change, or a problem response (401/403). */
export type ScopeResolver = (request: Request) => Promise<ScopedAccount[] | Response>;

export type SandboxDeps = {
  store: SandboxStore;
  resolveScope: ScopeResolver;
  /** How long "timeout" faults hold a request that the client has not abandoned (default 120 s). */
  hangMs?: number;
  random?: () => number;
};
