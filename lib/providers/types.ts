import type { Readable } from 'node:stream';
import type { ProviderName, ProviderState } from '@/db/schema';
import type { ByteRange } from '@/lib/media/media-storage';
import type { VideoFacts } from '@/lib/media/video';
import type { PostMetrics } from '@/lib/analytics/metrics';

export type { ProviderName, ProviderState };

/**
 * What every provider client offers the publisher and the reconciler (the registry, lib/providers/registry.ts,
 * holds one per network). Clients never retry a write on their own (docs/architecture.md#publishing).
 */

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
  /**
   * The format chosen for this target where a network has several (a VideoFormat id: `reel`, `story`…); none:
   * the network's default for the media attached.
   */
  format?: string;
  /** What earlier attempts of this delivery kept (Threads: its container id); empty on the first attempt. */
  state?: ProviderState;
  /**
   * Images, uploaded to the platform before the post (lib/providers/media-step.ts): a failed or unknown upload
   * means the post itself was never attempted.
   */
  media?: PublishMedia[];
  /**
   * Keeps provider state on the delivery before the next step (fenced by the claim). False when the claim
   * was lost: the client must then stop before anything that could publish.
   */
  saveState?: (state: ProviderState) => Promise<boolean>;
  /**
   * The choices made for this post on this account (deliveries.options), already checked by the network's
   * ProviderMeta `options` schema when the post was made; none: the network asks for none.
   */
  options?: PostOptions;
};

/**
 * Per-post choices a network asks the user for, never defaulted by us (TikTok's UX rules: the privacy level is picked
 * by the user from the creator's own options). Each network's shape is its ProviderMeta `options` schema.
 */
export type PostOptions = Readonly<Record<string, unknown>>;

/** What an account allows as options now (a network's own shape: TikTok's is TiktokOptionsInfo). */
export type PostOptionsInfo = Record<string, unknown>;

/** One image of a post, as a client uploads it. */
export type PublishMedia = {
  id: string;
  /** SHA-256 (hex) of the bytes `read` returns. */
  sha256: string;
  mimeType: string;
  altText: string;
  /** Bytes of the stored file (a chunked upload declares it first). */
  sizeBytes: number;
  /**
   * The stored bytes (an image's with EXIF stripped), whole in memory: for images. A video is read with `stream`.
   */
  read(): Promise<Uint8Array>;
  /**
   * The stored bytes as a stream, whole or one inclusive range, from the media storage: a provider uploads a video in
   * chunks from it without holding the file (up to MEDIA_VIDEO_MAX_BYTES) in memory. Rejects when the file is gone.
   */
  stream(range?: ByteRange): Promise<Readable>;
  /** A video's length, where it was probed (TikTok refuses one longer than the creator's maximum). */
  durationMs?: number;
  /** A signed URL that expires, serving the bytes from this app (Threads fetches images; Instagram and TikTok videos). */
  publicUrl?: () => string;
  /** A video's probe (absent for an image): what its upload declares (duration, size as displayed, codecs). */
  video?: Omit<VideoFacts, 'bitRate'>;
  /** A signed URL of a video's cover frame (a JPEG), for networks that take a cover by URL. */
  coverUrl?: () => string;
  /** A video's cover frame (a JPEG) from the media storage, for networks that take a cover's bytes (YouTube). */
  readCover?: () => Promise<Uint8Array>;
};

/** Small JSON a provider keeps per delivery across attempts (deliveries.provider_state). */

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
  /**
   * The platform refused the credentials themselves, before doing anything (401, Bluesky InvalidToken, Graph 190):
   * nothing was published, and only a reconnect helps. The publisher holds the delivery and marks the account.
   */
  tokenRejected?: boolean;
};

export type PublishResult = Classification & { raw: RawOutcome; startedAt: Date; durationMs: number };

export type RecentPost = {
  id: string;
  /** As the platform shows it (rendered HTML reduced to text, links rewritten, maybe cut short). */
  text: string;
  /** What the platform stored, where it can say (Mastodon's `/statuses/:id/source`): compared before `text`. */
  source?: string;
  createdAt: Date;
  inReplyTo: string | null;
  url?: string;
};

export type ListRecentInput = {
  since: Date;
  until?: Date;
  /**
   * Looking for a reply to this post: a network whose listings show no replies account-wide (Instagram's comments)
   * lists that post's replies instead; the others list as always (their replies are in their listings).
   */
  inReplyTo?: string | null;
  timeoutMs?: number;
  signal?: AbortSignal;
  maxPages?: number;
};

export type WhoAmIResult =
  /** `url`: the account's page as the platform answered it, where it names one. */
  | { ok: true; id: string; handle: string; displayName: string | null; url?: string | null }
  | { ok: false; outcome: Outcome; rule: string; reason: string; httpStatus?: number };

/** A post's public metrics as one read found them (docs/analytics.md#metrics); `gone`: deleted on the platform. */
export type PostMetricsRead =
  | { status: 'found'; metrics: PostMetrics }
  | { status: 'gone' }
  /**
   * Left out of the answer by a network that also leaves out what it cannot show yet (Bluesky's AppView: deleted,
   * taken down, or not indexed yet): deleted only if a read a delay later misses it too.
   */
  | { status: 'missing' }
  /** The network gives no metrics for this post (a TikTok publish that never got a public video id): read no more. */
  | { status: 'unsupported'; reason: string };

/**
 * How a client reads its account's posts' public metrics: `read` takes at most `batchSize` platform ids (a delivery's
 * `external_id`) and answers each it could settle; an id it leaves out was not answered this time (read again later).
 * Throws ProviderReadError when the platform cannot be read. `calls(n)` is how many platform calls a read of `n` ids
 * makes: what the read budget takes before it (docs/architecture.md#read-budget).
 */
export type PostMetricsReader = {
  batchSize: number;
  calls(count: number): number;
  read(input: { ids: string[]; timeoutMs?: number; signal?: AbortSignal }): Promise<Map<string, PostMetricsRead>>;
};

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
  /** Reads one delivery back by the provider's own evidence (record key, container, URN); see ReconcileStrategy. */
  readBack?(input: ReadBackInput): Promise<ReadBack>;
  /**
   * What this account allows as a post's options now (TikTok: creator_info), for the composer to offer only that; a
   * read (ProviderReadError when it cannot be read). Networks whose ProviderMeta has `options` may offer it.
   */
  postOptionsInfo?(options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<PostOptionsInfo>;
  /** Public metrics of the account's own posts, where the network gives them (none: not read; docs/analytics.md). */
  postMetrics?: PostMetricsReader;
  /**
   * The account's follower count now: one platform call; null when the network gives none to this token (read no
   * more). Throws ProviderReadError when it cannot be read.
   */
  readFollowers?(options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<number | null>;
  /**
   * Every identity this token can publish as (LinkedIn: the member and the organization pages they administer);
   * after an OAuth connect each becomes an account. Without it, the one `whoAmI` names.
   */
  listIdentities?(options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<
    {
      platformUserId: string;
      handle: string;
      displayName: string | null;
      /** The identity's own credentials where it has them (a Facebook page's token); else the connect's. */
      credentials?: AccountCredentials;
    }[]
  >;
}

/** What the reconciler gives a provider to read back one ambiguous delivery by its own evidence. */
export type ReadBackInput = {
  /** The delivery id: the same key every attempt sent (Bluesky derives its record key from it). */
  idempotencyKey: string;
  /** The `createdAt` every attempt was given (the first attempt's start); Bluesky's record key uses its hour. */
  createdAt?: Date;
  text: string;
  kind: PostKind;
  inReplyTo: string | null;
  state: ProviderState;
  /** The evidence of each ambiguous attempt, oldest first (classification.evidence). */
  evidence: Record<string, unknown>[];
  since: Date;
  until: Date;
  timeoutMs?: number;
  signal?: AbortSignal;
};

/**
 * A provider's own reading of one delivery. `found`/`absent` are authoritative for that delivery (a record
 * read by its key, a container's status); `list` means there is no such evidence: read the account's posts.
 */
export type ReadBack =
  | { verdict: 'found'; post: RecentPost; evidence?: Record<string, unknown> }
  | { verdict: 'absent'; evidence?: Record<string, unknown> }
  | { verdict: 'review'; reason: string; evidence?: Record<string, unknown> }
  /** `dropOnRelease`: provider_state keys to drop if the listing releases the delivery (an expired container). */
  | { verdict: 'list'; evidence?: Record<string, unknown>; dropOnRelease?: string[] }
  /** The platform is still working on it (a TikTok publish processing): read again then, nothing is sent meanwhile. */
  | { verdict: 'pending'; reason: string; retryAt: Date; evidence?: Record<string, unknown> };

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

/** What is sealed in social_accounts.credentials_encrypted (lib/providers/credentials.ts). */
export type AccountCredentials = {
  accessToken: string;
  /** OAuth refresh token, or a Bluesky session's refreshJwt. */
  refreshToken?: string;
  /** When the access token expires (ISO 8601); refreshed before then by the token job. */
  expiresAt?: string;
  /** Bluesky: the account identifier and app password, to open a new session when the old one is gone. */
  identifier?: string;
  appPassword?: string;
};

/** What a client needs from a social account: where the platform is and the decrypted credentials. */
export type ProviderAccount = {
  provider: ProviderName;
  /** Absolute URL, or relative (`/api/sandbox/x`) meaning this app's own origin. */
  baseUrl: string;
  platformUserId: string;
  accessToken: string;
  credentials?: AccountCredentials;
};
