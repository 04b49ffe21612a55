/**
 * What every provider client (X, Mastodon, later Bluesky) offers the publisher and the reconciler.
 * Clients make exactly one HTTP call per method call: no retries anywhere (docs/architecture.md#publishing).
 */

export type ProviderName = 'x' | 'mastodon' | 'bluesky';
export type PostKind = 'post' | 'reply' | 'dm';

/** The four outcomes a platform call can have; `ambiguous` is never retried blindly. */
export type Outcome = 'sent' | 'failed' | 'not_sent' | 'ambiguous';

export type PublishInput = {
  text: string;
  kind: PostKind;
  /** Platform id of the post replied to (kind `reply`). */
  inReplyTo?: string;
  /** Platform user (X user id, Mastodon acct) the message goes to (kind `dm`). */
  recipient?: string;
  /**
   * One key per delivery, the same on every attempt. Mastodon sends it as `Idempotency-Key`;
   * Bluesky will derive its record key from it; X has no equivalent and ignores it.
   */
  idempotencyKey: string;
  /** Frozen at the first attempt, for platforms that store the client's timestamp (Bluesky `createdAt`). */
  createdAt?: Date;
  /** Whole-call budget (connect, send, response body); keep it shorter than the claim's lease. */
  timeoutMs?: number;
  /** Caller's cancellation (e.g. shutdown); an abort after the call started is ambiguous. */
  signal?: AbortSignal;
};

/** Exactly what happened on the wire, before any interpretation. */
export type RawOutcome =
  | { type: 'response'; status: number; headers: Record<string, string>; body: unknown; bodyText: string }
  /** Status and headers arrived, the body did not (reset or timeout mid-body). */
  | {
      type: 'body-error';
      status: number;
      headers: Record<string, string>;
      code: string | null;
      message: string;
      timedOut: boolean;
    }
  /** No response at all; `connection` says how far the request got on the wire. */
  | {
      type: 'error';
      code: string | null;
      name: string;
      message: string;
      timedOut: boolean;
      connection: ConnectionFacts;
    };

/**
 * What the socket did during one request, observed on the wire: the facts that decide whether the
 * request may have reached the platform (docs/architecture.md#network-classification: not_sent only when it provably did not).
 */
export type ConnectionFacts = {
  /** A socket was handed to the request (fresh or from the keep-alive pool). */
  socketAssigned: boolean;
  /** The socket came from the keep-alive pool: earlier requests used it, so nothing had to connect. */
  reused: boolean;
  /** https: request bytes travel only after a TLS handshake. */
  tls: boolean;
  /** TCP connect completed during this request (`connect`). */
  connected: boolean;
  /** The TLS handshake, certificate check included, completed during this request (`secureConnect`). */
  secured: boolean;
  /**
   * Request bytes this socket passed on toward the platform (to the kernel; on https once the handshake
   * completed, as the TLS layer holds them until then). Counts completed writes, so it may lag a write in flight.
   */
  bytesWritten: number;
};

export type Classification = {
  outcome: Outcome;
  /** Id of the classifier table row that matched (tests cover every row). */
  rule: string;
  /** One sentence for people: shown beside the delivery. */
  reason: string;
  externalId?: string;
  url?: string;
  httpStatus?: number;
  /** not_sent because of a rate limit: do not call again before this. */
  retryAt?: Date;
  /** ambiguous on a platform with idempotency keys: the same key may be resent until then. */
  safeRetryUntil?: Date;
  /** What a reconciler or an admin needs to settle an ambiguous outcome. */
  evidence?: Record<string, unknown>;
};

export type PublishResult = Classification & { raw: RawOutcome; startedAt: Date; durationMs: number };

export type RecentPost = { id: string; text: string; createdAt: Date; inReplyTo: string | null; url?: string };

export type ListRecentInput = {
  since: Date;
  until?: Date;
  timeoutMs?: number;
  signal?: AbortSignal;
  maxPages?: number;
};

export type WhoAmIResult =
  | { ok: true; id: string; handle: string; displayName: string | null }
  | { ok: false; outcome: Outcome; rule: string; reason: string; httpStatus?: number };

export interface ProviderClient {
  readonly provider: ProviderName;
  /** One attempt; never throws for platform or network failures: the result says what happened. */
  publish(input: PublishInput): Promise<PublishResult>;
  /** The account's own posts created in [since, until], newest first; throws ProviderReadError when unreadable. */
  listRecent(input: ListRecentInput): Promise<RecentPost[]>;
  /** The connection check: who the token belongs to. */
  whoAmI(options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<WhoAmIResult>;
  /** Deletes one of the account's own posts (extra copies); a post already gone counts as deleted. */
  deletePost(id: string, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<DeleteResult>;
}

export type DeleteResult = { ok: true; alreadyGone: boolean } | { ok: false; reason: string; httpStatus?: number };

/** Reading the platform failed (reconciliation then decides: recheck later or needs_review). */
export class ProviderReadError extends Error {
  constructor(
    message: string,
    readonly classification: Classification,
  ) {
    super(message);
    this.name = 'ProviderReadError';
  }
}

/** What a client needs from a social account: where the platform is and the decrypted token. */
export type ProviderAccount = {
  provider: ProviderName;
  /** Absolute URL, or relative (`/api/sandbox/x`) meaning this app's own origin. */
  baseUrl: string;
  platformUserId: string;
  accessToken: string;
};
